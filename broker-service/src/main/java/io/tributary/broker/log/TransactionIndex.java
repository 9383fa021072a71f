package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.AbortedTxn;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aborted transactions whose ABORT marker lies in one segment, {@code <base offset>.txnindex},
 * in Kafka's layout (KIP-98): entries of 34 bytes, a version {@code int16} (0) then Kafka's
 * {@code AbortedTxn} message (producer id, first offset, last offset = the marker's offset, and the
 * last stable offset when the abort completed), in marker order. A read_committed fetch collects
 * the entries its range overlaps and sends them as {@code AbortedTransactions}, so the consumer
 * skips those producers' records.
 *
 * <p>The file is created at the first entry (most segments have none). On open, a partial entry
 * at the end (a torn write) is cut off; entries lost with an unflushed page cache come back when
 * recovery replays the log, since {@link #append} ignores an entry not beyond the last one.
 *
 * <p>Thread-safety: appends, truncation and renames run under the log's lock; reads run on any
 * thread and see whole entries only (they read up to a volatile length set after each write).
 *
 * <p>Errors: I/O failures surface as {@link IOException}; the caller turns them into
 * KAFKA_STORAGE_ERROR.
 */
final class TransactionIndex {

    static final String SUFFIX = ".txnindex";
    private static final Logger logger = LoggerFactory.getLogger(TransactionIndex.class);
    private static final short VERSION = 0;
    /** Bytes of one entry: the version and the four int64 fields. */
    static final int ENTRY_SIZE = 2 + 4 * 8;

    private volatile File file;
    private FileChannel channel;
    private volatile long sizeInBytes;
    private long lastOffset = -1L;

    /** One entry: an aborted transaction of {@code producerId} from {@code firstOffset} to its marker at {@code lastOffset}. */
    record AbortedTxnEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    }

    /** The entries a fetch overlaps, and whether they are all of them ({@link #collect}). */
    record Collected(List<AbortedTxnEntry> aborted, boolean isComplete) {
    }

    TransactionIndex(File file) throws IOException {
        this.file = file;
        if (file.exists()) {
            openChannel();
            long size = channel.size();
            long whole = size - size % ENTRY_SIZE;
            if (whole != size) {
                logger.warn("Cutting {} from {} to {} bytes: a partial entry at its end", file, size, whole);
                channel.truncate(whole);
            }
            sizeInBytes = whole;
            if (whole > 0) {
                lastOffset = read(whole - ENTRY_SIZE).lastOffset();
            }
        }
    }

    File file() {
        return file;
    }

    /**
     * Appends an aborted transaction, unless its marker is not beyond the last entry's (a replay of
     * one already here).
     */
    void append(AbortedTxnEntry entry) throws IOException {
        if (entry.lastOffset() <= lastOffset) {
            return;
        }
        if (channel == null) {
            openChannel();
        }
        ByteBuffer buffer = ByteBuffer.allocate(ENTRY_SIZE);
        buffer.putShort(VERSION);
        new AbortedTxn().setProducerId(entry.producerId()).setFirstOffset(entry.firstOffset())
            .setLastOffset(entry.lastOffset()).setLastStableOffset(entry.lastStableOffset())
            .write(new ByteBufferAccessor(buffer), new ObjectSerializationCache(), VERSION);
        buffer.flip();
        long position = sizeInBytes;
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
        sizeInBytes = position;
        lastOffset = entry.lastOffset();
    }

    /**
     * The entries whose transaction overlaps offsets {@code [fetchOffset, upperBoundOffset)}: marker
     * at or after {@code fetchOffset}, first offset before {@code upperBoundOffset}. Complete when an
     * entry was found whose last stable offset is at or beyond the upper bound: no later segment
     * can hold an abort that overlaps the range.
     */
    Collected collect(long fetchOffset, long upperBoundOffset) throws IOException {
        List<AbortedTxnEntry> out = new ArrayList<>();
        long size = sizeInBytes;
        for (long position = 0; position < size; position += ENTRY_SIZE) {
            AbortedTxnEntry entry = read(position);
            if (entry.lastOffset() >= fetchOffset && entry.firstOffset() < upperBoundOffset) {
                out.add(entry);
            }
            if (entry.lastStableOffset() >= upperBoundOffset) {
                return new Collected(out, true);
            }
        }
        return new Collected(out, false);
    }

    /** Every entry, in marker order. */
    List<AbortedTxnEntry> all() throws IOException {
        return collect(Long.MIN_VALUE, Long.MAX_VALUE).aborted();
    }

    /** Removes the entries whose marker is at or after {@code offset}. */
    void truncateTo(long offset) throws IOException {
        long size = sizeInBytes;
        long keep = 0;
        long last = -1L;
        while (keep < size) {
            AbortedTxnEntry entry = read(keep);
            if (entry.lastOffset() >= offset) {
                break;
            }
            last = entry.lastOffset();
            keep += ENTRY_SIZE;
        }
        if (keep < size) {
            channel.truncate(keep);
            sizeInBytes = keep;
            lastOffset = last;
        }
    }

    /** Removes every entry (the segment's log is rebuilt). */
    void reset() throws IOException {
        truncateTo(Long.MIN_VALUE);
    }

    private AbortedTxnEntry read(long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(ENTRY_SIZE);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("Unexpected end of " + file + " at byte " + (position + buffer.position()));
            }
        }
        buffer.flip();
        short version = buffer.getShort();
        if (version != VERSION) {
            throw new IOException("Entry at byte " + position + " of " + file + " has unknown version " + version);
        }
        AbortedTxn txn = new AbortedTxn(new ByteBufferAccessor(buffer), VERSION);
        return new AbortedTxnEntry(txn.producerId(), txn.firstOffset(), txn.lastOffset(), txn.lastStableOffset());
    }

    private void openChannel() throws IOException {
        channel = FileChannel.open(file.toPath(), StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
    }

    void flush() throws IOException {
        if (channel != null) {
            channel.force(true);
        }
    }

    /** Renames the file, if there is one. */
    void renameTo(File newFile) throws IOException {
        if (file.exists()) {
            Files.move(file.toPath(), newFile.toPath(), StandardCopyOption.ATOMIC_MOVE);
        }
        file = newFile;
    }

    void updateParentDir(File dir) {
        file = new File(dir, file.getName());
    }

    void deleteIfExists() throws IOException {
        close();
        Files.deleteIfExists(file.toPath());
    }

    void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
