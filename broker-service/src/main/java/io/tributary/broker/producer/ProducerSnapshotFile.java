package io.tributary.broker.producer;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads and writes producer state snapshots, {@code <offset>.snapshot} (20-digit offset).
 *
 * <p>Format, big-endian:
 * <pre>
 *   version        : int16  (2; version 1 lacks the two transaction fields)
 *   crc            : int32  (CRC32C of everything after this field)
 *   producer count : int32
 *   per producer:
 *     producer id    : int64
 *     epoch          : int16
 *     last timestamp : int64
 *     coordinator epoch        : int32  (-1 before any transaction marker; version 2)
 *     current txn first offset : int64  (-1 without an open transaction; version 2)
 *     batch count    : int8   (at most 5, oldest first)
 *     per batch: last sequence int32, last offset int64, offset delta int32, timestamp int64
 * </pre>
 * Unlike Kafka's snapshot, which keeps only the last batch, every retained batch is stored, so
 * a retry of any in-flight batch is recognised after a restart. Written to a temporary file,
 * fsynced and renamed, so a crash leaves either the old or the new snapshot.
 */
public final class ProducerSnapshotFile {

    static final String SUFFIX = ".snapshot";
    private static final short VERSION = 2;
    /** Snapshots written before transactions, still read. */
    private static final short VERSION_WITHOUT_TRANSACTIONS = 1;
    private static final int HEADER = 2 + 4 + 4;
    private static final int PRODUCER_BYTES = 8 + 2 + 8 + 4 + 8 + 1;
    private static final int BATCH_BYTES = 4 + 8 + 4 + 8;

    private ProducerSnapshotFile() {
    }

    static File fileFor(File dir, long offset) {
        return new File(dir, String.format("%020d", offset) + SUFFIX);
    }

    static long offsetOf(File file) {
        String name = file.getName();
        return Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
    }

    static void write(File file, Collection<ProducerStateEntry> entries) throws IOException {
        int size = HEADER;
        for (ProducerStateEntry e : entries) {
            size += PRODUCER_BYTES + e.batches().size() * BATCH_BYTES;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort(VERSION);
        buffer.putInt(0);
        buffer.putInt(entries.size());
        for (ProducerStateEntry e : entries) {
            List<BatchMetadata> batches = e.batches();
            buffer.putLong(e.producerId());
            buffer.putShort(e.producerEpoch());
            buffer.putLong(e.lastTimestamp());
            buffer.putInt(e.coordinatorEpoch());
            buffer.putLong(e.currentTxnFirstOffset());
            buffer.put((byte) batches.size());
            for (BatchMetadata b : batches) {
                buffer.putInt(b.lastSeq());
                buffer.putLong(b.lastOffset());
                buffer.putInt(b.offsetDelta());
                buffer.putLong(b.timestamp());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), 6, size - 6);
        buffer.putInt(2, (int) crc.getValue());
        buffer.flip();
        File tmp = new File(file.getPath() + ".tmp");
        try (FileChannel channel = FileChannel.open(tmp.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Reads a snapshot.
     *
     * @throws CorruptSnapshotException when the checksum or the structure is wrong
     */
    static Collection<ProducerStateEntry> read(File file) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(Files.readAllBytes(file.toPath()));
        try {
            short version = buffer.getShort();
            if (version != VERSION && version != VERSION_WITHOUT_TRANSACTIONS) {
                throw new CorruptSnapshotException("Snapshot " + file + " has unknown version " + version);
            }
            int storedCrc = buffer.getInt();
            CRC32C crc = new CRC32C();
            crc.update(buffer.array(), 6, buffer.limit() - 6);
            if ((int) crc.getValue() != storedCrc) {
                throw new CorruptSnapshotException("Snapshot " + file + " has CRC " + Integer.toUnsignedString(storedCrc)
                    + " but its content hashes to " + crc.getValue());
            }
            int count = buffer.getInt();
            List<ProducerStateEntry> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long producerId = buffer.getLong();
                short epoch = buffer.getShort();
                long lastTimestamp = buffer.getLong();
                ProducerStateEntry entry = new ProducerStateEntry(producerId, epoch, lastTimestamp);
                if (version >= VERSION) {
                    entry.coordinatorEpoch(buffer.getInt());
                    entry.currentTxnFirstOffset(buffer.getLong());
                }
                int batches = buffer.get();
                for (int b = 0; b < batches; b++) {
                    entry.addBatch(epoch, buffer.getInt(), buffer.getLong(), buffer.getInt(), buffer.getLong());
                }
                entry.setLastTimestamp(lastTimestamp);
                entries.add(entry);
            }
            if (buffer.hasRemaining()) {
                throw new CorruptSnapshotException("Snapshot " + file + " has " + buffer.remaining() + " trailing bytes");
            }
            return entries;
        } catch (java.nio.BufferUnderflowException e) {
            throw new CorruptSnapshotException("Snapshot " + file + " is truncated");
        }
    }
}
