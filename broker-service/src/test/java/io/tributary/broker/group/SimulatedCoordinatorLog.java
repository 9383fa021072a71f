package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.LocalRead;
import io.tributary.broker.replica.ProduceResult;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * The offsets topic of the group simulation: records are kept in an {@link InMemoryCoordinatorLog};
 * while the simulation makes writes slow, an append is acknowledged by a simulation event up to
 * {@link #MAX_WRITE_DELAY_MS} later (a write waiting for the ISR), and one it makes fail is
 * answered NOT_ENOUGH_REPLICAS (the coordinator answers COORDINATOR_NOT_AVAILABLE).
 *
 * <p>Not thread-safe: the simulation's one thread appends and acknowledges (the loader reads
 * only before the simulation starts).
 */
final class SimulatedCoordinatorLog implements CoordinatorLog {

    /** The longest a slow write waits for its acknowledgement, ms (below {@code offsets.commit.timeout.ms}). */
    static final int MAX_WRITE_DELAY_MS = 400;

    private final InMemoryCoordinatorLog records = new InMemoryCoordinatorLog();
    private GroupSimulation sim;
    private boolean slow;
    private int failures;

    /** Attaches the simulation whose events acknowledge slow writes. */
    void attach(GroupSimulation simulation) {
        this.sim = simulation;
    }

    /** Whether writes are acknowledged late, by a later event. */
    void slow(boolean value) {
        this.slow = value;
    }

    /** The next {@code count} writes fail. */
    void failNext(int count) {
        this.failures = count;
    }

    @Override
    public CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords batch, long timeoutMs,
                                                   VerificationGuard verificationGuard) {
        CompletableFuture<ProduceResult> stored = records.append(tp, batch, timeoutMs, verificationGuard);
        boolean fail = failures > 0;
        if (fail) {
            failures--;
        }
        if (sim == null || (!slow && !fail)) {
            return stored;
        }
        CompletableFuture<ProduceResult> acknowledged = new CompletableFuture<>();
        int delayMs = slow ? 1 + sim.random.nextInt(MAX_WRITE_DELAY_MS) : 0;
        sim.schedule(delayMs, fail ? "offsets write fails" : "offsets write acknowledged", () -> acknowledged.complete(
            fail ? ProduceResult.error(Errors.NOT_ENOUGH_REPLICAS, "simulated") : stored.join()));
        return acknowledged;
    }

    @Override
    public LocalRead read(TopicPartition tp, long startOffset, int maxBytes) {
        return records.read(tp, startOffset, maxBytes);
    }
}
