package io.tributary.faults.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;

class FrameMutatorTest {

    private final FrameMutator mutator = new FrameMutator();
    private final List<SampleRequest> produce = new SampleRequests(Map.of(ApiKeys.PRODUCE, new short[] {3, 12}),
            "fuzz", Uuid.randomUuid()).all();
    private final SampleRequest metadata = new SampleRequests(Map.of(ApiKeys.METADATA, new short[] {12, 12}),
            "fuzz", Uuid.randomUuid()).all().get(0);

    private static SampleRequest produceWith(List<SampleRequest> samples, CompressionType type) {
        return samples.stream().filter(s -> batch(s.frame(), s).compressionType() == type).findFirst().orElseThrow();
    }

    private static RecordBatch batch(byte[] frame, SampleRequest s) {
        return MemoryRecords.readableRecords(ByteBuffer.wrap(frame, s.batchOffset(), s.batchLength()).slice())
                .batches().iterator().next();
    }

    @Test
    void samplesParseAsTheRequestsTheyClaimToBe() {
        for (SampleRequest s : produce) {
            ByteBuffer body = ByteBuffer.wrap(s.frame(), 4, s.frame().length - 4).slice();
            RequestHeader header = RequestHeader.parse(body);
            assertThat(header.apiKey()).isEqualTo(ApiKeys.PRODUCE);
            assertThat(header.apiVersion()).isEqualTo(s.version());
            ProduceRequest request = (ProduceRequest) AbstractRequest.parseRequest(ApiKeys.PRODUCE, s.version(),
                    new ByteBufferAccessor(body)).request;
            assertThat(request.data().topicData()).hasSize(1);
            assertThat(s.hasBatch()).isTrue();
            assertThat(batch(s.frame(), s).isValid()).isTrue();
        }
        assertThat(produce).hasSize(10 * SampleRequests.COMPRESSIONS.size());
        assertThat(produce).extracting(s -> batch(s.frame(), s).compressionType()).contains(CompressionType.NONE,
                CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4, CompressionType.ZSTD);
    }

    @Test
    void everyMutationChangesTheFrame() {
        Random random = new Random(3);
        for (Mutation m : Mutation.values()) {
            if (m == Mutation.NONE) {
                continue;
            }
            for (SampleRequest s : List.of(produce.get(0), produce.get(produce.size() - 1), metadata)) {
                for (int i = 0; i < 50; i++) {
                    MutatedFrame f = mutator.mutate(s, m, random);
                    assertThat(f.bytes()).as("%s of %s", m, s).isNotEqualTo(s.frame());
                }
            }
        }
        assertThat(mutator.mutate(metadata, Mutation.NONE, random).bytes()).isEqualTo(metadata.frame());
    }

    @Test
    void theSampleIsNeverModified() {
        SampleRequest s = produce.get(3);
        byte[] before = s.frame().clone();
        Random random = new Random(5);
        for (Mutation m : Mutation.values()) {
            mutator.mutate(s, m, random);
        }
        assertThat(s.frame()).isEqualTo(before);
    }

    @Test
    void aSeedReplaysTheSameBytes() {
        for (Mutation m : Mutation.values()) {
            byte[] a = mutator.mutate(produce.get(7), m, new Random(42)).bytes();
            byte[] b = mutator.mutate(produce.get(7), m, new Random(42)).bytes();
            assertThat(a).as(m.name()).isEqualTo(b);
        }
    }

    @Test
    void lengthMutationsLieAboutTheSize() {
        Random random = new Random(9);
        SampleRequest s = metadata;
        int truth = s.frame().length - 4;
        assertThat(size(mutator.mutate(s, Mutation.LENGTH_SHORT, random))).isLessThan(truth);
        MutatedFrame longer = mutator.mutate(s, Mutation.LENGTH_LONG, random);
        assertThat(size(longer)).isGreaterThan(truth);
        assertThat(longer.hangUp()).isTrue();
        assertThat(size(mutator.mutate(s, Mutation.LENGTH_NEGATIVE, random))).isNegative();
        assertThat(size(mutator.mutate(s, Mutation.LENGTH_HUGE, random))).isGreaterThan(100 * 1024 * 1024);
    }

    @Test
    void structuralMutationsKeepTheSizePrefixTrue() {
        Random random = new Random(11);
        for (Mutation m : List.of(Mutation.TRUNCATE, Mutation.TAGGED_FIELDS, Mutation.BIT_FLIPS,
                Mutation.CLIENT_ID_LENGTH, Mutation.VERSION_OUT_OF_RANGE, Mutation.UNKNOWN_API_KEY)) {
            for (int i = 0; i < 20; i++) {
                MutatedFrame f = mutator.mutate(produce.get(produce.size() - 1), m, random);
                assertThat(size(f)).as(m.name()).isEqualTo(f.bytes().length - 4);
            }
        }
    }

    @Test
    void versionAndKeyMutationsLeaveTheKnownRange() {
        Random random = new Random(13);
        for (int i = 0; i < 100; i++) {
            ByteBuffer v = ByteBuffer.wrap(mutator.mutate(metadata, Mutation.VERSION_OUT_OF_RANGE, random).bytes());
            short version = v.getShort(6);
            assertThat(version < ApiKeys.METADATA.oldestVersion() || version > ApiKeys.METADATA.latestVersion())
                    .as("version %d", version).isTrue();
            ByteBuffer k = ByteBuffer.wrap(mutator.mutate(metadata, Mutation.UNKNOWN_API_KEY, random).bytes());
            assertThat(ApiKeys.hasId(k.getShort(4))).isFalse();
        }
    }

