package io.tributary.restproxy.share;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.ConsumerInstanceExistsException;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.format.EmbeddedFormat;
import io.tributary.restproxy.http.LongPoll;
import io.tributary.restproxy.metrics.RecordMetrics;
import io.tributary.restproxy.share.ShareAcknowledgement.RecordId;
import io.tributary.restproxy.share.ShareBodies.AcknowledgeRequest;
import io.tributary.restproxy.share.ShareBodies.AcknowledgeResponse;
import io.tributary.restproxy.share.ShareBodies.CreatedShareInstance;
import io.tributary.restproxy.share.ShareBodies.RecordAcknowledgement;
import io.tributary.restproxy.share.ShareBodies.ShareSubscription;
import io.tributary.restproxy.share.ShareBodies.SharedHeader;
import io.tributary.restproxy.share.ShareBodies.SharedRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Queues over HTTP: share consumer instances in share groups (KIP-932), in the style of the v2
 * consumer instances. Records read are held by the instance until acknowledged; see
 * {@link ShareInstance} for what happens to records not acknowledged.
 */
@RestController
@RequestMapping(path = "/share-groups/{group}/instances", produces = {EmbeddedFormat.KAFKA_V2,
    MediaType.APPLICATION_JSON_VALUE})
@Tag(name = "Share groups (queues)", description = "Share consumer instances (KIP-932): several consumers read one "
    + "partition, each record is acknowledged on its own (ACCEPT, RELEASE, REJECT, RENEW)")
public class ShareGroupsController {

    private final ShareInstanceManager instances;
    private final ShareInstancePeers peers;
    private final RestProxyProperties properties;
    private final JsonMapper mapper;
    private final RecordMetrics metrics;
    private final Executor answers;

    public ShareGroupsController(ShareInstanceManager instances, ShareInstancePeers peers,
            RestProxyProperties properties, JsonMapper mapper, RecordMetrics metrics,
            @Qualifier("applicationTaskExecutor") Executor answers) {
        this.instances = instances;
        this.peers = peers;
        this.properties = properties;
        this.mapper = mapper;
        this.metrics = metrics;
        this.answers = answers;
    }

