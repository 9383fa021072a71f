package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * UNSUPPORTED_VERSION answers for versions that are advertised but not served, in layouts the
 * library no longer knows.
 *
 * <p>Produce v0-2 must be advertised because librdkafka before 2.8 enables compression only
 * when the broker lists Produce from v0 (KAFKA-18659); Kafka 4 removed those versions from its
 * codec, so their layout is written here:
 * <pre>
 * request  v0-2: acks int16, timeout int32, [topic string, [partition int32, records bytes]]
 * response v0:   [topic string, [partition int32, error_code int16, base_offset int64]]
 *          v1:   v0 + throttle_time_ms int32
 *          v2:   v1 with log_append_time int64 after base_offset
 * </pre>
 * Every partition gets UNSUPPORTED_VERSION. Anything else closes the connection.
 */
final class UnsupportedVersionResponses {

    private UnsupportedVersionResponses() {
    }

    static Response of(RequestContext context, ByteBuffer body) {
        if (context.apiKey() != ApiKeys.PRODUCE || context.apiVersion() > 2) {
            return Response.close(context.apiKey() + " v" + context.apiVersion() + " is not supported");
        }
        try {
            return Response.send(legacyProduceResponse(context.header().correlationId(), context.apiVersion(), body));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return Response.close("malformed Produce v" + context.apiVersion() + " request");
        }
    }

    private record TopicPartitions(byte[] name, int[] partitions) {
    }

    private static ByteBufferSend legacyProduceResponse(int correlationId, short version, ByteBuffer body) {
        ByteBuffer in = body.duplicate();
        in.getShort();
        in.getInt();
        int topicCount = in.getInt();
        if (topicCount < 0 || topicCount > 100_000) {
            throw new IllegalArgumentException("topic count " + topicCount);
        }
        List<TopicPartitions> topics = new ArrayList<>();
        int size = 4 + 4 + 4;
        for (int t = 0; t < topicCount; t++) {
            byte[] name = new byte[in.getShort()];
            in.get(name);
            int partitionCount = in.getInt();
            if (partitionCount < 0 || partitionCount > 1_000_000) {
                throw new IllegalArgumentException("partition count " + partitionCount);
            }
            int[] partitions = new int[partitionCount];
            for (int p = 0; p < partitionCount; p++) {
                partitions[p] = in.getInt();
                int recordsSize = in.getInt();
                if (recordsSize > 0) {
                    in.position(in.position() + recordsSize);
                }
            }
            topics.add(new TopicPartitions(name, partitions));
            size += 2 + name.length + 4 + partitionCount * (4 + 2 + 8 + (version >= 2 ? 8 : 0));
        }
        if (version >= 1) {
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
                out.putShort(Errors.UNSUPPORTED_VERSION.code());
                out.putLong(-1L);
                if (version >= 2) {
                    out.putLong(-1L);
                }
            }
        }
        if (version >= 1) {
            out.putInt(0);
        }
        out.flip();
        return new ByteBufferSend(out);
    }
}
