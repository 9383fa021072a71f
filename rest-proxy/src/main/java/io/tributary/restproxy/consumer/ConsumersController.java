package io.tributary.restproxy.consumer;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.consumer.ConsumerBodies.CommittedOffsets;
import io.tributary.restproxy.consumer.ConsumerBodies.ConsumedRecord;
import io.tributary.restproxy.consumer.ConsumerBodies.CreatedInstance;
import io.tributary.restproxy.consumer.ConsumerBodies.Offsets;
import io.tributary.restproxy.consumer.ConsumerBodies.Partition;
import io.tributary.restproxy.consumer.ConsumerBodies.PartitionOffset;
import io.tributary.restproxy.consumer.ConsumerBodies.PartitionTimestamp;
import io.tributary.restproxy.consumer.ConsumerBodies.Partitions;
import io.tributary.restproxy.consumer.ConsumerBodies.SubscribedTopics;
import io.tributary.restproxy.consumer.ConsumerBodies.Subscription;
import io.tributary.restproxy.error.ConsumerInstanceExistsException;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.format.EmbeddedFormat;
import io.tributary.restproxy.http.LongPoll;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.metrics.RecordMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Confluent REST Proxy v2 consumers: create and delete instances, subscribe or assign, seek,
 * long-poll records, commit and read committed offsets.
 */
