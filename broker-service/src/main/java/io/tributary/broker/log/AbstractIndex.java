package io.tributary.broker.log;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A sparse index file of fixed-size entries, memory-mapped, with relative offsets to the
 * segment's base offset. Files are preallocated to {@code maxIndexSize} while the segment is
 * active and trimmed to their entries when it rolls or closes.
 *
 * <p>Thread-safety: writers (append, truncate, resize) hold {@link #lock}; readers take a
 * {@link ByteBuffer#duplicate()} of the current mapping and never lock. An old mapping is never
 * unmapped by force (a concurrent reader would crash the JVM); the garbage collector releases it.
 */
abstract class AbstractIndex implements Closeable {

    protected final long baseOffset;
    protected final ReentrantLock lock = new ReentrantLock();
    private final int maxIndexSize;
    private volatile File file;
    private volatile MappedByteBuffer mmap;
    private volatile int maxEntries;
    private volatile int entries;

    /**
     * Opens or creates the index file.
     *
     * @param file         the index file
     * @param baseOffset   the segment's base offset
     * @param maxIndexSize the preallocated size while active, bytes
     */
    AbstractIndex(File file, long baseOffset, int maxIndexSize) throws IOException {
        this.file = file;
        this.baseOffset = baseOffset;
        this.maxIndexSize = maxIndexSize;
        boolean newlyCreated = file.createNewFile();
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
            if (newlyCreated) {
                raf.setLength(roundDownToEntrySize(maxIndexSize));
            }
            long length = raf.length();
            MappedByteBuffer map = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, length);
            map.position(newlyCreated ? 0 : roundDownToEntrySize((int) length));
            this.mmap = map;
            this.maxEntries = map.limit() / entrySize();
            this.entries = map.position() / entrySize();
        }
    }

    /** Bytes per entry. */
    protected abstract int entrySize();

    /**
     * Checks the index against its invariants: entries in strictly increasing order, no entry
     * below the base offset, positions within {@code logSize}.
     *
     * @throws CorruptIndexException describing the first violation found
     */
    abstract void sanityCheck(long logSize);

    /** Keeps only entries for offsets below {@code offset}. */
    abstract void truncateTo(long offset);

    File file() {
        return file;
    }

    int entries() {
        return entries;
    }

    int maxEntries() {
        return maxEntries;
    }

    boolean isFull() {
        return entries >= maxEntries;
    }

    /** Bytes used by entries. */
    int sizeInBytes() {
        return entries * entrySize();
    }

    /**
     * Takes the writers' lock if it is free, without waiting: for an append that must not wait
     * behind a flush forcing the mapping to disk. Pair with {@link #unlockWriters}.
     */
    boolean tryLockWriters() {
        return lock.tryLock();
    }

    void unlockWriters() {
        lock.unlock();
    }

    /** A read-only view of the current mapping for lock-free readers. */
    protected ByteBuffer view() {
        return mmap.duplicate();
    }

    /** Appends one entry at the mapping's position; caller holds {@link #lock} and has checked capacity. */
    protected ByteBuffer writeBuffer() {
        return mmap;
    }

    protected void entryAppended() {
        entries++;
    }

    protected void truncateToEntries(int newEntries) {
        lock.lock();
        try {
            entries = newEntries;
            mmap.position(newEntries * entrySize());
        } finally {
            lock.unlock();
        }
    }

    protected int relativeOffset(long offset) {
        long relative = offset - baseOffset;
        if (relative < 0 || relative > Integer.MAX_VALUE) {
            throw new IndexOffsetOverflowException("Offset " + offset + " cannot be stored relative to base offset "
                + baseOffset + " in " + file.getAbsolutePath());
        }
        return (int) relative;
    }

    /**
     * Changes the file size, keeping the entries.
     *
     * @return whether the size changed
     */
    boolean resize(int newSize) throws IOException {
        lock.lock();
        try {
            int roundedNewSize = roundDownToEntrySize(newSize);
            if (mmap.limit() == roundedNewSize) {
                return false;
            }
            int position = mmap.position();
            mmap.force();
            try (RandomAccessFile raf = new RandomAccessFile(file, "rw")) {
                raf.setLength(roundedNewSize);
                MappedByteBuffer map = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, roundedNewSize);
                map.position(Math.min(position, roundedNewSize));
                this.maxEntries = roundedNewSize / entrySize();
                this.entries = map.position() / entrySize();
                this.mmap = map;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Grows the file back to its maximum size so the segment can take appends again. */
    void resizeToMax() throws IOException {
        resize(maxIndexSize);
    }

    /** Shrinks the file to its entries (when the segment stops being active). */
    void trimToValidSize() throws IOException {
        resize(sizeInBytes());
    }

    /** Removes every entry. */
    void reset() throws IOException {
        truncateToEntries(0);
        resize(maxIndexSize);
    }

    void flush() {
        lock.lock();
        try {
            mmap.force();
        } finally {
            lock.unlock();
        }
    }

    void renameTo(File target) throws IOException {
        try {
            Files.move(file.toPath(), target.toPath(), StandardCopyOption.ATOMIC_MOVE);
        } finally {
            this.file = target;
        }
    }

    /** Points at the same file name in a moved directory. */
    void updateParentDir(File dir) {
        this.file = new File(dir, file.getName());
    }

    boolean deleteIfExists() throws IOException {
        return Files.deleteIfExists(file.toPath());
    }

    @Override
    public void close() throws IOException {
        trimToValidSize();
    }

    /** Releases the mapping without trimming (the file may be gone). */
    void closeHandler() {
        // The mapping is released by the garbage collector; see the class comment.
    }

    private int roundDownToEntrySize(int number) {
        return number - number % entrySize();
    }

    /** Binary search for the last entry whose key is at most {@code target}; -1 when none. */
    protected int largestLowerBoundSlot(ByteBuffer idx, long target, int n) {
        if (n == 0 || key(idx, 0) > target) {
            return -1;
        }
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (key(idx, mid) <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Binary search for the first entry whose key is at least {@code target}; {@code n} when none. */
    protected int smallestUpperBoundSlot(ByteBuffer idx, long target, int n) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (key(idx, mid) < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The search key (absolute offset or timestamp) of entry {@code n}. */
    protected abstract long key(ByteBuffer idx, int n);
}
