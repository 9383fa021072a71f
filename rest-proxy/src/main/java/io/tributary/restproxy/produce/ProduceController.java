package io.tributary.restproxy.produce;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.format.EmbeddedFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Confluent REST Proxy v2 produce: {@code POST /topics/{topic}} and
 * {@code POST /topics/{topic}/partitions/{partition}}. The request's {@code Content-Type} picks
 * the embedded format; the answer lists one offset or error per record, in request order.
 */
@RestController
@Tag(name = "Produce (v2)", description = "Confluent REST Proxy API v2 produce")
public class ProduceController {

    private final ProduceService produceService;
    private final JsonMapper mapper;

    public ProduceController(ProduceService produceService, JsonMapper mapper) {
        this.produceService = produceService;
        this.mapper = mapper;
    }

    @PostMapping(path = "/topics/{topic}", produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Produce records to a topic",
        description = "Content-Type application/vnd.kafka.json.v2+json (or application/json) embeds keys and values "
            + "as JSON; application/vnd.kafka.binary.v2+json as base64. A record's `partition` picks its partition; "
            + "otherwise the key's hash does. Errors: 40401 unknown topic, 40402 unknown partition, 415 other "
            + "content types, 422 malformed JSON or base64, 413 body too large; per record 50002 or 50003.")
    public CompletableFuture<ProduceResponse> produceToTopic(@PathVariable String topic,
            @RequestHeader(name = "Content-Type", required = false) MediaType contentType,
            @RequestBody ProduceRequest request) {
        return produce(topic, null, contentType, request);
    }

    @PostMapping(path = "/topics/{topic}/partitions/{partition}",
        produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Produce records to one partition",
        description = "As producing to the topic, with every record sent to the partition in the path.")
    public CompletableFuture<ProduceResponse> produceToPartition(@PathVariable String topic,
            @Parameter(description = "partition number") @PathVariable int partition,
            @RequestHeader(name = "Content-Type", required = false) MediaType contentType,
            @RequestBody ProduceRequest request) {
        return produce(topic, partition, contentType, request);
    }

    private CompletableFuture<ProduceResponse> produce(String topic, Integer pathPartition, MediaType contentType,
            ProduceRequest request) {
        EmbeddedFormat format = EmbeddedFormat.forContentType(contentType);
        if (request == null || request.records() == null) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("The request body needs a \"records\" array");
        }
        List<OutgoingRecord> records = new ArrayList<>(request.records().size());
        for (int i = 0; i < request.records().size(); i++) {
            ProduceRecord record = request.records().get(i);
            if (record == null) {
                throw RestError.UNPROCESSABLE_ENTITY.exception("records[" + i + "] is null");
            }
            String field = "records[" + i + "]";
            records.add(new OutgoingRecord(pathPartition != null ? pathPartition : record.partition(),
                format.toBytes(record.key(), mapper, field + ".key"),
                format.toBytes(record.value(), mapper, field + ".value"),
                headers(record.headers(), format, field + ".headers")));
        }
        return produceService.produce(topic, records).thenApply(ProduceResponse::new);
    }

    /** Headers as a list of {@code {"name"|"key": .., "value": ..}} or an object of name to value. */
    private static List<Header> headers(JsonNode node, EmbeddedFormat format, String field) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return List.of();
        }
        List<Header> headers = new ArrayList<>();
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode header = node.get(i);
                JsonNode name = header.has("name") ? header.get("name") : header.get("key");
                if (name == null || !name.isString()) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception(field + "[" + i + "] needs a string \"name\"");
                }
                headers.add(new RecordHeader(name.asString(), headerValue(header.get("value"), format,
                    field + "[" + i + "].value")));
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                headers.add(new RecordHeader(entry.getKey(), headerValue(entry.getValue(), format,
                    field + "." + entry.getKey())));
            }
        } else {
            throw RestError.UNPROCESSABLE_ENTITY.exception(field + " must be an array or an object");
        }
        return headers;
    }

    private static byte[] headerValue(JsonNode value, EmbeddedFormat format, String field) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (!value.isString()) {
            throw RestError.UNPROCESSABLE_ENTITY.exception(field + " must be a string");
        }
        return format == EmbeddedFormat.BINARY ? format.toBytes(value, null, field)
            : value.asString().getBytes(StandardCharsets.UTF_8);
    }
}
