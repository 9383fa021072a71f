package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.utils.internals.Crc32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Produce refuses what Apache Kafka 4.4 refuses, with its error codes, on the wire (checks of
 * Kafka's {@code LogValidator}, {@code UnifiedLog.append}, {@code KafkaApis.handleProduceRequest} and
 * {@code ReplicaManager.handleProduceAppend} that Tributary lacked), and accepts what it accepts.
 * Transaction verification is off, as a broker that does not check with coordinators.
 * <p>Longer than 500 lines on purpose: every check of the append path shares this one broker, which the suite
 * starts once (a broker per split class would cost seconds of the test command's budget).
 */
class ProduceValidationTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of("broker.transaction-partition-verification-enable", "false"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(
                new NewTopic("appendtime", 1, (short) 1).configs(Map.of("message.timestamp.type", "LogAppendTime")),
                new NewTopic("createtime", 2, (short) 1),
                new NewTopic("keyed", 1, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                new NewTopic("small", 1, (short) 1).configs(Map.of("segment.bytes", "1048576",
                    "max.message.bytes", "2097152")),
                new NewTopic("checks", 1, (short) 1).configs(Map.of("max.message.bytes", "10000")),
                new NewTopic("bounded", 1, (short) 1).configs(Map.of("message.timestamp.before.max.ms", "3600000",
                    "message.timestamp.after.max.ms", "3600000")),
                new NewTopic("sequences", 1, (short) 1),
                new NewTopic("rebuilt", 1, (short) 1),
                new NewTopic("rebuilt-appendtime", 1, (short) 1).configs(Map.of("message.timestamp.type", "LogAppendTime")),
                new NewTopic("to-lz4", 1, (short) 1).configs(Map.of("compression.type", "lz4", "compression.lz4.level", "12")),
                new NewTopic("to-uncompressed", 1, (short) 1).configs(Map.of("compression.type", "uncompressed"))))
                .all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static SimpleRecord record(long timestamp, String key) {
        return new SimpleRecord(timestamp, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
            "v".getBytes(StandardCharsets.UTF_8));
    }

    /** Produce v12 (topic names), acks=1, of each partition's records; the answers by partition. */
    private static Map<TopicPartition, ProduceResponseData.PartitionProduceResponse> produce(
            String transactionalId, Map<TopicPartition, MemoryRecords> records) throws Exception {
        return produce(transactionalId, records, (short) 12);
    }

    /** A Produce of {@code version}, acks=1, of each partition's records; the answers by partition. */
    private static Map<TopicPartition, ProduceResponseData.PartitionProduceResponse> produce(
            String transactionalId, Map<TopicPartition, MemoryRecords> records, short version) throws Exception {
        ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000)
            .setTransactionalId(transactionalId);
        records.forEach((tp, r) -> {
            ProduceRequestData.TopicProduceData topic = data.topicData().find(tp.topic(), org.apache.kafka.common.Uuid.ZERO_UUID);
            if (topic == null) {
                topic = new ProduceRequestData.TopicProduceData().setName(tp.topic());
                data.topicData().add(topic);
            }
            topic.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(tp.partition()).setRecords(r));
        });
        Map<TopicPartition, ProduceResponseData.PartitionProduceResponse> answers = new LinkedHashMap<>();
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ProduceResponse response = client.send(new ProduceRequest(data, version));
            response.data().responses().forEach(t -> t.partitionResponses().forEach(p ->
                answers.put(new TopicPartition(t.name(), p.index()), p)));
        }
        return answers;
    }

    private static ProduceResponseData.PartitionProduceResponse produceOne(TopicPartition tp, MemoryRecords records)
            throws Exception {
        return produce(null, Map.of(tp, records)).get(tp);
    }

    private static long logEnd(TopicPartition tp) {
        return broker.server().replicaManager().getPartition(tp).orElseThrow().log().orElseThrow().logEndOffset();
    }

    @Test
    void aClientBatchFlaggedLogAppendTimeIsRefused() throws Exception {
        long now = System.currentTimeMillis();
        MemoryRecords flagged = MemoryRecords.withRecords(Compression.NONE, record(now, "k"));
        flagged.batches().iterator().next().setMaxTimestamp(TimestampType.LOG_APPEND_TIME, now);
        ProduceResponseData.PartitionProduceResponse refused = produceOne(new TopicPartition("appendtime", 0), flagged);
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(refused.recordErrors()).singleElement().satisfies(e -> assertThat(e.batchIndexErrorMessage())
            .contains("Producer should not set timestamp type to LogAppendTime"));

        // On a CreateTime topic the records take the batch's time, here two hours ahead: out of range.
        MemoryRecords ahead = MemoryRecords.withRecords(Compression.NONE, record(now, "k"));
        ahead.batches().iterator().next().setMaxTimestamp(TimestampType.LOG_APPEND_TIME, now + 7_200_000);
        assertThat(Errors.forCode(produceOne(new TopicPartition("createtime", 0), ahead).errorCode()))
            .isEqualTo(Errors.INVALID_TIMESTAMP);
    }

    @Test
    void aRetriedBatchIsCheckedBeforeItIsRecognisedAsARetry() throws Exception {
        TopicPartition keyed = new TopicPartition("keyed", 0);
        long now = System.currentTimeMillis();
        assertThat(produceOne(keyed, MemoryRecords.withIdempotentRecords(Compression.NONE, 4242L, (short) 0, 0,
            record(now, "k"))).errorCode()).isZero();
        ProduceResponseData.PartitionProduceResponse keyless = produceOne(keyed, MemoryRecords.withIdempotentRecords(
            Compression.NONE, 4242L, (short) 0, 0, record(now, null)));
        assertThat(Errors.forCode(keyless.errorCode())).isEqualTo(Errors.INVALID_RECORD);
        assertThat(logEnd(keyed)).isEqualTo(1);
    }

    @Test
    void anAppendLargerThanASegmentIsRefused() throws Exception {
        byte[] big = new byte[750_000];
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE,
            new SimpleRecord(System.currentTimeMillis(), null, big), new SimpleRecord(System.currentTimeMillis(), null, big));
        ProduceResponseData.PartitionProduceResponse refused = produceOne(new TopicPartition("small", 0), records);
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.RECORD_LIST_TOO_LARGE);
        assertThat(refused.errorMessage()).contains("exceeds the maximum configured segment size of 1048576");
    }

    @Test
    void transactionalRecordsWithoutATransactionalIdRefuseTheWholeRequest() throws Exception {
        TopicPartition transactional = new TopicPartition("createtime", 0);
        TopicPartition plain = new TopicPartition("createtime", 1);
        long before = logEnd(plain);
        Map<TopicPartition, MemoryRecords> records = new LinkedHashMap<>();
        records.put(transactional, MemoryRecords.withTransactionalRecords(Compression.NONE, 777L, (short) 0, 0,
            record(System.currentTimeMillis(), "k")));
        records.put(plain, MemoryRecords.withRecords(Compression.NONE, record(System.currentTimeMillis(), "k")));
        Map<TopicPartition, ProduceResponseData.PartitionProduceResponse> answers = produce(null, records);
        assertThat(answers.values()).extracting(a -> Errors.forCode(a.errorCode()))
            .containsOnly(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        assertThat(logEnd(plain)).isEqualTo(before);
    }

    @Test
    void transactionalRecordsOfTwoProducerIdsRefuseTheWholeRequest() throws Exception {
        Map<TopicPartition, MemoryRecords> records = new LinkedHashMap<>();
        records.put(new TopicPartition("createtime", 0), MemoryRecords.withTransactionalRecords(Compression.NONE, 801L,
            (short) 0, 0, record(System.currentTimeMillis(), "k")));
        records.put(new TopicPartition("createtime", 1), MemoryRecords.withTransactionalRecords(Compression.NONE, 802L,
            (short) 0, 0, record(System.currentTimeMillis(), "k")));
        Map<TopicPartition, ProduceResponseData.PartitionProduceResponse> answers = produce("two-pids", records);
        assertThat(answers.values()).extracting(a -> Errors.forCode(a.errorCode()))
            .containsOnly(Errors.INVALID_PRODUCER_ID_MAPPING);
    }

    @Test
    void anyTimestampErrorMakesThePartitionsErrorInvalidTimestamp() throws Exception {
        long now = System.currentTimeMillis();
        ProduceResponseData.PartitionProduceResponse refused = produceOne(new TopicPartition("keyed", 0),
            MemoryRecords.withRecords(Compression.NONE, record(now + 7_200_000, "k"), record(now, null)));
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(refused.recordErrors()).extracting(ProduceResponseData.BatchIndexAndErrorMessage::batchIndex)
            .containsExactly(0, 1);
    }

    @Test
    void offsetDeltasOfAnUncompressedBatchAreTakenAsSentAsKafkaTakesThem() throws Exception {
        long now = System.currentTimeMillis();
        MemoryRecords records = MemoryRecords.withRecords(Compression.NONE, record(now, "a"), record(now, "b"));
        ByteBuffer buffer = records.buffer();
        MutableRecordBatch batch = records.batches().iterator().next();
        // Record 0's offset delta (zigzag varint 0 at byte 64: length, attributes, timestamp delta before it) becomes 1.
        assertThat(buffer.get(64)).isZero();
        buffer.put(64, (byte) 2);
        buffer.putInt(17, (int) Crc32C.compute(buffer, 21, buffer.limit() - 21));
        assertThat(batch.isValid()).isTrue();
        assertThat(produceOne(new TopicPartition("createtime", 0), records).errorCode()).isZero();
    }

    /** The batch's CRC computed again after its bytes were changed (the CRC covers attributes onwards). */
    private static MemoryRecords withCrc(MemoryRecords records) {
        ByteBuffer buffer = records.buffer();
        buffer.putInt(17, (int) Crc32C.compute(buffer, 21, buffer.limit() - 21));
        return records;
    }

    private static MemoryRecords plain(String... keys) {
        long now = System.currentTimeMillis();
        SimpleRecord[] records = new SimpleRecord[keys.length];
        for (int i = 0; i < keys.length; i++) {
            records[i] = record(now, keys[i]);
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    private static MemoryRecords at(long timestamp, Compression compression) {
        return MemoryRecords.withRecords(compression, record(timestamp, "k"));
    }

    private static MemoryRecords concat(MemoryRecords a, MemoryRecords b) {
        ByteBuffer both = ByteBuffer.allocate(a.sizeInBytes() + b.sizeInBytes());
        both.put(a.buffer().duplicate()).put(b.buffer().duplicate()).flip();
        return MemoryRecords.readableRecords(both);
    }

    /**
     * Each check of Kafka 4.4's append path, as it answers a Produce v12 of one partition:
     * {@code ProduceRequest.validateRecords} (called by {@code KafkaApis.handleProduceRequest}),
     * {@code UnifiedLog.analyzeAndValidateRecords}, {@code LogValidator.validateBatch} and
     * {@code validateRecord}. A partition left alone by its refusal.
     */
    static Stream<Arguments> refusals() {
        long hour = 3_600_000L;
        return Stream.of(
            // UnifiedLog.analyzeAndValidateRecords: the batch's CRC (CorruptRecordException).
            Arguments.of("CRC mismatch", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("k");
                r.buffer().put(r.sizeInBytes() - 1, (byte) (r.buffer().get(r.sizeInBytes() - 1) ^ 1));
                return r;
            }, Errors.CORRUPT_MESSAGE),
            // ProduceRequest.validateRecords: only magic v2 from Produce v3.
            Arguments.of("magic v1", "checks", (Supplier<MemoryRecords>) () -> MemoryRecords.withRecords(
                RecordBatch.MAGIC_VALUE_V1, Compression.NONE, record(System.currentTimeMillis(), "k")), Errors.INVALID_RECORD),
            Arguments.of("magic v0", "checks", (Supplier<MemoryRecords>) () -> MemoryRecords.withRecords(
                RecordBatch.MAGIC_VALUE_V0, Compression.NONE, record(RecordBatch.NO_TIMESTAMP, "k")), Errors.INVALID_RECORD),
            // ProduceRequest.validateRecords: exactly one batch per partition from Produce v3.
            Arguments.of("two batches for one partition", "checks",
                (Supplier<MemoryRecords>) () -> concat(plain("a"), plain("b")), Errors.INVALID_RECORD),
            // UnifiedLog.analyzeAndValidateRecords: a client's batch starts at offset 0 (not covered by the CRC).
            Arguments.of("base offset 5", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("k");
                r.buffer().putLong(0, 5L);
                return r;
            }, Errors.INVALID_RECORD),
            // UnifiedLog.analyzeAndValidateRecords: max.message.bytes.
            Arguments.of("batch above max.message.bytes", "checks", (Supplier<MemoryRecords>) () -> MemoryRecords.withRecords(
                Compression.NONE, new SimpleRecord(System.currentTimeMillis(), null, new byte[20_000])), Errors.MESSAGE_TOO_LARGE),
            // LogValidator.validateBatch: the offset range agrees with the record count.
            Arguments.of("last offset delta beyond the record count", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("a", "b");
                r.buffer().putInt(23, 2);
                return withCrc(r);
            }, Errors.INVALID_RECORD),
            Arguments.of("last offset delta below the record count", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("a", "b");
                r.buffer().putInt(23, 0);
                return withCrc(r);
            }, Errors.INVALID_RECORD),
            Arguments.of("negative offset range", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("a");
                r.buffer().putInt(23, -1);
                return withCrc(r);
            }, Errors.INVALID_RECORD),
            Arguments.of("record count 0", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = plain("a");
                r.buffer().putInt(57, 0);
                return withCrc(r);
            }, Errors.INVALID_RECORD),
            // LogValidator.validateBatch: only a coordinator writes control batches.
            Arguments.of("control batch from a client", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(256), RecordBatch.MAGIC_VALUE_V2,
                    Compression.NONE, TimestampType.CREATE_TIME, 0L, System.currentTimeMillis(), 9002L, (short) 0,
                    RecordBatch.NO_SEQUENCE, false, true, RecordBatch.NO_PARTITION_LEADER_EPOCH);
                // A COMMIT control record's key (version 0, type 1), in a batch that is not transactional.
                builder.appendControlRecordWithOffset(0, new SimpleRecord(System.currentTimeMillis(),
                    new byte[] {0, 0, 0, 1}, null));
                return builder.build();
            }, Errors.INVALID_RECORD),
            // LogValidator.validateBatch: an idempotent batch has a sequence.
            Arguments.of("producer id without a sequence", "checks", (Supplier<MemoryRecords>) () -> {
                MemoryRecords r = MemoryRecords.withIdempotentRecords(Compression.NONE, 9001L, (short) 0, 0,
                    record(System.currentTimeMillis(), "k"));
                r.buffer().putInt(53, RecordBatch.NO_SEQUENCE);
                return withCrc(r);
            }, Errors.INVALID_RECORD),
            // LogValidator.validateKey, uncompressed and compressed.
            Arguments.of("keyless record on a compacted topic", "keyed", (Supplier<MemoryRecords>) () ->
                MemoryRecords.withRecords(Compression.NONE, record(System.currentTimeMillis(), "k"),
                    record(System.currentTimeMillis(), null)), Errors.INVALID_RECORD),
            Arguments.of("keyless record on a compacted topic, gzip", "keyed", (Supplier<MemoryRecords>) () ->
                MemoryRecords.withRecords(Compression.gzip().build(), record(System.currentTimeMillis(), null)),
                Errors.INVALID_RECORD),
            // LogValidator.validateTimestamp on a CreateTime topic, uncompressed and compressed.
            Arguments.of("timestamp before message.timestamp.before.max.ms", "bounded",
                (Supplier<MemoryRecords>) () -> at(System.currentTimeMillis() - 2 * hour, Compression.NONE), Errors.INVALID_TIMESTAMP),
            Arguments.of("timestamp after message.timestamp.after.max.ms", "bounded",
                (Supplier<MemoryRecords>) () -> at(System.currentTimeMillis() + 2 * hour, Compression.NONE), Errors.INVALID_TIMESTAMP),
            Arguments.of("timestamp before message.timestamp.before.max.ms, lz4", "bounded",
                (Supplier<MemoryRecords>) () -> at(System.currentTimeMillis() - 2 * hour, Compression.lz4().build()),
                Errors.INVALID_TIMESTAMP),
            Arguments.of("timestamp after message.timestamp.after.max.ms, zstd", "bounded",
                (Supplier<MemoryRecords>) () -> at(System.currentTimeMillis() + 2 * hour, Compression.zstd().build()),
                Errors.INVALID_TIMESTAMP));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusedAsKafkaRefusesIt(String check, String topic, Supplier<MemoryRecords> records, Errors expected) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        long before = logEnd(tp);
        ProduceResponseData.PartitionProduceResponse answer = produceOne(tp, records.get());
        assertThat(Errors.forCode(answer.errorCode())).as(check).isEqualTo(expected);
        assertThat(logEnd(tp)).as("nothing appended").isEqualTo(before);
    }

    @Test
    void zstdBeforeProduceV7IsRefused() throws Exception {
        TopicPartition tp = new TopicPartition("checks", 0);
        long before = logEnd(tp);
        assertThat(Errors.forCode(produce(null, Map.of(tp, at(System.currentTimeMillis(), Compression.zstd().build())),
            (short) 6).get(tp).errorCode())).isEqualTo(Errors.UNSUPPORTED_COMPRESSION_TYPE);
        assertThat(logEnd(tp)).isEqualTo(before);
    }

    @Test
    void timestampsWithinTheBoundsOrOnALogAppendTimeTopicAreAccepted() throws Exception {
        long now = System.currentTimeMillis();
        long hour = 3_600_000L;
        assertThat(produceOne(new TopicPartition("bounded", 0), at(now - hour / 2, Compression.NONE)).errorCode()).isZero();
        assertThat(produceOne(new TopicPartition("bounded", 0), at(now + hour / 2, Compression.gzip().build())).errorCode())
            .isZero();
        // No bounds on a LogAppendTime topic: the broker's time replaces the record's.
        assertThat(produceOne(new TopicPartition("appendtime", 0), at(now - 1000 * hour, Compression.NONE)).errorCode())
            .isZero();
        // CreateTime's before bound is unlimited by default (Kafka 4's message.timestamp.before.max.ms).
        assertThat(produceOne(new TopicPartition("createtime", 1), at(now - 1000 * hour, Compression.NONE)).errorCode())
            .isZero();
    }

    @Test
    void producerSequencesAreCheckedAsKafkaChecksThem() throws Exception {
        TopicPartition tp = new TopicPartition("sequences", 0);
        long pid = 5150L;
        ProduceResponseData.PartitionProduceResponse first = produceOne(tp, MemoryRecords.withIdempotentRecords(
            Compression.NONE, pid, (short) 3, 0, record(System.currentTimeMillis(), "a"), record(System.currentTimeMillis(), "b")));
        assertThat(first.errorCode()).isZero();
        // A gap after sequence 1 (ProducerAppendInfo.checkSequence).
        assertThat(Errors.forCode(produceOne(tp, MemoryRecords.withIdempotentRecords(Compression.NONE, pid, (short) 3, 3,
            record(System.currentTimeMillis(), "c"))).errorCode())).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        // A retry of the first batch: answered with its offset, not written again.
        long end = logEnd(tp);
        ProduceResponseData.PartitionProduceResponse retry = produceOne(tp, MemoryRecords.withIdempotentRecords(
            Compression.NONE, pid, (short) 3, 0, record(System.currentTimeMillis(), "a"), record(System.currentTimeMillis(), "b")));
        assertThat(retry.errorCode()).isZero();
        assertThat(retry.baseOffset()).isEqualTo(first.baseOffset());
        assertThat(logEnd(tp)).isEqualTo(end);
        // An older epoch (ProducerAppendInfo.checkProducerEpoch).
        assertThat(Errors.forCode(produceOne(tp, MemoryRecords.withIdempotentRecords(Compression.NONE, pid, (short) 2, 2,
            record(System.currentTimeMillis(), "c"))).errorCode())).isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        // A new epoch must start at sequence 0.
        assertThat(Errors.forCode(produceOne(tp, MemoryRecords.withIdempotentRecords(Compression.NONE, pid, (short) 4, 7,
            record(System.currentTimeMillis(), "c"))).errorCode())).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER);
        // The next sequence is accepted.
        assertThat(produceOne(tp, MemoryRecords.withIdempotentRecords(Compression.NONE, pid, (short) 3, 2,
            record(System.currentTimeMillis(), "c"))).errorCode()).isZero();
        assertThat(logEnd(tp)).isEqualTo(end + 1);
    }

    /**
     * A compressed batch whose records' offset deltas are 0, 10, 20 (as some old clients wrote them):
     * Kafka's LogValidator cannot assign its offsets in place and rebuilds it with consecutive
     * offsets; the records, their timestamps and headers, and the producer's id, epoch and
     * sequence are kept.
     */
    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void aCompressedBatchWithGapsInItsOffsetsIsRebuiltWithConsecutiveOffsets(String codec) throws Exception {
        for (String topic : List.of("rebuilt", "rebuilt-appendtime")) {
            TopicPartition tp = new TopicPartition(topic, 0);
            long pid = 6000L + codec.hashCode() % 1000 + topic.length();
            long now = System.currentTimeMillis();
            MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(1024), RecordBatch.MAGIC_VALUE_V2,
                Compression.of(codec).build(), TimestampType.CREATE_TIME, 0L, RecordBatch.NO_TIMESTAMP, pid, (short) 1, 0,
                false, RecordBatch.NO_PARTITION_LEADER_EPOCH);
            for (int i = 0; i < 3; i++) {
                builder.appendWithOffset(10L * i, now - i, ("k" + i).getBytes(StandardCharsets.UTF_8),
                    ("value-" + i).getBytes(StandardCharsets.UTF_8),
                    new org.apache.kafka.common.header.Header[] {new RecordHeader("h", new byte[] {(byte) i})});
            }
            builder.overrideLastOffset(2);
            MemoryRecords sent = builder.build();
            long base = logEnd(tp);

            ProduceResponseData.PartitionProduceResponse answer = produceOne(tp, sent);

            assertThat(Errors.forCode(answer.errorCode())).as(topic).isEqualTo(Errors.NONE);
            assertThat(answer.baseOffset()).isEqualTo(base);
            assertThat(logEnd(tp)).isEqualTo(base + 3);
            MemoryRecords fetched = fetch(tp, base);
            List<MutableRecordBatch> batches = new java.util.ArrayList<>();
            fetched.batches().forEach(batches::add);
            assertThat(batches).singleElement().satisfies(b -> {
                assertThat(b.baseOffset()).isEqualTo(base);
                assertThat(b.lastOffset()).isEqualTo(base + 2);
                assertThat(b.compressionType().name).isEqualTo(codec);
                assertThat(List.of(b.producerId(), (long) b.producerEpoch(), (long) b.baseSequence()))
                    .containsExactly(pid, 1L, 0L);
                assertThat(b.isValid()).isTrue();
                assertThat(b.timestampType()).isEqualTo(topic.equals("rebuilt") ? TimestampType.CREATE_TIME
                    : TimestampType.LOG_APPEND_TIME);
            });
            List<org.apache.kafka.common.record.internal.Record> read = new java.util.ArrayList<>();
            fetched.records().forEach(read::add);
            assertThat(read).extracting(org.apache.kafka.common.record.internal.Record::offset)
                .containsExactly(base, base + 1, base + 2);
            for (int i = 0; i < 3; i++) {
                org.apache.kafka.common.record.internal.Record r = read.get(i);
                assertThat(StandardCharsets.UTF_8.decode(r.value()).toString()).isEqualTo("value-" + i);
                assertThat(StandardCharsets.UTF_8.decode(r.key()).toString()).isEqualTo("k" + i);
                byte header = (byte) i;
                assertThat(r.headers()).singleElement().satisfies(h -> assertThat(h.value()).containsExactly(header));
                if (topic.equals("rebuilt")) {
                    assertThat(r.timestamp()).isEqualTo(now - i);
                }
            }
            // The producer's state follows the rebuilt batch: its next sequence is 3.
            assertThat(produceOne(tp, MemoryRecords.withIdempotentRecords(Compression.NONE, pid, (short) 1, 3,
                record(System.currentTimeMillis(), "k"))).errorCode()).isZero();
        }
    }

    /**
     * A topic's {@code compression.type} other than {@code producer}: every batch of another codec is stored compressed
     * with the topic's, as Kafka's LogValidator does (before, Tributary refused any value but producer); a batch of the
     * topic's codec is kept as sent.
     */
    @ParameterizedTest
    @CsvSource({"to-lz4, none, lz4", "to-lz4, gzip, lz4", "to-lz4, lz4, lz4", "to-uncompressed, zstd, none",
        "to-uncompressed, none, none"})
    void aTopicsCompressionTypeIsTheCodecItsBatchesAreStoredIn(String topic, String sentCodec, String storedCodec)
            throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        long now = System.currentTimeMillis();
        MemoryRecords sent = MemoryRecords.withRecords(Compression.of(sentCodec).build(), record(now, "a"),
            record(now, "b"), record(now, "c"));
        long base = logEnd(tp);

        assertThat(Errors.forCode(produceOne(tp, sent).errorCode())).isEqualTo(Errors.NONE);

        MemoryRecords fetched = fetch(tp, base);
        assertThat(fetched.batches()).singleElement().satisfies(b -> {
            assertThat(b.compressionType().name).isEqualTo(storedCodec);
            assertThat(b.isValid()).isTrue();
            assertThat(b.baseOffset()).isEqualTo(base);
        });
        List<String> keys = new java.util.ArrayList<>();
        fetched.records().forEach(r -> keys.add(StandardCharsets.UTF_8.decode(r.key()).toString()));
        assertThat(keys).containsExactly("a", "b", "c");
    }

    /** The records of {@code tp} from {@code offset}, by a Fetch v12. */
    private static MemoryRecords fetch(TopicPartition tp, long offset) throws Exception {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(0)
            .setMaxBytes(1 << 20).setSessionEpoch(-1).setIsolationLevel((byte) 0);
        data.topics().add(new FetchRequestData.FetchTopic().setTopic(tp.topic()).setPartitions(List.of(
            new FetchRequestData.FetchPartition().setPartition(tp.partition()).setFetchOffset(offset)
                .setPartitionMaxBytes(1 << 20))));
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            FetchResponse response = client.send(new FetchRequest(data, (short) 12));
            FetchResponseData.PartitionData partition = response.data().responses().get(0).partitions().get(0);
            assertThat(partition.errorCode()).isZero();
            return (MemoryRecords) partition.records();
        }
    }
}
