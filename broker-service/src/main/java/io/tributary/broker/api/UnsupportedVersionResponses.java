package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * UNSUPPORTED_VERSION answers for versions that are advertised but not served, in layouts the
 * library no longer knows (Kafka 4 removed them from its codec, KIP-896).
 *
 * <p>librdkafka before 2.8 enables features only when the broker lists certain old versions
 * (KAFKA-18659): compression needs Produce from v0, the balanced consumer OffsetCommit v1 and
 * OffsetFetch v1 (covered by the codec) and LZ4 FindCoordinator v0. So Produce v0-2,
 * OffsetCommit v0-1 and OffsetFetch v0 are advertised, and their layouts are written here:
 * <pre>
 * Produce      request  v0-2: acks int16, timeout int32, [topic string, [partition int32, records bytes]]
 *              response v0:   [topic string, [partition int32, error_code int16, base_offset int64]]
 *                       v1:   v0 + throttle_time_ms int32
 *                       v2:   v1 with log_append_time int64 after base_offset
 * OffsetCommit request  v0:   group_id string, [topic string, [partition int32, offset int64, metadata nullable_string]]
 *                       v1:   group_id string, generation_id int32, member_id string,
 *                             [topic string, [partition int32, offset int64, timestamp int64, metadata nullable_string]]
 *              response v0-1: [topic string, [partition int32, error_code int16]]
 * OffsetFetch  request  v0:   group_id string, [topic string, [partition int32]]
 *              response v0:   [topic string, [partition int32, offset int64, metadata nullable_string, error_code int16]]
 * </pre>
 * Every partition gets UNSUPPORTED_VERSION. Anything else, or a malformed body, closes the
 * connection.
 */
final class UnsupportedVersionResponses {

    private UnsupportedVersionResponses() {
    }

    static Response of(RequestContext context, ByteBuffer body) {
        Layout layout = layout(context.apiKey(), context.apiVersion());
        if (layout == null) {
            return Response.close(context.apiKey() + " v" + context.apiVersion() + " is not supported");
        }
        try {
            return Response.send(response(context.header().correlationId(), layout, body));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return Response.close("malformed " + context.apiKey() + " v" + context.apiVersion() + " request");
        }
    }

    /**
     * A legacy request's shape as far as needed to name its partitions, and its response.
     *
     * @param requestPrefix      how to skip the fields before the topic array
     * @param requestPartition   how to skip a partition entry after its index
     * @param responsePartition  bytes of a response partition entry after its index
     * @param responseThrottle   whether the response ends with throttle_time_ms
     */
    private record Layout(Skip requestPrefix, Skip requestPartition, PartitionWriter responsePartition,
                          boolean responseThrottle) {
    }

    @FunctionalInterface
    private interface Skip {
        void skip(ByteBuffer in);
    }

    /** Writes the fields after the partition index; {@code size} is their length in bytes. */
    private record PartitionWriter(int size, Consumer<ByteBuffer> write) {
    }

    private static Layout layout(ApiKeys api, short version) {
        if (api == ApiKeys.PRODUCE && version <= 2) {
            return new Layout(in -> skip(in, 2 + 4), UnsupportedVersionResponses::skipBytes,
                new PartitionWriter(2 + 8 + (version >= 2 ? 8 : 0), out -> {
                    out.putShort(Errors.UNSUPPORTED_VERSION.code());
                    out.putLong(-1L);
                    if (version >= 2) {
                        out.putLong(-1L);
                    }
                }), version >= 1);
        }
        if (api == ApiKeys.OFFSET_COMMIT && version <= 1) {
            Skip prefix = version == 0 ? UnsupportedVersionResponses::skipString : in -> {
                skipString(in);
                skip(in, 4);
                skipString(in);
            };
            return new Layout(prefix, in -> {
                skip(in, version == 0 ? 8 : 16);
                skipString(in);
            }, new PartitionWriter(2, out -> out.putShort(Errors.UNSUPPORTED_VERSION.code())), false);
        }
        if (api == ApiKeys.OFFSET_FETCH && version == 0) {
            return new Layout(UnsupportedVersionResponses::skipString, in -> { },
                new PartitionWriter(8 + 2 + 2, out -> {
                    out.putLong(-1L);
                    out.putShort((short) 0);
                    out.putShort(Errors.UNSUPPORTED_VERSION.code());
                }), false);
        }
        return null;
    }

    private record TopicPartitions(byte[] name, int[] partitions) {
    }

    private static ByteBufferSend response(int correlationId, Layout layout, ByteBuffer body) {
        ByteBuffer in = body.duplicate();
        layout.requestPrefix().skip(in);
        int topicCount = count(in.getInt(), 100_000, "topic");
        List<TopicPartitions> topics = new ArrayList<>();
        int size = 4 + 4 + 4;
        for (int t = 0; t < topicCount; t++) {
            byte[] name = new byte[count(in.getShort(), Short.MAX_VALUE, "topic name length")];
            in.get(name);
            int partitionCount = count(in.getInt(), 1_000_000, "partition");
            int[] partitions = new int[partitionCount];
            for (int p = 0; p < partitionCount; p++) {
                partitions[p] = in.getInt();
                layout.requestPartition().skip(in);
            }
            topics.add(new TopicPartitions(name, partitions));
            size += 2 + name.length + 4 + partitionCount * (4 + layout.responsePartition().size());
        }
        if (layout.responseThrottle()) {
            size += 4;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(size - 4);
        out.putInt(correlationId);
        out.putInt(topics.size());
        for (TopicPartitions topic : topics) {
            out.putShort((short) topic.name().length);
            out.put(topic.name());
            out.putInt(topic.partitions().length);
            for (int partition : topic.partitions()) {
                out.putInt(partition);
                layout.responsePartition().write().accept(out);
            }
        }
        if (layout.responseThrottle()) {
            out.putInt(0);
        }
        out.flip();
        return new ByteBufferSend(out);
    }

    private static int count(int value, int max, String what) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + " count " + value);
        }
        return value;
    }

    private static void skip(ByteBuffer in, int bytes) {
        in.position(in.position() + bytes);
    }

    /** Skips a string or nullable string (int16 length, -1 for null). */
    private static void skipString(ByteBuffer in) {
        short length = in.getShort();
        if (length > 0) {
            skip(in, length);
        }
    }

    /** Skips nullable bytes (int32 length, -1 for null). */
    private static void skipBytes(ByteBuffer in) {
        int length = in.getInt();
        if (length > 0) {
            skip(in, length);
        }
    }
}
