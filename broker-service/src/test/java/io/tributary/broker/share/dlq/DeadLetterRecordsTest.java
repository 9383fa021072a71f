package io.tributary.broker.share.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.share.ArchiveReason;
import io.tributary.broker.share.ArchivedRange;
import io.tributary.broker.share.SharePartitionKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

class DeadLetterRecordsTest {

    private static final SharePartitionKey KEY = new SharePartitionKey("orders-workers",
        new TopicIdPartition(Uuid.randomUuid(), 3, "orders"));

    static Map<String, String> headers(Record record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : record.headers()) {
            headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }

    static List<Record> records(List<MemoryRecords> batches) {
        List<Record> records = new ArrayList<>();
        batches.forEach(b -> b.records().forEach(records::add));
        return records;
    }

    @Test
    void eachOffsetGetsKafkasContextHeadersAndNoKeyOrValueWhenNotCopied() {
        ArchivedRange range = new ArchivedRange(KEY, 41, 42, 5, ArchiveReason.DELIVERY_COUNT_EXCEEDED);

        List<Record> records = records(DeadLetterRecords.build(range, "orders", Map.of(), 1234L, 1 << 20));

        assertThat(records).hasSize(2);
        assertThat(headers(records.get(0))).containsExactly(
            Map.entry("__dlq.errors.topic", "orders"),
            Map.entry("__dlq.errors.partition", "3"),
            Map.entry("__dlq.errors.offset", "41"),
            Map.entry("__dlq.errors.group", "orders-workers"),
            Map.entry("__dlq.errors.delivery.count", "5"),
            Map.entry("__dlq.errors.message", "Offset delivery count exceeded the threshold."));
        assertThat(headers(records.get(1))).containsEntry("__dlq.errors.offset", "42");
        assertThat(records).allSatisfy(r -> {
            assertThat(r.hasKey()).isFalse();
            assertThat(r.hasValue()).isFalse();
            assertThat(r.timestamp()).isEqualTo(1234L);
        });
    }

    @Test
    void copiedRecordsKeepKeyAndValueAndOffsetsNotFoundCarryHeadersOnly() {
        MemoryRecords log = MemoryRecords.withRecords(7L, Compression.NONE,
            new SimpleRecord(1L, "k7".getBytes(), "v7".getBytes(), new Header[]{new RecordHeader("h", "x".getBytes())}));
        Map<Long, Record> originals = new LinkedHashMap<>();
        log.records().forEach(r -> originals.put(r.offset(), r));
        ArchivedRange range = new ArchivedRange(KEY, 7, 8, 1, ArchiveReason.REJECTED);

        List<Record> records = records(DeadLetterRecords.build(range, "orders", originals, 99L, 1 << 20));

        assertThat(StandardCharsets.UTF_8.decode(records.get(0).key()).toString()).isEqualTo("k7");
        assertThat(StandardCharsets.UTF_8.decode(records.get(0).value()).toString()).isEqualTo("v7");
        assertThat(headers(records.get(0))).containsEntry("__dlq.errors.message", "Offset rejected by client.")
            .doesNotContainKey("h"); // as Kafka 4.4: the original headers are not copied
        assertThat(records.get(1).hasValue()).isFalse();
        assertThat(headers(records.get(1))).containsEntry("__dlq.errors.offset", "8");
    }

    @Test
    void recordsAreSplitIntoBatchesNoLargerThanTheLimit() {
        ArchivedRange range = new ArchivedRange(KEY, 0, 99, 1, ArchiveReason.REJECTED);
        Map<Long, Record> originals = new LinkedHashMap<>();
        MemoryRecords.withRecords(0L, Compression.NONE, java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> new SimpleRecord(1L, null, ByteBuffer.allocate(100).array())).toArray(SimpleRecord[]::new))
            .records().forEach(r -> originals.put(r.offset(), r));

        List<MemoryRecords> batches = DeadLetterRecords.build(range, "orders", originals, 1L, 2_000);

        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(batches).allSatisfy(b -> assertThat(b.sizeInBytes()).isLessThanOrEqualTo(2_000));
        assertThat(records(batches)).hasSize(100);
    }
}
