package io.tributary.restproxy.simple;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.format.EmbeddedFormat;
import io.tributary.restproxy.format.RecordView;
import io.tributary.restproxy.http.LongPoll;
import io.tributary.restproxy.metrics.RecordMetrics;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stateless reads of a partition, for clients that keep their own offsets (as Confluent's v1
 * "simple consumer" and Redpanda's proxy offered): no consumer instance, no group.
 */
@RestController
@Tag(name = "Partition reads", description = "Stateless reads by offset or timestamp, and a partition's offsets")
public class PartitionRecordsController {

    /** The first and next offsets of a partition (Confluent v2 field names). */
    public record OffsetsBody(@JsonProperty("beginning_offset") long beginningOffset,
            @JsonProperty("end_offset") long endOffset) {
    }

    private static final int MAX_COUNT = 10_000;

    private final PartitionReader reader;
    private final RestProxyProperties properties;
    private final JsonMapper mapper;
    private final RecordMetrics metrics;
    private final Executor answers;

    public PartitionRecordsController(PartitionReader reader, RestProxyProperties properties, JsonMapper mapper,
            RecordMetrics metrics, @Qualifier("applicationTaskExecutor") Executor answers) {
        this.answers = answers;
        this.reader = reader;
        this.properties = properties;
        this.mapper = mapper;
        this.metrics = metrics;
    }

    @GetMapping(path = "/topics/{topic}/partitions/{partition}/records", produces = {EmbeddedFormat.BINARY_V2,
        EmbeddedFormat.JSON_V2, EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "Read records of a partition from an offset or a timestamp",
        description = "Give `offset` or `timestamp` (ms since the epoch: start at the first record at or after it). "
            + "Answers as soon as any record is there, else after `timeout` ms with an empty array, so reading at "
            + "the log end is a long poll. The format comes from `format` (json, binary) or the Accept header "
            + "(binary by default). Errors: 40401, 40402, 400 offset outside the partition's records.")
    public DeferredResult<ResponseEntity<List<RecordView>>> records(@PathVariable String topic,
            @PathVariable int partition,
            @Parameter(description = "first offset to read") @RequestParam(required = false) Long offset,
            @Parameter(description = "read from the first record with a timestamp at or after this, ms")
            @RequestParam(required = false) Long timestamp,
            @Parameter(description = "most records to return (default 10, up to 10000)")
            @RequestParam(defaultValue = "10") int count,
            @Parameter(description = "most key and value bytes to return (at least one record is returned)")
            @RequestParam(name = "max_bytes", required = false) Long maxBytes,
            @Parameter(description = "longest wait for a record, ms") @RequestParam(required = false) Long timeout,
            @Parameter(description = "json or binary") @RequestParam(required = false) String format,
            @Parameter(description = "read_uncommitted (default) or read_committed: only committed transactions' "
                + "records") @RequestParam(name = "isolation_level", required = false) String isolationLevel,
            @RequestHeader(name = "Accept", required = false) String accept) {
        EmbeddedFormat embedded = format(format, accept);
        String isolation;
        try {
            isolation = io.tributary.restproxy.config.KafkaConsumerFactory.isolationLevel(isolationLevel);
        } catch (RuntimeException e) {
            throw RestError.BAD_REQUEST.exception("isolation_level must be read_committed or read_uncommitted");
        }
        if ((offset == null) == (timestamp == null)) {
            throw RestError.BAD_REQUEST.exception("Give either offset or timestamp");
        }
        if (timestamp != null && timestamp < 0) {
            throw RestError.BAD_REQUEST.exception("timestamp must be a non-negative number of ms since the epoch");
        }
        if (count < 1 || count > MAX_COUNT) {
            throw RestError.BAD_REQUEST.exception("count must be between 1 and " + MAX_COUNT);
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        long start = offset != null ? offset : reader.offsetForTimestamp(tp, timestamp);
        long timeoutMs = LongPoll.waitMs(timeout, properties.consumerRequestTimeout().toMillis(),
            properties.consumerRequestMaxTimeout().toMillis());
        long max = maxBytes != null && maxBytes > 0 ? maxBytes : properties.consumerRequestMaxBytes().toBytes();
        return LongPoll.of(reader.read(tp, start, count, max, timeoutMs, isolation), timeoutMs, records -> {
            metrics.consumed("partition-read", records.size(), records.stream().mapToLong(RecordMetrics::size).sum());
            return ResponseEntity.ok().contentType(embedded.mediaType())
                .body(records.stream().map(record -> RecordView.of(record, embedded, mapper)).toList());
        }, answers);
    }

    @GetMapping(path = "/topics/{topic}/partitions/{partition}/offsets",
        produces = {EmbeddedFormat.KAFKA_V2, MediaType.APPLICATION_JSON_VALUE})
    @Operation(summary = "A partition's first offset and log end offset",
        description = "Records live in [beginning_offset, end_offset). Errors: 40401, 40402.")
    public OffsetsBody offsets(@PathVariable String topic, @PathVariable int partition) {
        PartitionReader.PartitionOffsets offsets = reader.offsets(new TopicPartition(topic, partition));
        return new OffsetsBody(offsets.beginningOffset(), offsets.endOffset());
    }

    private static EmbeddedFormat format(String format, String accept) {
        try {
            return EmbeddedFormat.forRead(format, accept, EmbeddedFormat.BINARY);
        } catch (RestException e) {
            throw RestError.BAD_REQUEST.exception("format must be json or binary");
        }
    }
}