    @Test
    void batchMutationsThatRecomputeTheCrcPassTheCrcCheck() {
        Random random = new Random(17);
        SampleRequest zstd = produceWith(produce, CompressionType.ZSTD);
        for (Mutation m : List.of(Mutation.BATCH_RECORD_COUNT, Mutation.BATCH_ATTRIBUTES, Mutation.COMPRESSED_PAYLOAD)) {
            for (int i = 0; i < 20; i++) {
                byte[] bytes = mutator.mutate(zstd, m, random).bytes();
                assertThat(batch(bytes, zstd).isValid()).as(m.name()).isTrue();
            }
        }
        byte[] badCrc = mutator.mutate(zstd, Mutation.BATCH_CRC, random).bytes();
        assertThat(batch(badCrc, zstd).isValid()).isFalse();
    }

    @Test
    void corruptCompressedPayloadFailsToDecompressOrYieldsOtherRecords() {
        Random random = new Random(19);
        SampleRequest gzip = produceWith(produce, CompressionType.GZIP);
        int failed = 0;
        for (int i = 0; i < 20; i++) {
            byte[] bytes = mutator.mutate(gzip, Mutation.COMPRESSED_PAYLOAD, random).bytes();
            RecordBatch b = batch(bytes, gzip);
            try {
                b.forEach(r -> { });
            } catch (RuntimeException e) {
                failed++;
            }
        }
        assertThat(failed).as("corrupt gzip payloads that fail to decompress").isPositive();
    }

    @Test
    void batchMutationOfARequestWithoutBatchFlipsBitsInstead() {
        MutatedFrame f = mutator.mutate(metadata, Mutation.BATCH_MAGIC, new Random(1));
        assertThat(f.mutation()).isEqualTo(Mutation.BIT_FLIPS);
    }

    @Test
    void magicMutationNeverLeavesMagicTwo() {
        Random random = new Random(23);
        SampleRequest s = produceWith(produce, CompressionType.NONE);
        for (int i = 0; i < 200; i++) {
            byte[] bytes = mutator.mutate(s, Mutation.BATCH_MAGIC, random).bytes();
            assertThat(bytes[s.batchOffset() + FrameMutator.MAGIC_OFFSET]).isNotEqualTo(RecordBatch.MAGIC_VALUE_V2);
        }
    }

    @Test
    void fuzzerRefusesAnEmptySampleList() {
        assertThatThrownBy(() -> new BrokerFuzzer(new BrokerFuzzer.Settings(null, 1, 1, 1, java.time.Duration.ofSeconds(1)),
                List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void indexOfFindsTheFirstOccurrence() {
        assertThat(SampleRequests.indexOf(new byte[] {1, 2, 3, 2, 3}, new byte[] {2, 3})).isEqualTo(1);
        assertThat(SampleRequests.indexOf(new byte[] {1, 2}, new byte[] {3})).isEqualTo(-1);
        assertThat(Arrays.asList(Compression.NONE)).hasSize(1);
    }

    @Test
    void requestsThatNeedNoTimelyAnswerAreToldApart() {
        SampleRequest s = produce.get(0);
        assertThat(BrokerFuzzer.noTimelyAnswerDue(s.frame(), 5000)).as("sample: acks=1").isFalse();
        byte[] acksZero = s.frame().clone();
        // Produce v3..v8 body: transactional id (int16 -1), then acks (int16).
        int bodyStart = SampleRequest.clientIdLengthOffset() + 2 + FrameMutator.getShort(s.frame(),
                SampleRequest.clientIdLengthOffset());
        FrameMutator.putShort(acksZero, bodyStart + 2, (short) 0);
        assertThat(BrokerFuzzer.noTimelyAnswerDue(acksZero, 5000)).isTrue();
        assertThat(BrokerFuzzer.noTimelyAnswerDue(metadata.frame(), 5000)).isFalse();
        assertThat(BrokerFuzzer.noTimelyAnswerDue(new byte[] {0, 0, 0, 2, 0, 0}, 5000)).isFalse();
    }

    @Test
    void aFetchThatMayLongPollPastTheTimeoutIsToldApart() {
        Uuid id = Uuid.randomUuid();
        SampleRequest fetch = new SampleRequests(Map.of(ApiKeys.FETCH, new short[] {9, 9}), "fuzz", id).all().get(0);
        assertThat(BrokerFuzzer.noTimelyAnswerDue(fetch.frame(), 5000)).as("sample: max wait 0").isFalse();
        org.apache.kafka.common.message.FetchRequestData longPoll = new org.apache.kafka.common.message.FetchRequestData()
                .setMaxWaitMs(8192).setMinBytes(1).setMaxBytes(1 << 20);
        org.apache.kafka.common.protocol.ObjectSerializationCache cache = new org.apache.kafka.common.protocol.ObjectSerializationCache();
        org.apache.kafka.common.message.RequestHeaderData header = new org.apache.kafka.common.message.RequestHeaderData()
                .setRequestApiKey(ApiKeys.FETCH.id).setRequestApiVersion((short) 9).setClientId("t").setCorrelationId(1);
        short hv = ApiKeys.FETCH.requestHeaderVersion((short) 9);
        int size = header.size(cache, hv) + longPoll.size(cache, (short) 9);
        ByteBuffer frame = ByteBuffer.allocate(4 + size).putInt(size);
        ByteBufferAccessor out = new ByteBufferAccessor(frame);
        header.write(out, cache, hv);
        longPoll.write(out, cache, (short) 9);
        assertThat(BrokerFuzzer.noTimelyAnswerDue(frame.array(), 5000)).isTrue();
        assertThat(BrokerFuzzer.noTimelyAnswerDue(frame.array(), 10_000)).as("within the timeout").isFalse();
    }

    private static int size(MutatedFrame f) {
        return ByteBuffer.wrap(f.bytes()).getInt(0);
    }
}