@RestController
@RequestMapping(path = "/consumers/{group}", produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
@Tag(name = "Consumers (v2)", description = "Confluent REST Proxy API v2 consumer instances")
public class ConsumersController {

    private final ConsumerManager consumers;
    private final PeerInstances peers;
    private final ClusterMetadata metadata;
    private final RestProxyProperties properties;
    private final JsonMapper mapper;
    private final RecordMetrics metrics;
    private final Executor answers;

    public ConsumersController(ConsumerManager consumers, PeerInstances peers, ClusterMetadata metadata,
            RestProxyProperties properties, JsonMapper mapper, RecordMetrics metrics,
            @Qualifier("applicationTaskExecutor") Executor answers) {
        this.answers = answers;
        this.consumers = consumers;
        this.peers = peers;
        this.metadata = metadata;
        this.properties = properties;
        this.mapper = mapper;
        this.metrics = metrics;
    }

    @PostMapping
    @Operation(summary = "Create a consumer instance in a group",
        description = "Body fields (all optional): name, format (binary, json), auto.offset.reset (earliest, latest, "
            + "none), auto.commit.enable, auto.commit.interval.ms, fetch.min.bytes, consumer.request.timeout.ms. "
            + "Errors: 40902 name taken, 42204 invalid configuration.")
    public CreatedInstance create(@PathVariable String group, @RequestBody(required = false) JsonNode body) {
        if (body != null && !body.isObject() && !body.isNull() && !body.isMissingNode()) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("The request body must be a JSON object");
        }
        ConsumerInstanceConfig config = ConsumerInstanceConfig.parse(body);
        // A name is unique in its group across the proxy replicas, as it is on one Confluent proxy.
        if (config.name() != null && !consumers.contains(group, config.name())
                && peers.findOnPeers(group, config.name()).isPresent()) {
            throw new ConsumerInstanceExistsException();
        }
        ConsumerInstance instance = consumers.create(group, config);
        return new CreatedInstance(instance.id(), baseUri(group, instance.id()));
    }

    @DeleteMapping("/instances/{instance}")
    @Operation(summary = "Delete a consumer instance", description = "Its Kafka consumer leaves the group. "
        + "Errors: 40403.")
    public ResponseEntity<Void> delete(@PathVariable String group, @PathVariable String instance) {
        consumers.delete(group, instance);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/instances/{instance}/subscription")
    @Operation(summary = "Subscribe to topics or a topic pattern",
        description = "Errors: 40403, 40901 switching between a topic list and a pattern, 40903 when assigned.")
    public ResponseEntity<Void> subscribe(@PathVariable String group, @PathVariable String instance,
            @RequestBody Subscription subscription) {
        ConsumerInstance consumer = consumers.get(group, instance);
        boolean hasTopics = subscription.topics() != null && !subscription.topics().isEmpty();
        boolean hasPattern = subscription.topicPattern() != null && !subscription.topicPattern().isEmpty();
        if (hasTopics == hasPattern) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("Give either \"topics\" or \"topic_pattern\"");
        }
        if (hasTopics) {
            consumer.subscribe(List.copyOf(new LinkedHashSet<>(subscription.topics())));
        } else {
            try {
                consumer.subscribe(Pattern.compile(subscription.topicPattern()));
            } catch (PatternSyntaxException e) {
                throw RestError.UNPROCESSABLE_ENTITY.exception("topic_pattern is not a regular expression: "
                    + e.getDescription());
            }
        }
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/instances/{instance}/subscription")
    @Operation(summary = "The topics subscribed to", description = "Errors: 40403.")
    public SubscribedTopics subscription(@PathVariable String group, @PathVariable String instance) {
        return new SubscribedTopics(consumers.get(group, instance).subscription().stream().sorted().toList());
    }

    @DeleteMapping("/instances/{instance}/subscription")
    @Operation(summary = "Unsubscribe", description = "Errors: 40403.")
    public ResponseEntity<Void> unsubscribe(@PathVariable String group, @PathVariable String instance) {
        consumers.get(group, instance).unsubscribe();
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/instances/{instance}/assignments")
    @Operation(summary = "Assign partitions manually",
        description = "Errors: 40401 unknown topic, 40402 unknown partition, 40403, 40903 when subscribed.")
    public ResponseEntity<Void> assign(@PathVariable String group, @PathVariable String instance,
            @RequestBody Partitions partitions) {
        ConsumerInstance consumer = consumers.get(group, instance);
        List<TopicPartition> assigned = existing(partitions(partitions));
        consumer.assign(assigned);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/instances/{instance}/assignments")
    @Operation(summary = "The partitions assigned", description = "Errors: 40403.")
    public Partitions assignments(@PathVariable String group, @PathVariable String instance) {
        return new Partitions(consumers.get(group, instance).assignment().stream()
            .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
            .map(tp -> new Partition(tp.topic(), tp.partition())).toList());
    }

    @PostMapping("/instances/{instance}/positions")
    @Operation(summary = "Seek to offsets (or to timestamps)",
        description = "Body {\"offsets\":[{topic,partition,offset}]} or {\"timestamps\":[{topic,partition,timestamp}]}. "
            + "Errors: 40403, 40903 for a partition not assigned.")
    public ResponseEntity<Void> seek(@PathVariable String group, @PathVariable String instance,
            @RequestBody Offsets body) {
        ConsumerInstance consumer = consumers.get(group, instance);
        if (body.timestamps() != null && !body.timestamps().isEmpty()) {
            Map<TopicPartition, Long> timestamps = new HashMap<>();
            for (PartitionTimestamp t : body.timestamps()) {
                if (t.timestamp() == null || t.timestamp() < 0) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception("Every timestamp needs a non-negative "
                        + "\"timestamp\" (ms)");
                }
                timestamps.put(partition(t.topic(), t.partition()), t.timestamp());
            }
            consumer.seekToTimestamps(timestamps);
        } else {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            for (PartitionOffset o : list(body.offsets(), "offsets")) {
                if (o.offset() == null || o.offset() < 0) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception("Every offset needs a non-negative \"offset\"");
                }
                offsets.put(partition(o.topic(), o.partition()), o.offset());
            }
            consumer.seek(offsets);
        }
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/instances/{instance}/positions/beginning")
    @Operation(summary = "Seek to the first offset of partitions", description = "Errors: 40403, 40903.")
    public ResponseEntity<Void> seekToBeginning(@PathVariable String group, @PathVariable String instance,
            @RequestBody Partitions partitions) {
        consumers.get(group, instance).seekToBeginning(partitions(partitions));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/instances/{instance}/positions/end")
    @Operation(summary = "Seek to the log end of partitions", description = "Errors: 40403, 40903.")
    public ResponseEntity<Void> seekToEnd(@PathVariable String group, @PathVariable String instance,
            @RequestBody Partitions partitions) {
        consumers.get(group, instance).seekToEnd(partitions(partitions));
        return ResponseEntity.noContent().build();
    }

    @GetMapping(path = "/instances/{instance}/records", produces = {EmbeddedFormat.BINARY_V2, EmbeddedFormat.JSON_V2,
        EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Long-poll records",
        description = "Answers as soon as any record is there (or the instance's fetch.min.bytes), else after "
            + "`timeout` ms with an empty array. The records are fetched in the background, so the first GET "
            + "after subscribing waits for the group join instead of answering empty. Errors: 40403, "
            + "40601 Accept names the other embedded format, 50002/50003.")
    public DeferredResult<ResponseEntity<List<ConsumedRecord>>> records(@PathVariable String group,
            @PathVariable String instance,
            @Parameter(description = "longest wait, ms (0 or absent: the instance's consumer.request.timeout.ms; "
                + "at most rest-proxy.consumer-request-max-timeout)") @RequestParam(required = false) Long timeout,
            @Parameter(description = "most key and value bytes to return (at least one record is returned)")
            @RequestParam(name = "max_bytes", required = false) Long maxBytes,
            @RequestHeader(name = "Accept", required = false) String accept) {
        ConsumerInstance consumer = consumers.get(group, instance);
        EmbeddedFormat format = consumer.config().format();
        checkAccept(accept, format);
        long timeoutMs = LongPoll.waitMs(timeout, consumer.config().requestTimeoutMs() != null
            ? consumer.config().requestTimeoutMs() : properties.consumerRequestTimeout().toMillis(),
            properties.consumerRequestMaxTimeout().toMillis());
        long max = maxBytes != null && maxBytes > 0 ? maxBytes : properties.consumerRequestMaxBytes().toBytes();
        return LongPoll.of(consumer.read(timeoutMs, max), timeoutMs, records -> {
            List<ConsumedRecord> body = new ArrayList<>(records.size());
            long bytes = 0;
            for (ConsumerRecord<byte[], byte[]> record : records) {
                bytes += RecordMetrics.size(record);
                body.add(new ConsumedRecord(record.topic(), format.toJson(record.key(), mapper),
                    format.toJson(record.value(), mapper), record.partition(), record.offset()));
            }
            metrics.consumed("consumer", records.size(), bytes);
            return ResponseEntity.ok().contentType(format.mediaType()).body(body);
        }, answers);
    }

    @PostMapping("/instances/{instance}/offsets")
    @Operation(summary = "Commit offsets",
        description = "With no body, commits every record returned so far. With {\"offsets\":[{topic,partition,"
            + "offset,metadata}]}, commits those, naming the last record consumed (offset + 1 is stored, as "
            + "Confluent's proxy does). Errors: 40403, 50002/50003.")
    public ResponseEntity<Void> commit(@PathVariable String group, @PathVariable String instance,
            @RequestBody(required = false) Offsets body) {
        ConsumerInstance consumer = consumers.get(group, instance);
        if (body == null || body.offsets() == null || body.offsets().isEmpty()) {
            consumer.commitConsumed();
        } else {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (PartitionOffset o : body.offsets()) {
                if (o.offset() == null || o.offset() < 0) {
                    throw RestError.UNPROCESSABLE_ENTITY.exception("Every offset needs a non-negative \"offset\"");
                }
                offsets.put(partition(o.topic(), o.partition()), new OffsetAndMetadata(o.offset() + 1, o.metadata()));
            }
            // An unknown topic would keep Kafka's client retrying, and the instance's poll thread with it.
            existing(List.copyOf(offsets.keySet()));
            consumer.commit(offsets);
        }
        return ResponseEntity.ok().build();
    }

    @GetMapping("/instances/{instance}/offsets")
    @Operation(summary = "Committed offsets of partitions",
        description = "Body {\"partitions\":[{topic,partition}]}; partitions with no committed offset are left out. "
            + "Errors: 40403.")
    public CommittedOffsets committed(@PathVariable String group, @PathVariable String instance,
            @RequestBody(required = false) Partitions partitions) {
        ConsumerInstance consumer = consumers.get(group, instance);
        Set<TopicPartition> wanted = new LinkedHashSet<>(partitions == null || partitions.partitions() == null
            ? consumer.assignment() : partitions(partitions));
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(wanted);
        List<PartitionOffset> offsets = new ArrayList<>();
        for (TopicPartition tp : wanted) {
            OffsetAndMetadata offset = committed.get(tp);
            if (offset != null) {
                offsets.add(new PartitionOffset(tp.topic(), tp.partition(), offset.offset(), offset.metadata()));
            }
        }
        return new CommittedOffsets(offsets);
    }

    private String baseUri(String group, String id) {
        String base = properties.advertisedUrl().isEmpty()
            ? ServletUriComponentsBuilder.fromCurrentContextPath().toUriString()
            : properties.advertisedUrl().replaceAll("/+$", "");
        return base + "/consumers/" + UriUtils.encodePathSegment(group, StandardCharsets.UTF_8) + "/instances/"
            + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
    }

    /** 40601 when {@code Accept} names an embedded format other than the instance's. */
    private static void checkAccept(String accept, EmbeddedFormat format) {
        if (accept == null) {
            return;
        }
        boolean namesFormat = false;
        boolean namesOurs = false;
        for (MediaType type : MediaType.parseMediaTypes(accept)) {
            String subtype = type.getSubtype();
            if (subtype.startsWith("vnd.kafka.") && !subtype.equals("vnd.kafka.v2+json")) {
                namesFormat = true;
                namesOurs |= type.isCompatibleWith(format.mediaType());
            } else if (type.isCompatibleWith(MediaType.APPLICATION_JSON) || type.isWildcardType()
                    || subtype.equals("vnd.kafka.v2+json")) {
                namesOurs = true;
            }
        }
        if (namesFormat && !namesOurs) {
            throw RestError.CONSUMER_FORMAT_MISMATCH.exception("The requested embedded data format does not match "
                + "the deserializer for this consumer instance (" + format.formatName() + ")");
        }
    }

    private List<TopicPartition> existing(List<TopicPartition> partitions) {
        metadata.checkPartitions(partitions);
        return partitions;
    }

    private static List<TopicPartition> partitions(Partitions body) {
        List<TopicPartition> result = new ArrayList<>();
        for (Partition p : list(body == null ? null : body.partitions(), "partitions")) {
            result.add(partition(p.topic(), p.partition()));
        }
        return result;
    }

    private static TopicPartition partition(String topic, Integer partition) {
        if (topic == null || topic.isEmpty() || partition == null) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("Every partition needs \"topic\" and \"partition\"");
        }
        return new TopicPartition(topic, partition);
    }

    private static <T> List<T> list(List<T> values, String field) {
        if (values == null) {
            throw RestError.UNPROCESSABLE_ENTITY.exception("The request body needs a \"" + field + "\" array");
        }
        return values;
    }
}
