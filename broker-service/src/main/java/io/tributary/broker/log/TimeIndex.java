package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * Maps timestamps to offsets in a segment, sparsely, for ListOffsets by timestamp and for
 * time-based retention and rolling.
 *
 * <p>File format, as Kafka's {@code .timeindex}: a sequence of 12-byte entries, big-endian,
 * <pre>
 *   timestamp       : int64  (largest timestamp seen so far in the segment, ms)
 *   relative offset : int32  (offset of the batch holding that timestamp - base offset)
 * </pre>
 * Timestamps are strictly increasing and offsets non-decreasing. A lookup for T returns the
 * last entry with timestamp at most T: every record with timestamp at least T lies at or after
 * its offset.
 *
 * <p>Thread-safety: see {@link AbstractIndex}.
 */
public final class TimeIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 12;

    /** Opens or creates a time index. */
    public TimeIndex(File file, long baseOffset, int maxIndexSize) throws IOException {
        super(file, baseOffset, maxIndexSize);
    }

    @Override
    protected int entrySize() {
        return ENTRY_SIZE;
    }

    @Override
    protected long key(ByteBuffer idx, int n) {
        return idx.getLong(n * ENTRY_SIZE);
    }

    private long offset(ByteBuffer idx, int n) {
        return baseOffset + idx.getInt(n * ENTRY_SIZE + 8);
    }

    /** The last entry, or (-1, base offset) when empty. */
    public TimestampOffset lastEntry() {
        int n = entries();
        if (n == 0) {
            return new TimestampOffset(RecordBatch.NO_TIMESTAMP, baseOffset);
        }
        ByteBuffer idx = view();
        return new TimestampOffset(key(idx, n - 1), offset(idx, n - 1));
    }

    /**
     * The entry with the largest timestamp at most {@code targetTimestamp}, or (-1, base offset)
     * when there is none.
     */
    public TimestampOffset lookup(long targetTimestamp) {
        ByteBuffer idx = view();
        int slot = largestLowerBoundSlot(idx, targetTimestamp, entries());
        if (slot == -1) {
            return new TimestampOffset(RecordBatch.NO_TIMESTAMP, baseOffset);
        }
        return new TimestampOffset(key(idx, slot), offset(idx, slot));
    }

    /**
     * Appends an entry if {@code timestamp} is above the last one. Callers roll the segment
     * before the index fills.
     *
     * @throws IllegalStateException if the index is full or the offset goes backwards
     */
    public void maybeAppend(long timestamp, long offset) {
        lock.lock();
        try {
            TimestampOffset last = lastEntry();
            if (entries() > 0 && timestamp <= last.timestamp()) {
                return;
            }
            if (entries() > 0 && offset < last.offset()) {
                throw new IllegalStateException("Attempt to append offset " + offset + " to time index " + file()
                    + " whose last offset is " + last.offset());
            }
            if (isFull()) {
                throw new IllegalStateException("Attempt to append to a full time index " + file());
            }
            ByteBuffer buffer = writeBuffer();
            buffer.putLong(timestamp);
            buffer.putInt(relativeOffset(offset));
            entryAppended();
        } finally {
            lock.unlock();
        }
    }

    @Override
    void truncateTo(long offset) {
        lock.lock();
        try {
            ByteBuffer idx = view();
            int n = entries();
            int keep = 0;
            while (keep < n && offset(idx, keep) < offset) {
                keep++;
            }
            truncateToEntries(keep);
        } finally {
            lock.unlock();
        }
    }

    @Override
    void sanityCheck(long logSize) {
        ByteBuffer idx = view();
        int n = entries();
        long previousTimestamp = Long.MIN_VALUE;
        long previousOffset = baseOffset;
        for (int i = 0; i < n; i++) {
            long timestamp = key(idx, i);
            long offset = offset(idx, i);
            if (timestamp <= previousTimestamp || offset < previousOffset || timestamp < 0) {
                throw new CorruptIndexException("Corrupt time index " + file().getAbsolutePath() + ": entry " + i
                    + " of " + n + " is (timestamp " + timestamp + ", offset " + offset + ") after (timestamp "
                    + previousTimestamp + ", offset " + previousOffset + "), base offset " + baseOffset);
            }
            previousTimestamp = timestamp;
            previousOffset = offset;
        }
    }
}
