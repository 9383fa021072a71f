package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader epoch to start offset, for one partition, persisted in
 * {@code leader-epoch-checkpoint}. Answers OffsetForLeaderEpoch (KIP-101, KIP-279): the end
 * offset of an epoch is the start offset of the next higher one, or the log end offset for
 * the latest. Followers and consumers use it to find where their log diverged after a leader
 * change, instead of truncating to the high watermark blindly.
 *
 * <p>Invariant: epochs and start offsets both strictly increase. Thread-safe.
 */
public final class LeaderEpochFileCache {

    private static final Logger log = LoggerFactory.getLogger(LeaderEpochFileCache.class);
    static final String FILE_NAME = "leader-epoch-checkpoint";

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<Integer, EpochEntry> epochs = new TreeMap<>();
    private volatile CheckpointFile<EpochEntry> checkpoint;
    /** The latest epoch, or NO_PARTITION_LEADER_EPOCH: published after every change, read without the lock. */
    private volatile int latestEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;

    /** Loads the cache from {@code <dir>/leader-epoch-checkpoint}; a malformed file is logged and ignored (rebuilt by recovery). */
    public LeaderEpochFileCache(File dir) {
        this.checkpoint = checkpointIn(dir);
        try {
            for (EpochEntry e : checkpoint.read()) {
                epochs.put(e.epoch(), e);
            }
        } catch (IOException e) {
            log.warn("Ignoring unreadable leader epoch checkpoint {}: {}", checkpoint.file(), e.getMessage());
            epochs.clear();
        }
        publishLatestEpoch();
    }

    /** Call with the write lock held (or from the constructor), after {@code epochs} changed. */
    private void publishLatestEpoch() {
        latestEpoch = epochs.isEmpty() ? RecordBatch.NO_PARTITION_LEADER_EPOCH : epochs.lastKey();
    }

    /**
     * Whether the latest epoch is {@code epoch} or newer, so that {@link #assign} of it changes
     * nothing and writes no checkpoint. Never waits: reads what the last change published.
     */
    public boolean hasEpochAtLeast(int epoch) {
        return latestEpoch >= epoch;
    }

    private static CheckpointFile<EpochEntry> checkpointIn(File dir) {
        return new CheckpointFile<>(new File(dir, FILE_NAME),
            e -> e.epoch() + " " + e.startOffset(),
            line -> {
                String[] parts = line.split("\\s+");
                return new EpochEntry(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
            });
    }

    /**
     * Records that {@code epoch} starts at {@code startOffset}, if it is newer than the latest
     * entry. Entries that would break the invariant (same or higher start offset) are removed.
     */
    public void assign(int epoch, long startOffset) {
        if (epoch == RecordBatch.NO_PARTITION_LEADER_EPOCH || latestEpoch >= epoch) {
            return; // without the lock: an append in an epoch already recorded never waits here
        }
        lock.writeLock().lock();
        try {
            Map.Entry<Integer, EpochEntry> latest = epochs.lastEntry();
            if (latest != null && latest.getKey() >= epoch) {
                return;
            }
            epochs.values().removeIf(e -> e.startOffset() >= startOffset);
            epochs.put(epoch, new EpochEntry(epoch, startOffset));
            flush();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The latest epoch, if any. */
    public OptionalInt latestEpoch() {
        lock.readLock().lock();
        try {
            return epochs.isEmpty() ? OptionalInt.empty() : OptionalInt.of(epochs.lastKey());
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The largest epoch at most {@code requestedEpoch} and the offset where it ends.
     *
     * @param logEndOffset the log end offset, the end of the latest epoch
     * @return (epoch, end offset), or (-1, -1) when the requested epoch precedes every entry
     *         and nothing is known
     */
    public EpochEntry endOffsetFor(int requestedEpoch, long logEndOffset) {
        lock.readLock().lock();
        try {
            if (requestedEpoch == RecordBatch.NO_PARTITION_LEADER_EPOCH || epochs.isEmpty()) {
                return new EpochEntry(OffsetsForLeaderEpochResponse.UNDEFINED_EPOCH,
                    OffsetsForLeaderEpochResponse.UNDEFINED_EPOCH_OFFSET);
            }
            if (requestedEpoch == epochs.lastKey()) {
                return new EpochEntry(requestedEpoch, logEndOffset);
            }
            Map.Entry<Integer, EpochEntry> higher = epochs.higherEntry(requestedEpoch);
            if (higher == null) {
                return new EpochEntry(OffsetsForLeaderEpochResponse.UNDEFINED_EPOCH,
                    OffsetsForLeaderEpochResponse.UNDEFINED_EPOCH_OFFSET);
            }
            Map.Entry<Integer, EpochEntry> floor = epochs.floorEntry(requestedEpoch);
            int epoch = floor == null ? requestedEpoch : floor.getKey();
            return new EpochEntry(epoch, higher.getValue().startOffset());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Removes entries starting at or after {@code endOffset} (the log was truncated there). */
    public void truncateFromEnd(long endOffset) {
        lock.writeLock().lock();
        try {
            if (epochs.values().removeIf(e -> e.startOffset() >= endOffset)) {
                flush();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * The log now starts at {@code startOffset}: entries wholly before it are removed, and the
     * epoch holding it starts there.
     */
    public void truncateFromStart(long startOffset) {
        lock.writeLock().lock();
        try {
            EpochEntry holding = null;
            for (EpochEntry e : epochs.values()) {
                if (e.startOffset() <= startOffset) {
                    holding = e;
                }
            }
            if (holding == null) {
                return;
            }
            final EpochEntry keep = holding;
            boolean changed = epochs.values().removeIf(e -> e.startOffset() < startOffset && e.epoch() != keep.epoch());
            if (keep.startOffset() != startOffset) {
                epochs.put(keep.epoch(), new EpochEntry(keep.epoch(), startOffset));
                changed = true;
            }
            if (changed) {
                flush();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes every entry. */
    public void clear() {
        lock.writeLock().lock();
        try {
            epochs.clear();
            flush();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The entries, oldest first. */
    public List<EpochEntry> entries() {
        lock.readLock().lock();
        try {
            return new ArrayList<>(epochs.values());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Points the checkpoint at a renamed directory. */
    public void updateParentDir(File dir) {
        this.checkpoint = checkpointIn(dir);
    }

    private void flush() {
        publishLatestEpoch();
        try {
            checkpoint.write(new ArrayList<>(epochs.values()));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + checkpoint.file(), e);
        }
    }
}
