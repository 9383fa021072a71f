package io.tributary.broker.coordinator;

import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.replica.LocalRead;
import io.tributary.broker.replica.ProduceResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * A coordinator's topic (offsets or transaction state) as lists of records in memory. Appends are stored at once and normally
 * acknowledged at once; their acknowledgement can be held back (a write waiting for
 * replication), and reads can be held back to keep a partition loading.
 */
public final class InMemoryCoordinatorLog implements CoordinatorLog {

    private final Map<TopicPartition, List<SimpleRecord>> partitions = new HashMap<>();
    private volatile CountDownLatch readGate = new CountDownLatch(0);
    private final List<Runnable> heldAcks = new ArrayList<>();
    private boolean holdAcks;
    private final List<VerificationGuard> guards = new ArrayList<>();

    /** The verification guard each append held, in order. */
    public synchronized List<VerificationGuard> appendGuards() {
        return List.copyOf(guards);
    }

    @Override
    public synchronized CompletableFuture<ProduceResult> append(TopicPartition tp, MemoryRecords records, long timeoutMs,
                                                                VerificationGuard verificationGuard) {
        guards.add(verificationGuard);
        List<SimpleRecord> log = partitions.computeIfAbsent(tp, p -> new ArrayList<>());
        long base = log.size();
        for (RecordBatch batch : records.batches()) {
            for (Record r : batch) {
                log.add(new SimpleRecord(r));
            }
        }
        ProduceResult result = new ProduceResult(Errors.NONE, null, base, RecordBatch.NO_TIMESTAMP, 0, List.of(),
            log.size() - 1);
        if (!holdAcks) {
            return CompletableFuture.completedFuture(result);
        }
        CompletableFuture<ProduceResult> later = new CompletableFuture<>();
        heldAcks.add(() -> later.complete(result));
        return later;
    }

    /** Appends are stored but not acknowledged until {@link #releaseAppends()}. */
    public synchronized void holdAppends() {
        holdAcks = true;
    }

    /** Acknowledges the held appends, in order, and stops holding. */
    public void releaseAppends() {
        List<Runnable> toRun;
        synchronized (this) {
            holdAcks = false;
            toRun = new ArrayList<>(heldAcks);
            heldAcks.clear();
        }
        toRun.forEach(Runnable::run);
    }

    @Override
    public LocalRead read(TopicPartition tp, long startOffset, int maxBytes) {
        try {
            readGate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            List<SimpleRecord> log = partitions.getOrDefault(tp, List.of());
            MemoryRecords records = startOffset >= log.size() ? MemoryRecords.EMPTY
                : MemoryRecords.withRecords(startOffset, Compression.NONE,
                    log.subList((int) startOffset, log.size()).toArray(new SimpleRecord[0]));
            return new LocalRead(records, log.size(), 0);
        }
    }

    /** Records of a partition, tombstones included. */
    public synchronized List<SimpleRecord> records(TopicPartition tp) {
        return List.copyOf(partitions.getOrDefault(tp, List.of()));
    }

    /** Reads wait until {@link #openReads()}. */
    public void holdReads() {
        readGate = new CountDownLatch(1);
    }

    public void openReads() {
        readGate.countDown();
    }
}
