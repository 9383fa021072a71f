package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.V3Resources.ResetOffsetsRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets an offset reset moves a group to, per partition of the named topics, as
 * {@code kafka-consumer-groups} and {@code kafka-share-groups --reset-offsets} compute them:
 * {@code earliest}, {@code latest}, {@code timestamp} (the first offset at or after it, else the end)
 * or {@code offset} (moved into the partition's records when outside them). Stateless.
 */
final class OffsetResetTargets {

    private OffsetResetTargets() {
    }

    /**
     * @throws io.tributary.restproxy.error.RestException 400 for a bad {@code to}, offset or timestamp;
     *         the admin client's errors (an unknown topic) as {@link ClusterAdmin} translates them
     */
    static Map<TopicPartition, Long> resolve(ClusterAdmin admin, Collection<String> topics, ResetOffsetsRequest request) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            admin.topic(topic).partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        String to = request.to() == null ? "" : request.to().toLowerCase(Locale.ROOT);
        return switch (to) {
            case "earliest" -> admin.resolve(partitions, OffsetSpec.earliest());
            case "latest" -> admin.resolve(partitions, OffsetSpec.latest());
            case "timestamp" -> {
                if (request.timestamp() == null || request.timestamp() < 0) {
                    throw RestError.BAD_REQUEST.exception("to=timestamp needs a non-negative \"timestamp\" (ms)");
                }
                yield admin.resolve(partitions, OffsetSpec.forTimestamp(request.timestamp()));
            }
            case "offset" -> {
                if (request.offset() == null || request.offset() < 0) {
                    throw RestError.BAD_REQUEST.exception("to=offset needs a non-negative \"offset\"");
                }
                Map<TopicPartition, long[]> ranges = admin.offsets(partitions);
                Map<TopicPartition, Long> clamped = new HashMap<>();
                // As kafka-consumer-groups does: an offset outside a partition's records is moved to its nearest end.
                ranges.forEach((tp, range) -> clamped.put(tp, Math.max(range[0], Math.min(range[1], request.offset()))));
                yield clamped;
            }
            default -> throw RestError.BAD_REQUEST.exception("to must be earliest, latest, offset or timestamp");
        };
    }
}
