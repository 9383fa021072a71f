package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Maps offsets to byte positions in a segment's {@code .log} file, sparsely: an entry every
 * {@code index.interval.bytes} of appended batches.
 *
 * <p>File format, as Kafka's {@code .index}: a sequence of 8-byte entries, big-endian,
 * <pre>
 *   relative offset : int32  (offset - base offset of the segment; the last offset of a batch)
 *   position        : int32  (byte position of that batch in the .log file)
 * </pre>
 * Entries are strictly increasing in both fields. A lookup returns the entry with the largest
 * offset at most the target, from which a scan of the log finds the batch holding the target.
 *
 * <p>Thread-safety: see {@link AbstractIndex}.
 */
public final class OffsetIndex extends AbstractIndex {

    static final int ENTRY_SIZE = 8;

    /** Opens or creates an offset index. */
    public OffsetIndex(File file, long baseOffset, int maxIndexSize) throws IOException {
        super(file, baseOffset, maxIndexSize);
    }

    @Override
    protected int entrySize() {
        return ENTRY_SIZE;
    }

    @Override
    protected long key(ByteBuffer idx, int n) {
        return baseOffset + idx.getInt(n * ENTRY_SIZE);
    }

    private int position(ByteBuffer idx, int n) {
        return idx.getInt(n * ENTRY_SIZE + 4);
    }

    /**
     * The entry with the largest offset at most {@code targetOffset}, or (base offset, 0) when
     * there is none.
     */
    public OffsetPosition lookup(long targetOffset) {
        ByteBuffer idx = view();
        int slot = largestLowerBoundSlot(idx, targetOffset, entries());
        if (slot == -1) {
            return new OffsetPosition(baseOffset, 0);
        }
        return new OffsetPosition(key(idx, slot), position(idx, slot));
    }

    /** The last entry, or (base offset, 0) when empty. */
    public OffsetPosition lastEntry() {
        int n = entries();
        if (n == 0) {
            return new OffsetPosition(baseOffset, 0);
        }
        ByteBuffer idx = view();
        return new OffsetPosition(key(idx, n - 1), position(idx, n - 1));
    }

    /** Entry {@code n}, for tests and tools. */
    public OffsetPosition entry(int n) {
        ByteBuffer idx = view();
        if (n >= entries()) {
            throw new IllegalArgumentException("Entry " + n + " requested from " + file() + " with " + entries() + " entries");
        }
        return new OffsetPosition(key(idx, n), position(idx, n));
    }

    /**
     * Appends an entry.
     *
     * @throws IllegalStateException if the index is full or the entry does not increase the offset
     */
    public void append(long offset, int position) {
        lock.lock();
        try {
            if (isFull()) {
                throw new IllegalStateException("Attempt to append to a full index " + file() + " (" + entries() + " entries)");
            }
            int n = entries();
            if (n > 0 && offset <= lastEntry().offset()) {
                throw new IllegalStateException("Attempt to append offset " + offset + " to index " + file()
                    + " whose last offset is " + lastEntry().offset());
            }
            ByteBuffer buffer = writeBuffer();
            buffer.putInt(relativeOffset(offset));
            buffer.putInt(position);
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
            int slot = smallestUpperBoundSlot(idx, offset, entries());
            truncateToEntries(slot);
        } finally {
            lock.unlock();
        }
    }

    @Override
    void sanityCheck(long logSize) {
        ByteBuffer idx = view();
        int n = entries();
        long previousOffset = -1;
        int previousPosition = -1;
        for (int i = 0; i < n; i++) {
            long offset = key(idx, i);
            int position = position(idx, i);
            // Every entry lies at or above the base offset (a negative relative offset means the file is
            // not this segment's), and the last one strictly above it (a zeroed entry reads as the base offset).
            if (offset <= previousOffset || offset < baseOffset || offset == baseOffset && i == n - 1
                || position <= previousPosition || position < 0 || position >= logSize) {
                throw new CorruptIndexException("Corrupt offset index " + file().getAbsolutePath() + ": entry " + i
                    + " of " + n + " is (offset " + offset + ", position " + position + ") after (offset "
                    + previousOffset + ", position " + previousPosition + "), base offset " + baseOffset
                    + ", log size " + logSize);
            }
            previousOffset = offset;
            previousPosition = position;
        }
    }
}