    @PostMapping
    @Operation(summary = "Create a share consumer instance in a share group",
        description = "Body fields (all optional): name, format (binary, json), share.acknowledgement.mode (only "
            + "explicit), max.poll.records (most records per read), consumer.request.timeout.ms. The group reads "
            + "from its share.auto.offset.reset (latest by default). Errors: 40902 name taken, 42204 invalid "
            + "configuration.",
        requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples =
            @ExampleObject(value = "{\"name\":\"worker-1\",\"format\":\"json\",\"share.acknowledgement.mode\":"
                + "\"explicit\",\"max.poll.records\":10}"))))
    public CreatedShareInstance create(@PathVariable String group, @RequestBody(required = false) JsonNode body) {
        if (body != null && !body.isObject() && !body.isNull() && !body.isMissingNode()) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("The request body must be a JSON object");
        }
        ShareInstanceConfig config = ShareInstanceConfig.parse(body);
        if (config.name() != null && !instances.contains(group, config.name())
                && peers.findOnPeers(group, config.name()).isPresent()) {
            throw new ConsumerInstanceExistsException();
        }
        ShareInstance instance = instances.create(group, config);
        return new CreatedShareInstance(instance.id(), baseUri(group, instance.id()));
    }

    @DeleteMapping("/{instance}")
    @Operation(summary = "Delete a share consumer instance", description = "Its share consumer leaves the group; "
        + "records it holds unacknowledged go back to the group for other consumers. Errors: 40403.")
    public ResponseEntity<Void> delete(@PathVariable String group, @PathVariable String instance) {
        instances.delete(group, instance);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/{instance}/subscription")
    @Operation(summary = "Subscribe a share consumer instance to topics", description = "Replaces the earlier "
        + "list. Errors: 40403, 422 no topics.")
    public ResponseEntity<Void> subscribe(@PathVariable String group, @PathVariable String instance,
            @RequestBody ShareSubscription subscription) {
        ShareInstance consumer = instances.get(group, instance);
        if (subscription.topics() == null || subscription.topics().isEmpty()
                || subscription.topics().stream().anyMatch(t -> t == null || t.isBlank())) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("Give \"topics\", a non-empty list of topic names");
        }
        consumer.subscribe(List.copyOf(new LinkedHashSet<>(subscription.topics())));
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{instance}/subscription")
    @Operation(summary = "The topics a share consumer instance is subscribed to", description = "Errors: 40403.")
    public ShareSubscription subscription(@PathVariable String group, @PathVariable String instance) {
        return new ShareSubscription(instances.get(group, instance).subscription().stream().sorted().toList());
    }

    @GetMapping(path = "/{instance}/records", produces = {EmbeddedFormat.BINARY_V2, EmbeddedFormat.JSON_V2,
        EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Long-poll a batch of records from a share group",
        description = "Answers as soon as a poll returns records (at most max.poll.records), else after `timeout` "
            + "ms with []. Each record carries topic, partition, offset, key, value, headers and delivery_count, "
            + "and stays locked for this instance until acknowledged (or until the group's "
            + "share.record.lock.duration.ms passes, when it goes back to the group). While any record of the "
            + "last batch is not acknowledged, this answers 409 with error_code 40904. Errors: 40403, 40903 not "
            + "subscribed, 40904, 50002/50003.")
    public DeferredResult<ResponseEntity<List<SharedRecord>>> records(@PathVariable String group,
            @PathVariable String instance,
            @Parameter(description = "longest wait, ms (0 or absent: the instance's consumer.request.timeout.ms; "
                + "at most rest-proxy.consumer-request-max-timeout)") @RequestParam(required = false) Long timeout) {
        ShareInstance consumer = instances.get(group, instance);
        EmbeddedFormat format = consumer.config().format();
        long timeoutMs = LongPoll.waitMs(timeout, consumer.config().requestTimeoutMs() != null
            ? consumer.config().requestTimeoutMs() : properties.consumerRequestTimeout().toMillis(),
            properties.consumerRequestMaxTimeout().toMillis());
        return LongPoll.of(consumer.read(timeoutMs), timeoutMs, records -> {
            List<SharedRecord> body = new ArrayList<>(records.size());
            long bytes = 0;
            for (ConsumerRecord<byte[], byte[]> record : records) {
                bytes += RecordMetrics.size(record);
                body.add(toBody(record, format));
            }
            metrics.consumed("share", records.size(), bytes);
            return ResponseEntity.ok().contentType(format.mediaType()).body(body);
        }, answers);
    }

    @PostMapping("/{instance}/acknowledgements")
    @Operation(summary = "Acknowledge records of a share consumer instance",
        description = "Each record listed gets its type (ACCEPT: done; RELEASE: deliver again, to any consumer; "
            + "REJECT: never deliver again; RENEW: keep it locked longer, the next read returns it again), or the request's "
            + "`type`; without a list every record the instance holds gets `type`. The acknowledgements are "
            + "committed to the brokers before this answers. Errors: 40403, 422 bad type or record, 40905 a record "
            + "not held by the instance (nothing acknowledged) or whose lock expired, 50002/50003.",
        requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(examples = {
            @ExampleObject(name = "per record", value = "{\"acknowledgements\":[{\"topic\":\"jobs\",\"partition\":0,"
                + "\"offset\":41,\"type\":\"ACCEPT\"},{\"topic\":\"jobs\",\"partition\":0,\"offset\":42,"
                + "\"type\":\"RELEASE\"}]}"),
            @ExampleObject(name = "the whole batch", value = "{\"type\":\"ACCEPT\"}")})))
    public AcknowledgeResponse acknowledge(@PathVariable String group, @PathVariable String instance,
            @RequestBody AcknowledgeRequest request) {
        ShareInstance consumer = instances.get(group, instance);
        AcknowledgeType defaultType = request.type() == null ? null : type(request.type());
        List<ShareAcknowledgement> acknowledgements = null;
        if (request.acknowledgements() != null) {
            acknowledgements = new ArrayList<>();
            for (RecordAcknowledgement ack : request.acknowledgements()) {
                if (ack.topic() == null || ack.topic().isEmpty() || ack.partition() == null || ack.offset() == null) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception("Every acknowledgement needs \"topic\", "
                        + "\"partition\" and \"offset\"");
                }
                AcknowledgeType type = ack.type() != null ? type(ack.type()) : defaultType;
                if (type == null) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception("Acknowledgement of " + ack.topic() + "-"
                        + ack.partition() + "@" + ack.offset() + " needs a \"type\" (or give one for the request)");
                }
                acknowledgements.add(new ShareAcknowledgement(new RecordId(ack.topic(), ack.partition(),
                    ack.offset()), type));
            }
        } else if (defaultType == null) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("Give \"acknowledgements\", or a \"type\" for every "
                + "record held");
        }
        ShareInstance.Acknowledged done = consumer.acknowledge(acknowledgements, defaultType);
        return new AcknowledgeResponse(done.acknowledged(), done.stillHeld());
    }

    private SharedRecord toBody(ConsumerRecord<byte[], byte[]> record, EmbeddedFormat format) {
        List<SharedHeader> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new SharedHeader(header.key(), format.headerToJson(header.value())));
        }
        return new SharedRecord(record.topic(), record.partition(), record.offset(), format.toJson(record.key(), mapper),
            format.toJson(record.value(), mapper), headers, record.deliveryCount().map(Short::intValue).orElse(null));
    }

    /** The acknowledgement type named, case-insensitive; 422 for another. */
    private static AcknowledgeType type(String name) {
        try {
            return AcknowledgeType.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("Acknowledgement type '" + name
                + "' is not one of ACCEPT, RELEASE, REJECT, RENEW");
        }
    }

    private String baseUri(String group, String id) {
        String base = properties.advertisedUrl().isEmpty()
            ? ServletUriComponentsBuilder.fromCurrentContextPath().toUriString()
            : properties.advertisedUrl().replaceAll("/+$", "");
        return base + "/share-groups/" + UriUtils.encodePathSegment(group, StandardCharsets.UTF_8) + "/instances/"
            + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
    }
}
