package io.tributary.broker.group;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.TopicPartition;

/**
 * Offsets committed inside transactions (TxnOffsetCommit, KIP-98), written to the offsets topic
 * but not yet visible: each producer's pending commits per group, until its transaction's marker
 * reaches the group's offsets partition. A COMMIT makes them the group's committed offsets; an
 * ABORT drops them. A load of an offsets partition restores the pending commits of transactions
 * still open in it.
 *
 * <p>Thread-safety: thread-safe (guarded by {@code this}); never calls out while holding it.
 */
final class TransactionalOffsets {

    /** Pending commits: producer id, then group, then partition. */
    private final Map<Long, Map<String, Map<TopicPartition, OffsetAndMetadata>>> pending = new HashMap<>();

    /** Records offsets a transaction wrote for a group. */
    synchronized void add(long producerId, String groupId, Map<TopicPartition, OffsetAndMetadata> offsets) {
        pending.computeIfAbsent(producerId, p -> new HashMap<>()).computeIfAbsent(groupId, g -> new HashMap<>())
            .putAll(offsets);
    }

    /**
     * Takes the producer's pending commits of the groups whose offsets partition {@code inPartition}
     * accepts (its transaction's marker reached that partition).
     *
     * @return the commits per group, for the caller to apply (COMMIT) or drop (ABORT)
     */
    synchronized Map<String, Map<TopicPartition, OffsetAndMetadata>> take(long producerId, IntPredicate inPartition,
                                                                         ToIntFunction<String> partitionOf) {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> byGroup = pending.get(producerId);
        if (byGroup == null) {
            return Map.of();
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> taken = new HashMap<>();
        for (String groupId : new ArrayList<>(byGroup.keySet())) {
            if (inPartition.test(partitionOf.applyAsInt(groupId))) {
                taken.put(groupId, byGroup.remove(groupId));
            }
        }
        if (byGroup.isEmpty()) {
            pending.remove(producerId);
        }
        return taken;
    }

    /** Whether an open transaction has a commit of the group's partition pending (OffsetFetch requireStable). */
    synchronized boolean hasPending(String groupId, TopicPartition tp) {
        for (Map<String, Map<TopicPartition, OffsetAndMetadata>> byGroup : pending.values()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = byGroup.get(groupId);
            if (offsets != null && offsets.containsKey(tp)) {
                return true;
            }
        }
        return false;
    }

    /** Forgets the pending commits of the groups whose offsets partition this broker stopped leading. */
    synchronized void forgetPartition(int partition, ToIntFunction<String> partitionOf) {
        for (Map<String, Map<TopicPartition, OffsetAndMetadata>> byGroup : pending.values()) {
            byGroup.keySet().removeIf(groupId -> partitionOf.applyAsInt(groupId) == partition);
        }
        pending.values().removeIf(Map::isEmpty);
    }
}
