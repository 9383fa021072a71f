package io.tributary.broker.transaction;

import io.tributary.broker.replica.ProduceResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a transaction's markers to its partitions' leaders, as Kafka's
 * {@code TransactionMarkerChannelManager}: the partitions this broker leads get theirs appended
 * here (acks=all, as WriteTxnMarkers does on a leader), the others through a WriteTxnMarkers
 * request to their leader. A partition whose leader is unknown or moved, or whose append failed
 * retriably (UNKNOWN_TOPIC_OR_PARTITION included: the leader's metadata may lag), is tried again
 * after {@code retryBackoffMs}; a partition this broker's metadata no longer has is given up (its
 * topic was deleted); TRANSACTION_COORDINATOR_FENCED or INVALID_PRODUCER_EPOCH from
 * a leader, or this broker no longer coordinating the transaction, stops the writes (the next
 * coordinator writes them).
 *
 * <p>Thread-safety: thread-safe. Attempts run on {@code scheduler}; appends and remote sends
 * complete on their own threads and schedule what follows.
 */
public final class TransactionMarkerChannel implements TransactionMarkerWriter {

    private static final Logger log = LoggerFactory.getLogger(TransactionMarkerChannel.class);

    /** Appends markers to partitions this broker leads (ReplicaManager.appendTransactionMarkers). */
    @FunctionalInterface
    public interface LocalAppender {
        CompletableFuture<Map<TopicPartition, ProduceResult>> append(long timeoutMs, Map<TopicPartition, MemoryRecords> markers);
    }

    /** Sends one producer's markers to another broker (WriteTxnMarkers) and answers its per-partition errors. */
    @FunctionalInterface
    public interface RemoteSender {
        CompletableFuture<Map<TopicPartition, Errors>> send(int brokerId, long producerId, short producerEpoch,
                                                            int coordinatorEpoch, boolean commit,
                                                            List<TopicPartition> partitions);
    }

    private final int localBrokerId;
    private final Function<TopicPartition, OptionalInt> leaderOf;
    private final LocalAppender local;
    private final RemoteSender remote;
    private final ScheduledExecutorService scheduler;
    private final long timeoutMs;
    private final long retryBackoffMs;
    private final Time time;
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param leaderOf       a partition's leader: empty when the partition does not exist, -1 while it has none
     * @param timeoutMs      how long a local append waits for its ISR, ms
     * @param retryBackoffMs wait before a partition is tried again, ms
     */
    public TransactionMarkerChannel(int localBrokerId, Function<TopicPartition, OptionalInt> leaderOf,
                                    LocalAppender local, RemoteSender remote, ScheduledExecutorService scheduler,
                                    long timeoutMs, long retryBackoffMs, Time time) {
        this.localBrokerId = localBrokerId;
        this.leaderOf = leaderOf;
        this.local = local;
        this.remote = remote;
        this.scheduler = scheduler;
        this.timeoutMs = timeoutMs;
        this.retryBackoffMs = retryBackoffMs;
        this.time = time;
    }

    @Override
    public CompletableFuture<Void> writeMarkers(long producerId, short producerEpoch, int coordinatorEpoch,
                                                boolean commit, Set<TopicPartition> partitions,
                                                BooleanSupplier stillCoordinating) {
        MarkerTask task = new MarkerTask(producerId, producerEpoch, coordinatorEpoch, commit, partitions,
            stillCoordinating);
        pending.incrementAndGet();
        task.done.whenComplete((ok, failure) -> pending.decrementAndGet());
        scheduler.execute(task::attempt);
        return task.done;
    }

    /** Transactions whose markers are being written or retried now. */
    public int pendingMarkers() {
        return pending.get();
    }

