package io.tributary.broker.replica;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * An acks=all produce waiting until every in-sync replica holds its records (the high
 * watermark passes them) or {@code timeout.ms} runs out (REQUEST_TIMED_OUT for the partitions
 * still waiting).
 */
final class DelayedProduce extends DelayedOperation {

    /** A partition still waiting: its records end before {@code requiredOffset}. */
    private record Pending(long requiredOffset, int minInSyncReplicas) {
    }

    private final Map<TopicPartition, ProduceResult> results;
    private final Map<TopicPartition, Pending> pending = new LinkedHashMap<>();
    private final Function<TopicPartition, Optional<Partition>> partitions;
    private final Consumer<Map<TopicPartition, ProduceResult>> callback;

    /**
     * @param delayMs    how long it may wait, ms ({@code timeout.ms} of the request)
     * @param results    the appends' results per partition
     * @param partitions the online partitions
     */
    DelayedProduce(long delayMs, Map<TopicPartition, ProduceResult> results,
                   Function<TopicPartition, Optional<Partition>> partitions,
                   Consumer<Map<TopicPartition, ProduceResult>> callback) {
        super(delayMs);
        this.results = new LinkedHashMap<>(results);
        this.partitions = partitions;
        this.callback = callback;
        results.forEach((tp, result) -> {
            if (result.error() == Errors.NONE && result.lastOffset() >= 0) {
                int minIsr = partitions.apply(tp).flatMap(Partition::log)
                    .map(l -> l.config().minInSyncReplicas()).orElse(1);
                pending.put(tp, new Pending(result.lastOffset() + 1, minIsr));
            }
        });
    }

    /** Whether any partition waits for replication. */
    boolean hasPending() {
        return !pending.isEmpty();
    }

    @Override
    protected boolean tryComplete() {
        pending.entrySet().removeIf(e -> {
            // Not Optional.map: a partition still waiting answers null, which map would turn into "no partition".
            Partition partition = partitions.apply(e.getKey()).orElse(null);
            Errors error = partition == null ? Errors.NOT_LEADER_OR_FOLLOWER
                : partition.checkEnoughReplicasReachOffset(e.getValue().requiredOffset(), e.getValue().minInSyncReplicas());
            if (error == null) {
                return false;
            }
            if (error != Errors.NONE) {
                results.computeIfPresent(e.getKey(), (tp, r) -> r.withError(error, error.message()));
            }
            return true;
        });
        return pending.isEmpty() && forceComplete();
    }

    @Override
    protected void onExpiration() {
        synchronized (this) {
            pending.keySet().forEach(tp -> results.computeIfPresent(tp, (k, r) -> r.withError(Errors.REQUEST_TIMED_OUT,
                "The records were appended but not replicated to every in-sync replica in time")));
            pending.clear();
        }
    }

    @Override
    protected void onComplete() {
        callback.accept(results);
    }
}
