package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.RestExceptionHandler;
import io.tributary.restproxy.produce.ProduceService;
import io.tributary.restproxy.v3.V3RecordCodec.Decoded;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * v3 produce: one record per request, a stream of records in one chunked request (one answer
 * per record, streamed back in order as each is acknowledged), or a batch with ids.
 */
@RestController
@Tag(name = "Produce (v3)", description = "Confluent REST Proxy API v3 produce, single, streamed and batched")
public class V3ProduceController {

    /** Records sent ahead of the oldest unanswered one in a stream. */
    private static final int MAX_IN_FLIGHT = 1000;

    private final ClusterAdmin admin;
    private final ProduceService produceService;
    private final JsonMapper mapper;
    private final V3RecordCodec codec;

    public V3ProduceController(ClusterAdmin admin, ProduceService produceService, JsonMapper mapper) {
        this.admin = admin;
        this.produceService = produceService;
        this.mapper = mapper;
        this.codec = new V3RecordCodec(mapper);
    }

    @PostMapping(path = "/v3/clusters/{clusterId}/topics/{topic}/records",
        consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Produce a record, or a stream of records",
        description = "The body is one record {partition_id, headers, key:{type,data}, value:{type,data}, timestamp} "
            + "or several concatenated (send them chunked to stream); each gets an answer {error_code: 200, "
            + "partition_id, offset, timestamp, key:{type,size}, value:{type,size}} or {error_code, message}, "
            + "written in order as soon as it is acknowledged. Types: BINARY (base64), JSON, STRING. Errors "
            + "before the first answer: 404 unknown cluster, 40401 unknown topic.")
    public void produce(@PathVariable String clusterId, @PathVariable String topic, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        admin.checkCluster(clusterId);
        int partitions = produceService.checkTopic(topic, null);
        response.setStatus(HttpStatus.OK.value());
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        OutputStream out = response.getOutputStream();
        ArrayDeque<CompletableFuture<ObjectNode>> pending = new ArrayDeque<>();
        try (MappingIterator<JsonNode> records = mapper.readerFor(JsonNode.class)
                .readValues(request.getInputStream())) {
            while (records.hasNext()) {
                pending.add(produceOne(clusterId, topic, partitions, records.next()));
                writeDone(pending, out, pending.size() >= MAX_IN_FLIGHT);
            }
        } catch (JacksonException e) {
            pending.add(CompletableFuture.completedFuture(codec.failure(400, "Malformed JSON: "
                + e.getOriginalMessage())));
        } catch (RestException e) {
            // The body went over the size limit: answer what was read, then say so.
            pending.add(CompletableFuture.completedFuture(codec.failure(RestExceptionHandler.errorFor(e).code(),
                e.getMessage())));
        }
        while (!pending.isEmpty()) {
            writeDone(pending, out, true);
        }
    }

    @PostMapping(path = "/v3/clusters/{clusterId}/topics/{topic}/records:batch",
        consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Produce a batch of records with ids",
        description = "Body {\"entries\": [{\"id\": \"1\", ...record}]} (up to 1000, unique ids); answer 207 with "
            + "{\"successes\": [{id, ...answer}], \"failures\": [{id, error_code, message}]}. Errors: 404, 40401, 400.")
    public ResponseEntity<JsonNode> produceBatch(@PathVariable String clusterId, @PathVariable String topic,
            @RequestBody JsonNode body) {
        admin.checkCluster(clusterId);
        int partitions = produceService.checkTopic(topic, null);
        JsonNode entries = V3BatchEntries.entries(body);
        List<String> ids = V3BatchEntries.ids(entries);
        List<CompletableFuture<ObjectNode>> results = new ArrayList<>();
        for (JsonNode entry : entries) {
            results.add(produceOne(clusterId, topic, partitions, entry));
        }
        ObjectNode answer = mapper.createObjectNode();
        ArrayNode successes = answer.putArray("successes");
        ArrayNode failures = answer.putArray("failures");
        for (int i = 0; i < results.size(); i++) {
            ObjectNode result = results.get(i).join();
            ObjectNode withId = mapper.createObjectNode().put("id", ids.get(i));
            withId.setAll(result);
            (result.get("error_code").asInt() == 200 ? successes : failures).add(withId);
        }
        return ResponseEntity.status(HttpStatus.MULTI_STATUS).contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    private CompletableFuture<ObjectNode> produceOne(String clusterId, String topic, int partitions, JsonNode node) {
        Decoded decoded;
        try {
            decoded = codec.decode(node, topic, partitions);
        } catch (RestException e) {
            return CompletableFuture.completedFuture(codec.failure(RestExceptionHandler.errorFor(e).code(),
                e.getMessage()));
        }
        return produceService.send("v3", topic, decoded.record(), decoded.timestampMs()).handle((metadata, e) -> e == null
            ? codec.success(clusterId, topic, decoded, metadata)
            : codec.failure(RestExceptionHandler.errorFor(e).code(), KafkaErrors.describe(e)));
    }

    /** Writes the answers at the head that are done (all, waiting, when {@code block}), then flushes. */
    private void writeDone(ArrayDeque<CompletableFuture<ObjectNode>> pending, OutputStream out, boolean block)
            throws IOException {
        boolean wrote = false;
        while (!pending.isEmpty() && (block || pending.peek().isDone())) {
            out.write(mapper.writeValueAsBytes(pending.poll().join()));
            out.write('\n');
            wrote = true;
            block = false;
        }
        if (wrote) {
            out.flush();
        }
    }
}