    /** The markers of one transaction, with the partitions that still need theirs. */
    private final class MarkerTask {
        private final long producerId;
        private final short producerEpoch;
        private final int coordinatorEpoch;
        private final boolean commit;
        private final BooleanSupplier stillCoordinating;
        /** Guarded by {@code this}. */
        private final Set<TopicPartition> remaining;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        MarkerTask(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
                   Set<TopicPartition> partitions, BooleanSupplier stillCoordinating) {
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.coordinatorEpoch = coordinatorEpoch;
            this.commit = commit;
            this.stillCoordinating = stillCoordinating;
            this.remaining = new HashSet<>(partitions);
        }

        void attempt() {
            if (done.isDone()) {
                return;
            }
            if (!stillCoordinating.getAsBoolean()) {
                done.completeExceptionally(new IllegalStateException("No longer the coordinator of producer "
                    + producerId + " in coordinator epoch " + coordinatorEpoch));
                return;
            }
            Map<Integer, List<TopicPartition>> byLeader = new HashMap<>();
            boolean retry = false;
            synchronized (this) {
                for (TopicPartition tp : List.copyOf(remaining)) {
                    OptionalInt leader = leaderOf.apply(tp);
                    if (leader.isEmpty()) {
                        log.info("Giving up the marker of producer {} for {}: the partition no longer exists", producerId, tp);
                        remaining.remove(tp);
                    } else if (leader.getAsInt() < 0) {
                        retry = true;
                    } else {
                        byLeader.computeIfAbsent(leader.getAsInt(), b -> new ArrayList<>()).add(tp);
                    }
                }
                if (remaining.isEmpty()) {
                    done.complete(null);
                    return;
                }
            }
            if (byLeader.isEmpty() && retry) {
                retryLater();
                return;
            }
            CompletableFuture<?>[] sends = byLeader.entrySet().stream()
                .map(e -> send(e.getKey(), e.getValue()).thenAccept(this::written))
                .toArray(CompletableFuture<?>[]::new);
            CompletableFuture.allOf(sends).whenComplete((ignored, failure) -> {
                synchronized (this) {
                    if (remaining.isEmpty()) {
                        done.complete(null);
                        return;
                    }
                }
                if (!done.isDone()) {
                    retryLater();
                }
            });
        }

        private CompletableFuture<Map<TopicPartition, Errors>> send(int leader, List<TopicPartition> partitions) {
            CompletableFuture<Map<TopicPartition, Errors>> sent;
            try {
                sent = leader == localBrokerId ? appendLocally(partitions)
                    : remote.send(leader, producerId, producerEpoch, coordinatorEpoch, commit, partitions);
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
            }
            return sent.exceptionally(failure -> {
                log.debug("Markers of producer {} to broker {} failed: {}", producerId, leader, failure.toString());
                return Map.of();
            });
        }

        private CompletableFuture<Map<TopicPartition, Errors>> appendLocally(List<TopicPartition> partitions) {
            Map<TopicPartition, MemoryRecords> markers = new HashMap<>();
            ControlRecordType type = commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT;
            for (TopicPartition tp : partitions) {
                markers.put(tp, MemoryRecords.withEndTransactionMarker(time.milliseconds(), producerId, producerEpoch,
                    new EndTransactionMarker(type, coordinatorEpoch)));
            }
            return local.append(timeoutMs, markers).thenApply(results -> {
                Map<TopicPartition, Errors> errors = new HashMap<>();
                results.forEach((tp, result) -> errors.put(tp, result.error()));
                return errors;
            });
        }

        private void written(Map<TopicPartition, Errors> errors) {
            synchronized (this) {
                errors.forEach((tp, error) -> {
                    switch (error) {
                        case NONE -> remaining.remove(tp);
                        case TRANSACTION_COORDINATOR_FENCED, INVALID_PRODUCER_EPOCH -> done.completeExceptionally(
                            new IllegalStateException("The marker of producer " + producerId + " for " + tp
                                + " was refused: " + error));
                        default -> log.debug("Marker of producer {} for {} not written ({}); retrying", producerId, tp,
                            error);
                    }
                });
            }
        }

        private void retryLater() {
            scheduler.schedule(this::attempt, retryBackoffMs, TimeUnit.MILLISECONDS);
        }
    }
}
