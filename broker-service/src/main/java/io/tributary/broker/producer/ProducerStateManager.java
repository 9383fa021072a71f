package io.tributary.broker.producer;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The idempotent-producer state of one partition: for each producer id, its epoch and last
 * batches, as of {@link #mapEndOffset()} in the log.
 *
 * <p>Snapshots ({@code <offset>.snapshot} beside the segments, see {@link ProducerSnapshotFile})
 * record the state at an offset; on load the latest snapshot at or below the log end is read
 * and the log after it is replayed, so duplicates are still recognised after a restart.
 *
 * <p>Transactions (KIP-98): the transactions open on the partition, by first offset, and those a
 * marker closed but whose marker is not yet below the high watermark ("unreplicated"). The first
 * offset of the oldest of either is the first unstable offset; the last stable offset (LSO) is the
 * smaller of it and the high watermark, and read_committed consumers read no further. A snapshot
 * keeps each producer's open transaction, so a restart mid-transaction still knows it.
 *
 * <p>Not thread-safe: called under the owning log's lock (appends, truncation, recovery),
 * except {@link #activeProducers()} which returns a copy and {@link #firstUnstableOffset()}, a
 * volatile read.
 */
public final class ProducerStateManager {

    /** {@link #firstUnstableOffset()} when no transaction holds the last stable offset back. */
    public static final long NO_UNSTABLE_OFFSET = -1L;

    private static final Logger log = LoggerFactory.getLogger(ProducerStateManager.class);

    private final TopicPartition topicPartition;
    private final int producerIdExpirationMs;
    private final Map<Long, ProducerStateEntry> producers = new HashMap<>();
    /** Verifications under way (KIP-890 part 1), by producer id; never snapshotted. */
    private final Map<Long, VerificationStateEntry> verificationStates = new HashMap<>();
    private final ConcurrentSkipListMap<Long, File> snapshots = new ConcurrentSkipListMap<>();
    private volatile File logDir;
    private long lastMapOffset;
    private long lastSnapOffset;
    /** Open transactions by first offset. */
    private final TreeMap<Long, TxnMetadata> ongoingTxns = new TreeMap<>();
    /** Transactions with a marker not yet below the high watermark, by first offset. */
    private final TreeMap<Long, TxnMetadata> unreplicatedTxns = new TreeMap<>();
    private volatile long firstUnstableOffset = NO_UNSTABLE_OFFSET;

    /**
     * @param topicPartition          for messages
     * @param logDir                  the partition's directory
     * @param producerIdExpirationMs  idle time after which a producer's state is dropped, ms
     */
    public ProducerStateManager(TopicPartition topicPartition, File logDir, int producerIdExpirationMs) throws IOException {
        this.topicPartition = topicPartition;
        this.logDir = logDir;
        this.producerIdExpirationMs = producerIdExpirationMs;
        loadSnapshotFiles();
    }

    private void loadSnapshotFiles() throws IOException {
        snapshots.clear();
        File[] files = logDir.listFiles((d, name) -> name.endsWith(ProducerSnapshotFile.SUFFIX));
        if (files == null) {
            throw new IOException("Could not list " + logDir);
        }
        for (File f : files) {
            try {
                snapshots.put(ProducerSnapshotFile.offsetOf(f), f);
            } catch (NumberFormatException e) {
                log.warn("Ignoring file {} with an unexpected name", f);
            }
        }
    }

    /** The log offset up to which the state reflects the log. */
    public long mapEndOffset() {
        return lastMapOffset;
    }

    /** The state of one producer, if known. */
    public Optional<ProducerStateEntry> lastEntry(long producerId) {
        return Optional.ofNullable(producers.get(producerId));
    }

    /** A copy of the known producers. */
    public Map<Long, ProducerStateEntry> activeProducers() {
        Map<Long, ProducerStateEntry> copy = new HashMap<>();
        producers.forEach((id, entry) -> copy.put(id, entry.copy()));
        return Collections.unmodifiableMap(copy);
    }

    /** The known producers as DescribeProducers reports them, by producer id; callers hold the log's lock. */
    public List<ActiveProducer> describeProducers() {
        return producers.values().stream().map(ActiveProducer::of)
            .sorted(java.util.Comparator.comparingLong(ActiveProducer::producerId)).toList();
    }

    /** Starts validating an append for one producer, unverified (KIP-890 does not apply). */
    public ProducerAppendInfo prepareUpdate(long producerId, AppendOrigin origin) {
        return prepareUpdate(producerId, origin, VerificationGuard.NOT_REQUIRED);
    }

    /** Starts validating an append for one producer, a client's holding {@code requestGuard} (KIP-890 part 1). */
    public ProducerAppendInfo prepareUpdate(long producerId, AppendOrigin origin, VerificationGuard requestGuard) {
        ProducerStateEntry current = producers.getOrDefault(producerId, ProducerStateEntry.empty(producerId));
        return new ProducerAppendInfo(topicPartition, producerId, current, origin, verificationStates.get(producerId),
            requestGuard);
    }

    /**
     * Starts, or joins, the verification of a producer's transaction here (KIP-890 part 1) for a
     * batch of {@code sequence} in {@code epoch}: the guard the append must present once the
     * coordinator confirms the partition is in the transaction; {@link VerificationGuard#SENTINEL}
     * when the producer's transaction is already open here (nothing to verify). Callers hold the log's lock.
     *
     * @param nowMs when the verification starts, ms (an unfinished one expires with {@code producer.id.expiration.ms})
     */
    public VerificationGuard maybeStartTransactionVerification(long producerId, int sequence, short epoch, long nowMs) {
        ProducerStateEntry entry = producers.get(producerId);
        if (entry != null && entry.currentTxnFirstOffset() != ProducerStateEntry.NO_TRANSACTION) {
            return VerificationGuard.SENTINEL;
        }
        VerificationStateEntry verification = verificationStates.computeIfAbsent(producerId,
            id -> new VerificationStateEntry(nowMs, sequence, epoch));
        verification.maybeUpdateLowestSequenceAndEpoch(sequence, epoch);
        return verification.guard();
    }

    /** The batch already written that {@code batch} retries, if any. */
    public Optional<BatchMetadata> findDuplicate(RecordBatch batch) {
        ProducerStateEntry entry = producers.get(batch.producerId());
        return entry == null ? Optional.empty() : entry.findDuplicateBatch(batch);
    }

    /**
     * The first batch of an append that retries one already written, with what was written then;
     * empty when none is a retry. A leader answers the whole append with that batch's offsets.
     */
    public Optional<BatchMetadata> findDuplicate(Iterable<? extends RecordBatch> batches) {
        for (RecordBatch batch : batches) {
            if (batch.hasProducerId()) {
                Optional<BatchMetadata> duplicate = findDuplicate(batch);
                if (duplicate.isPresent()) {
                    return duplicate;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Validates the producer batches of an append against this state (epoch fencing, sequence
     * order) without changing it: one {@link ProducerAppendInfo} per producer id, passed to
     * {@link #update} once the batches are written.
     *
     * @param nowMs the append time, ms
     * @throws org.apache.kafka.common.errors.OutOfOrderSequenceException for a sequence gap
     * @throws org.apache.kafka.common.errors.InvalidProducerEpochException for a fenced producer epoch
     */
    public Map<Long, ProducerAppendInfo> prepareAppend(Iterable<? extends RecordBatch> batches, AppendOrigin origin,
                                                       long nowMs) {
        return prepareAppend(batches, origin, VerificationGuard.NOT_REQUIRED, nowMs);
    }

    /**
     * As {@link #prepareAppend(Iterable, AppendOrigin, long)}, for a client's append holding
     * {@code requestGuard} (KIP-890 part 1).
     *
     * @throws org.apache.kafka.common.errors.InvalidTxnStateException for a transactional batch that
     *         would open a transaction here without the producer's current verification guard
     */
    public Map<Long, ProducerAppendInfo> prepareAppend(Iterable<? extends RecordBatch> batches, AppendOrigin origin,
                                                       VerificationGuard requestGuard, long nowMs) {
        Map<Long, ProducerAppendInfo> appends = new HashMap<>();
        for (RecordBatch batch : batches) {
            if (batch.hasProducerId()) {
                appends.computeIfAbsent(batch.producerId(), id -> prepareUpdate(id, origin, requestGuard))
                    .append(batch, nowMs);
            }
        }
        return appends;
    }

    /**
     * Commits a validated append: the producer's state and the transactions it opened. The
     * transactions its markers closed are completed by the caller, one by one, with
     * {@link #lastStableOffset(CompletedTxn)} and {@link #completeTxn}, once the segment's transaction
     * index has them.
     */
    public void update(ProducerAppendInfo appendInfo) {
        ProducerStateEntry updated = appendInfo.updatedEntry();
        ProducerStateEntry current = producers.get(appendInfo.producerId());
        if (current == null) {
            producers.put(appendInfo.producerId(), updated);
        } else {
            current.update(updated);
        }
        for (TxnMetadata txn : appendInfo.startedTransactions()) {
            ongoingTxns.put(txn.firstOffset(), txn);
        }
        if (appendInfo.sawTransactionalBatch()) {
            // The transaction is open here now, or a marker ended it: either way its verification is over.
            verificationStates.remove(appendInfo.producerId());
        }
        updateFirstUnstableOffset();
    }

    /**
     * The last stable offset once {@code completedTxn} is complete, as its transaction index entry
     * records it: the first offset of the oldest other open transaction, or the offset after the
     * marker.
     */
    public long lastStableOffset(CompletedTxn completedTxn) {
        for (TxnMetadata txn : ongoingTxns.values()) {
            if (txn.producerId() != completedTxn.producerId()) {
                return txn.firstOffset();
            }
        }
        return completedTxn.lastOffset() + 1;
    }

    /**
     * Closes an open transaction with its marker; it holds the last stable offset back until the
     * high watermark passes the marker ({@link #onHighWatermarkUpdated}).
     *
     * @throws IllegalStateException when no transaction is open at {@code completedTxn.firstOffset()}
     *                               though the marker follows batches of it
     */
    public void completeTxn(CompletedTxn completedTxn) {
        TxnMetadata txn = ongoingTxns.remove(completedTxn.firstOffset());
        if (txn == null) {
            if (completedTxn.firstOffset() != completedTxn.lastOffset()) {
                throw new IllegalStateException("No open transaction of producer " + completedTxn.producerId()
                    + " at offset " + completedTxn.firstOffset() + " in " + topicPartition + " to complete");
            }
            return; // a marker for a transaction that wrote nothing here
        }
        unreplicatedTxns.put(txn.firstOffset(), txn.completedAt(completedTxn.lastOffset()));
        updateFirstUnstableOffset();
    }

    /** The high watermark moved: transactions whose marker lies below it no longer hold the LSO back. */
    public void onHighWatermarkUpdated(long highWatermark) {
        if (unreplicatedTxns.values().removeIf(txn -> txn.lastOffset() < highWatermark)) {
            updateFirstUnstableOffset();
        }
    }

    /**
     * First offset of the oldest transaction that is open or whose marker is above the high
     * watermark, or {@link #NO_UNSTABLE_OFFSET}. Any thread.
     */
    public long firstUnstableOffset() {
        return firstUnstableOffset;
    }

    /** Open transactions, oldest first (DescribeProducers, tests). */
    public List<TxnMetadata> ongoingTransactions() {
        return List.copyOf(ongoingTxns.values());
    }

    private void updateFirstUnstableOffset() {
        long first = NO_UNSTABLE_OFFSET;
        if (!ongoingTxns.isEmpty()) {
            first = ongoingTxns.firstKey();
        }
        if (!unreplicatedTxns.isEmpty() && (first == NO_UNSTABLE_OFFSET || unreplicatedTxns.firstKey() < first)) {
            first = unreplicatedTxns.firstKey();
        }
        firstUnstableOffset = first;
    }

    /**
     * Replays one batch read from the log (recovery); no checks; answers the transactions its marker
     * closed, which the caller completes as an append does. The append time of a replayed
     * batch is unknown, so the producer counts as active at {@code loadTimeMs}: a producer found in
     * the log keeps its state for a full expiry period after a restart.
     */
    public List<CompletedTxn> replay(RecordBatch batch, long loadTimeMs) {
        if (!batch.hasProducerId()) {
            return List.of();
        }
        ProducerAppendInfo info = prepareUpdate(batch.producerId(), AppendOrigin.LOG);
        info.append(batch, loadTimeMs);
        update(info);
        return info.completedTransactions();
    }

    /** Records that the state now reflects the log up to {@code offset} (exclusive). */
    public void updateMapEndOffset(long offset) {
        lastMapOffset = offset;
    }

    /**
     * Drops the state and snapshots outside the log's offsets and loads the latest snapshot at
     * or below {@code logEndOffset}; the caller then replays the log from {@link #mapEndOffset()}.
     * A snapshot that cannot be read is deleted and the next older one used.
     */
    public void truncateAndReload(long logStartOffset, long logEndOffset, long currentTimeMs) throws IOException {
        for (Map.Entry<Long, File> e : new ArrayList<>(snapshots.entrySet())) {
            if (e.getKey() > logEndOffset || e.getKey() < logStartOffset) {
                removeSnapshot(e.getKey());
            }
        }
        if (logEndOffset != mapEndOffset()) {
            producers.clear();
            ongoingTxns.clear();
            unreplicatedTxns.clear();
            loadFromSnapshot(logStartOffset, currentTimeMs);
            updateFirstUnstableOffset();
        } else {
            onLogStartOffsetIncremented(logStartOffset);
        }
    }

    private void loadFromSnapshot(long logStartOffset, long currentTimeMs) throws IOException {
        while (true) {
            Map.Entry<Long, File> latest = snapshots.lastEntry();
            if (latest == null) {
                lastSnapOffset = logStartOffset;
                lastMapOffset = logStartOffset;
                return;
            }
            try {
                Collection<ProducerStateEntry> loaded = ProducerSnapshotFile.read(latest.getValue());
                for (ProducerStateEntry entry : loaded) {
                    if (!isExpired(currentTimeMs, entry)) {
                        producers.put(entry.producerId(), entry);
                        if (entry.currentTxnFirstOffset() != ProducerStateEntry.NO_TRANSACTION) {
                            ongoingTxns.put(entry.currentTxnFirstOffset(),
                                TxnMetadata.started(entry.producerId(), entry.currentTxnFirstOffset()));
                        }
                    }
                }
                lastSnapOffset = latest.getKey();
                lastMapOffset = latest.getKey();
                return;
            } catch (CorruptSnapshotException e) {
                log.warn("Deleting corrupt producer state snapshot {} of {}: {}", latest.getValue(), topicPartition,
                    e.getMessage());
                removeSnapshot(latest.getKey());
            }
        }
    }

    /** Writes a snapshot at the current map end offset, unless one exists there. */
    public void takeSnapshot() throws IOException {
        if (lastMapOffset > lastSnapOffset || !snapshots.containsKey(lastMapOffset)) {
            File file = ProducerSnapshotFile.fileFor(logDir, lastMapOffset);
            ProducerSnapshotFile.write(file, producers.values());
            snapshots.put(lastMapOffset, file);
            lastSnapOffset = lastMapOffset;
        }
    }

    /** Offset of the newest snapshot. */
    public OptionalLong latestSnapshotOffset() {
        Map.Entry<Long, File> e = snapshots.lastEntry();
        return e == null ? OptionalLong.empty() : OptionalLong.of(e.getKey());
    }

    /** Offset of the oldest snapshot. */
    public OptionalLong oldestSnapshotOffset() {
        Map.Entry<Long, File> e = snapshots.firstEntry();
        return e == null ? OptionalLong.empty() : OptionalLong.of(e.getKey());
    }

    /** Deletes snapshots below {@code offset}. */
    public void deleteSnapshotsBefore(long offset) throws IOException {
        for (Long snapshotOffset : new ArrayList<>(snapshots.headMap(offset, false).keySet())) {
            removeSnapshot(snapshotOffset);
        }
    }

    /**
     * The log start offset moved up (retention or DeleteRecords): producers whose last write
     * lies below it are dropped, as are older snapshots.
     */
    public void onLogStartOffsetIncremented(long logStartOffset) throws IOException {
        producers.values().removeIf(entry -> entry.lastDataOffset() >= 0 && entry.lastDataOffset() < logStartOffset
            && entry.currentTxnFirstOffset() == ProducerStateEntry.NO_TRANSACTION);
        unreplicatedTxns.values().removeIf(txn -> txn.lastOffset() < logStartOffset);
        updateFirstUnstableOffset();
        deleteSnapshotsBefore(logStartOffset);
        if (lastMapOffset < logStartOffset) {
            lastMapOffset = logStartOffset;
        }
        lastSnapOffset = latestSnapshotOffset().orElse(logStartOffset);
    }

    /** Drops producers idle for longer than {@code producer.id.expiration.ms}. */
    public void removeExpiredProducers(long currentTimeMs) {
        producers.values().removeIf(entry -> isExpired(currentTimeMs, entry));
        verificationStates.values().removeIf(v -> currentTimeMs - v.startMs() >= producerIdExpirationMs);
    }

    /** A producer with an open transaction never expires: its transaction must end first (by a marker). */
    private boolean isExpired(long currentTimeMs, ProducerStateEntry entry) {
        return entry.currentTxnFirstOffset() == ProducerStateEntry.NO_TRANSACTION
            && currentTimeMs - entry.lastTimestamp() >= producerIdExpirationMs;
    }

    /** Forgets every producer and snapshot; the log restarts at {@code offset}. */
    public void truncateFullyAndStartAt(long offset) throws IOException {
        producers.clear();
        ongoingTxns.clear();
        unreplicatedTxns.clear();
        updateFirstUnstableOffset();
        for (Long snapshotOffset : new ArrayList<>(snapshots.keySet())) {
            removeSnapshot(snapshotOffset);
        }
        lastSnapOffset = 0;
        lastMapOffset = offset;
    }

    /** Points the snapshot files at a renamed directory. */
    public void updateParentDir(File dir) throws IOException {
        this.logDir = dir;
        loadSnapshotFiles();
    }

    /** Snapshot offsets, oldest first (for tests). */
    public List<Long> snapshotOffsets() {
        return List.copyOf(snapshots.keySet());
    }

    private void removeSnapshot(long offset) throws IOException {
        File f = snapshots.remove(offset);
        if (f != null) {
            Files.deleteIfExists(f.toPath());
        }
    }
}
