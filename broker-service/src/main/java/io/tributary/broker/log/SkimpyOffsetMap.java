package io.tributary.broker.log;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The cleaner's key-to-latest-offset map, as Kafka's {@code SkimpyOffsetMap}: a fixed block of
 * memory (the dedupe buffer) of slots holding the MD5 digest of a key (16 bytes) and an offset
 * (8 bytes), with open addressing. Keys themselves are never stored, so the memory used is
 * bounded by {@code memory} bytes whatever the key sizes; two keys with the same digest would be
 * treated as one (probability negligible for MD5 over one log's keys).
 *
 * <p>Invariants: {@link #size()} &lt;= {@link #slots()}; an all-zero slot is empty (a key whose
 * digest is all zeros cannot be told apart, as in Kafka). {@link #latestOffset()} is the last
 * offset the map covers: every keyed record at or below it that the cleaner read is in the map.
 *
 * <p>Not thread-safe: each cleaner thread owns one.
 */
final class SkimpyOffsetMap {

    private static final int OFFSET_BYTES = 8;

    private final ByteBuffer bytes;
    private final MessageDigest digest;
    private final int hashSize;
    private final int bytesPerEntry;
    private final int slots;
    private final byte[] hash1;
    private final byte[] hash2;
    private int entries;
    private long latestOffset = -1;

    /**
     * @param memory bytes of the map; must fit at least two entries (24 bytes each)
     */
    SkimpyOffsetMap(int memory) {
        try {
            this.digest = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is not available", e);
        }
        this.hashSize = digest.getDigestLength();
        this.bytesPerEntry = hashSize + OFFSET_BYTES;
        this.slots = memory / bytesPerEntry;
        if (slots < 2) {
            throw new IllegalArgumentException("A dedupe buffer of " + memory + " bytes holds fewer than 2 entries of "
                + bytesPerEntry + " bytes");
        }
        this.bytes = ByteBuffer.allocate(slots * bytesPerEntry);
        this.hash1 = new byte[hashSize];
        this.hash2 = new byte[hashSize];
    }

    /** Number of slots (entries the map can hold). */
    int slots() {
        return slots;
    }

    /** Entries in the map. */
    int size() {
        return entries;
    }

    /** Fraction of slots used. */
    double utilization() {
        return (double) entries / slots;
    }

    /** Records {@code offset} as the latest offset of {@code key}; the map must not be full. */
    void put(ByteBuffer key, long offset) {
        if (entries >= slots) {
            throw new IllegalStateException("Attempt to add an entry to a full offset map");
        }
        hashInto(key, hash1);
        int attempt = 0;
        int pos = positionOf(hash1, attempt);
        while (!isEmpty(pos)) {
            readHash(pos, hash2);
            if (Arrays.equals(hash1, hash2)) {
                bytes.putLong(pos + hashSize, offset);
                latestOffset = offset;
                return;
            }
            pos = positionOf(hash1, ++attempt);
        }
        bytes.position(pos);
        bytes.put(hash1);
        bytes.putLong(offset);
        latestOffset = offset;
        entries++;
    }

    /** The latest offset recorded for {@code key}, or -1 when it is not in the map. */
    long get(ByteBuffer key) {
        hashInto(key, hash1);
        int attempt = 0;
        int pos = positionOf(hash1, attempt);
        while (!isEmpty(pos)) {
            readHash(pos, hash2);
            if (Arrays.equals(hash1, hash2)) {
                return bytes.getLong(pos + hashSize);
            }
            if (attempt >= slots) {
                return -1;
            }
            pos = positionOf(hash1, ++attempt);
        }
        return -1;
    }

    /** The last offset covered by the map (-1 when empty). */
    long latestOffset() {
        return latestOffset;
    }

    /** Moves the covered range up to {@code offset} (records without keys, gaps, batch ends). */
    void updateLatestOffset(long offset) {
        latestOffset = offset;
    }

    /** Empties the map. */
    void clear() {
        entries = 0;
        latestOffset = -1;
        Arrays.fill(bytes.array(), bytes.arrayOffset(), bytes.arrayOffset() + bytes.capacity(), (byte) 0);
    }

    private boolean isEmpty(int position) {
        for (int i = 0; i < bytesPerEntry; i++) {
            if (bytes.get(position + i) != 0) {
                return false;
            }
        }
        return true;
    }

    private void readHash(int position, byte[] into) {
        for (int i = 0; i < hashSize; i++) {
            into[i] = bytes.get(position + i);
        }
    }

    /** Probes with successive 4-byte windows of the digest, then linearly (Kafka's scheme). */
    private int positionOf(byte[] hash, int attempt) {
        int window = Math.min(attempt, hashSize - 4);
        int probe = ((hash[window] & 0xff) << 24) | ((hash[window + 1] & 0xff) << 16)
            | ((hash[window + 2] & 0xff) << 8) | (hash[window + 3] & 0xff);
        probe += Math.max(0, attempt - hashSize + 4);
        int slot = (probe & 0x7fffffff) % slots;
        return slot * bytesPerEntry;
    }

    private void hashInto(ByteBuffer key, byte[] into) {
        digest.update(key.duplicate());
        try {
            digest.digest(into, 0, hashSize);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }
}
