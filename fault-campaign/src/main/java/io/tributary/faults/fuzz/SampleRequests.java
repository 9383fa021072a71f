package io.tributary.faults.fuzz;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Builds valid request frames with kafka-clients' message classes for every API and version a broker advertises:
 * each API's request with its default field values, except Produce (one partition of {@code topic}, acks=1, a real
 * v2 record batch, uncompressed or compressed with gzip, snappy, lz4 or zstd), Fetch and Metadata (naming
 * {@code topic}). A version whose defaults the codec cannot write (a field it lacks at that version) is left out.
 *
 * <p>Immutable after construction; thread-safe.
 */
public final class SampleRequests {

    /** The compressions of Produce samples, one sample each per version. */
    public static final List<Compression> COMPRESSIONS = List.of(Compression.NONE, Compression.gzip().build(),
            Compression.snappy().build(), Compression.lz4().build(), Compression.zstd().build());

    private final List<SampleRequest> samples;

    /**
     * @param advertised api key → {min, max} version as a broker's ApiVersions response lists them
     * @param topic      the topic Produce, Fetch and Metadata samples name
     * @param topicId    its id (Produce v13 and Fetch v13+ name topics by id)
     */
    public SampleRequests(Map<ApiKeys, short[]> advertised, String topic, Uuid topicId) {
        List<SampleRequest> all = new ArrayList<>();
        advertised.forEach((key, range) -> {
            for (short v = range[0]; v <= range[1]; v++) {
                if (key == ApiKeys.PRODUCE) {
                    for (Compression compression : COMPRESSIONS) {
                        addIfWritable(all, key, v, produce(topic, topicId, compression));
                    }
                } else {
                    addIfWritable(all, key, v, request(key, topic, topicId));
                }
            }
        });
        this.samples = List.copyOf(all);
    }

    /** Every sample, in api key and version order. */
    public List<SampleRequest> all() {
        return samples;
    }

    private static void addIfWritable(List<SampleRequest> into, ApiKeys key, short version, Sample sample) {
        try {
            into.add(frame(key, version, "fuzzer", 1, sample));
        } catch (RuntimeException e) {
            // the codec cannot write these defaults at this version: no sample for it
        }
    }

    private record Sample(ApiMessage body, byte[] batch) {
    }

    private static Sample request(ApiKeys key, String topic, Uuid topicId) {
        return switch (key) {
            case FETCH -> new Sample(new FetchRequestData().setMaxWaitMs(0).setMaxBytes(1 << 20)
                    .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(topic).setTopicId(topicId)
                            .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0)
                                    .setFetchOffset(0).setPartitionMaxBytes(1 << 20))))), null);
            case METADATA -> new Sample(new MetadataRequestData().setAllowAutoTopicCreation(false)
                    .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(topic)
                            .setTopicId(topicId))), null);
            default -> new Sample(ApiMessageType.fromApiKey(key.id).newRequest(), null);
        };
    }

    private static Sample produce(String topic, Uuid topicId, Compression compression) {
        SimpleRecord[] records = new SimpleRecord[5];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(1_700_000_000_000L + i, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    ("fuzzed value " + i + " of a sample batch, long enough to compress").getBytes(StandardCharsets.UTF_8));
        }
        MemoryRecords batch = MemoryRecords.withRecords(compression, records);
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic).setTopicId(topicId)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(batch))));
        byte[] batchBytes = new byte[batch.sizeInBytes()];
        batch.buffer().duplicate().get(batchBytes);
        return new Sample(new ProduceRequestData().setAcks((short) 1).setTimeoutMs(5000).setTopicData(topics),
                batchBytes);
    }

    private static SampleRequest frame(ApiKeys key, short version, String clientId, int correlationId, Sample sample) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        short headerVersion = key.requestHeaderVersion(version);
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(key.id).setRequestApiVersion(version)
                .setClientId(clientId).setCorrelationId(correlationId);
        int size = header.size(cache, headerVersion) + sample.body().size(cache, version);
        ByteBuffer buffer = ByteBuffer.allocate(4 + size);
        buffer.putInt(size);
        ByteBufferAccessor accessor = new ByteBufferAccessor(buffer);
        header.write(accessor, cache, headerVersion);
        sample.body().write(accessor, cache, version);
        if (buffer.hasRemaining()) {
            throw new IllegalStateException(key + " v" + version + " wrote " + buffer.position() + " of " + (4 + size));
        }
        byte[] frame = buffer.array();
        int batchOffset = sample.batch() == null ? -1 : indexOf(frame, sample.batch());
        return new SampleRequest(key, version, frame, batchOffset, batchOffset < 0 ? -1 : sample.batch().length);
    }

    /** First index of {@code part} in {@code whole}, or -1. */
    static int indexOf(byte[] whole, byte[] part) {
        outer:
        for (int i = 0; i <= whole.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (whole[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
