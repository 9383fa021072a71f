package io.tributary.faults.fuzz;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Applies one {@link Mutation} to a copy of a valid request frame, drawing every choice from the caller's
 * {@link Random}, so a seed replays the same bytes. Frame layout: size (int32), api key (int16), version (int16),
 * correlation id (int32), client id (int16 length + bytes), then in header v2 a tagged-field count (unsigned
 * varint), then the body.
 *
 * <p>Stateless; thread-safe as long as each thread brings its own {@code Random}.
 */
public final class FrameMutator {

    /** Offsets in a v2 record batch (see {@link Mutation}). */
    static final int BATCH_LENGTH_OFFSET = 8;
    static final int MAGIC_OFFSET = 16;
    static final int CRC_OFFSET = 17;
    static final int ATTRIBUTES_OFFSET = 21;
    static final int RECORD_COUNT_OFFSET = 57;
    static final int RECORDS_OFFSET = 61;

    private static final int[] INTERESTING_INTS = {-1, 0, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7fff, 0x8000,
        0xffff, 1 << 20, 1 << 24, 100 * 1024 * 1024 + 1};

    /** A request frame that, mutated, may be anything; a {@link Mutation#needsBatch()} one falls back to bit flips. */
    public MutatedFrame mutate(SampleRequest sample, Mutation mutation, Random random) {
        byte[] f = sample.frame().clone();
        if (mutation.needsBatch() && !sample.hasBatch()) {
            mutation = Mutation.BIT_FLIPS;
        }
        return switch (mutation) {
            case NONE -> new MutatedFrame(sample, mutation, f, false);
            case LENGTH_SHORT -> {
                putInt(f, 0, random.nextInt(Math.max(1, f.length - 4)));
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case LENGTH_LONG -> {
                putInt(f, 0, f.length - 4 + 1 + random.nextInt(4096));
                yield new MutatedFrame(sample, mutation, f, true);
            }
            case LENGTH_NEGATIVE -> {
                putInt(f, 0, random.nextBoolean() ? -1 : Integer.MIN_VALUE + random.nextInt(1 << 30));
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case LENGTH_HUGE -> {
                putInt(f, 0, 100 * 1024 * 1024 + 1 + random.nextInt(Integer.MAX_VALUE - 100 * 1024 * 1024 - 1));
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case VERSION_OUT_OF_RANGE -> {
                short[] choices = {-1, Short.MIN_VALUE, (short) (sample.apiKey().latestVersion() + 1),
                    (short) (sample.apiKey().latestVersion() + 1 + random.nextInt(100)), Short.MAX_VALUE,
                    (short) (sample.apiKey().oldestVersion() - 1)};
                putShort(f, SampleRequest.HEADER_OFFSET + 2, choices[random.nextInt(choices.length)]);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case UNKNOWN_API_KEY -> {
                short key;
                do {
                    key = (short) (random.nextBoolean() ? random.nextInt(Short.MAX_VALUE) : -1 - random.nextInt(100));
                } while (ApiKeys.hasId(key));
                putShort(f, SampleRequest.HEADER_OFFSET, key);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case CLIENT_ID_LENGTH -> {
                int at = SampleRequest.clientIdLengthOffset();
                int current = getShort(f, at);
                short[] choices = {-1, -2, Short.MIN_VALUE, Short.MAX_VALUE, (short) (current + 1 + random.nextInt(8)),
                    (short) Math.max(0, current - 1 - random.nextInt(4)), (short) (f.length + random.nextInt(100))};
                putShort(f, at, choices[random.nextInt(choices.length)]);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case TAGGED_FIELDS -> new MutatedFrame(sample, mutation, taggedFields(sample, f, random), false);
            case TRUNCATE -> {
                int keep = 4 + random.nextInt(Math.max(1, f.length - 4));
                byte[] cut = Arrays.copyOf(f, keep);
                putInt(cut, 0, keep - 4);
                yield new MutatedFrame(sample, mutation, cut, false);
            }
            case BIT_FLIPS -> {
                int flips = 1 + random.nextInt(8);
                for (int i = 0; i < flips; i++) {
                    int at = 4 + random.nextInt(f.length - 4);
                    f[at] ^= (byte) (1 << random.nextInt(8));
                }
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case BATCH_MAGIC -> {
                int magic;
                do {
                    magic = random.nextInt(256);
                } while (magic == 2);
                f[sample.batchOffset() + MAGIC_OFFSET] = (byte) magic;
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case BATCH_CRC -> {
                int at = sample.batchOffset() + CRC_OFFSET + random.nextInt(4);
                f[at] ^= (byte) (1 + random.nextInt(255));
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case BATCH_LENGTH -> {
                int current = getInt(f, sample.batchOffset() + BATCH_LENGTH_OFFSET);
                int value = random.nextBoolean() ? INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)]
                        : current + random.nextInt(33) - 16;
                putInt(f, sample.batchOffset() + BATCH_LENGTH_OFFSET, value == current ? current + 1 : value);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case BATCH_RECORD_COUNT -> {
                int current = getInt(f, sample.batchOffset() + RECORD_COUNT_OFFSET);
                int value = random.nextBoolean() ? INTERESTING_INTS[random.nextInt(INTERESTING_INTS.length)]
                        : current + random.nextInt(9) - 4;
                putInt(f, sample.batchOffset() + RECORD_COUNT_OFFSET, value == current ? current + 1 : value);
                rewriteCrc(f, sample);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case BATCH_ATTRIBUTES -> {
                int at = sample.batchOffset() + ATTRIBUTES_OFFSET;
                int current = getShort(f, at);
                int value = random.nextBoolean() ? (current & ~0x7) | random.nextInt(8) : random.nextInt(1 << 16);
                putShort(f, at, (short) (value == current ? current ^ 0x7 : value));
                rewriteCrc(f, sample);
                yield new MutatedFrame(sample, mutation, f, false);
            }
            case COMPRESSED_PAYLOAD -> {
                int start = sample.batchOffset() + RECORDS_OFFSET;
                int end = sample.batchOffset() + sample.batchLength();
                int changes = 1 + random.nextInt(16);
                for (int i = 0; i < changes && end > start; i++) {
                    f[start + random.nextInt(end - start)] = (byte) random.nextInt(256);
                }
                rewriteCrc(f, sample);
                yield new MutatedFrame(sample, mutation, f, false);
            }
        };
    }

    /**
     * Replaces a tagged-field section: in header v2 the header's (right after the client id), otherwise the body's
     * last byte (the top-level tagged-field count of a flexible body). The new section is a huge count, or one field
     * whose declared size runs past the frame; the size prefix is fixed to the new length.
     */
    private static byte[] taggedFields(SampleRequest sample, byte[] f, Random random) {
        int at;
        short headerVersion = sample.apiKey().requestHeaderVersion(sample.version());
        if (headerVersion >= 2 && random.nextBoolean()) {
            int clientIdLength = Math.max(0, getShort(f, SampleRequest.clientIdLengthOffset()));
            at = SampleRequest.clientIdLengthOffset() + 2 + clientIdLength;
        } else {
            at = f.length - 1;
        }
        byte[] section = switch (random.nextInt(3)) {
            case 0 -> new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}; // count 2^32-1
            case 1 -> new byte[] {1, (byte) random.nextInt(128), (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}; // size 2^28-1
            default -> new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}; // varint too long
        };
        byte[] out = new byte[f.length - 1 + section.length];
        System.arraycopy(f, 0, out, 0, at);
        System.arraycopy(section, 0, out, at, section.length);
        System.arraycopy(f, at + 1, out, at + section.length, f.length - at - 1);
        putInt(out, 0, out.length - 4);
        return out;
    }

    /** Recomputes a batch's CRC-32C (attributes to the end of the batch) so the broker's CRC check passes. */
    static void rewriteCrc(byte[] f, SampleRequest sample) {
        CRC32C crc = new CRC32C();
        int from = sample.batchOffset() + ATTRIBUTES_OFFSET;
        crc.update(f, from, sample.batchOffset() + sample.batchLength() - from);
        putInt(f, sample.batchOffset() + CRC_OFFSET, (int) crc.getValue());
    }

    static int getInt(byte[] f, int at) {
        return ByteBuffer.wrap(f).getInt(at);
    }

    static short getShort(byte[] f, int at) {
        return ByteBuffer.wrap(f).getShort(at);
    }

    static void putInt(byte[] f, int at, int value) {
        ByteBuffer.wrap(f).putInt(at, value);
    }

    static void putShort(byte[] f, int at, short value) {
        ByteBuffer.wrap(f).putShort(at, value);
    }
}
