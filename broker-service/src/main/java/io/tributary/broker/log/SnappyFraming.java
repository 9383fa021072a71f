package io.tributary.broker.log;

import java.nio.ByteBuffer;

/**
 * Checks the sizes that snappy-java's {@code SnappyInputStream} would allocate for before it decompresses a
 * batch's records, since it trusts them: a corrupt chunk length or uncompressed length makes it allocate up to
 * 2 GiB at once, an OutOfMemoryError on the request handler thread (found by issue 21's fuzzer, seed 1).
 *
 * <p>The stream format (snappy-java's framing, as Kafka's producers write it): an optional 16-byte header (the magic
 * {@code 0x82 "SNAPPY" 0x00}, then two int32 versions), then chunks, each an int32 big-endian compressed length and
 * that many bytes of a raw snappy block; the header may repeat where a chunk would start (concatenated streams).
 * Without the header the whole payload is one raw block. A raw block starts with its uncompressed length as an
 * unsigned varint; since no snappy element expands more than 64 bytes out of 3 (a 2-byte-offset copy), an
 * uncompressed length above {@value #MAX_EXPANSION} times the block's size cannot be genuine.
 *
 * <p>Stateless; thread-safe.
 */
final class SnappyFraming {

    /** Upper bound of a raw snappy block's uncompressed size over its compressed size (64 / 3, rounded up). */
    static final int MAX_EXPANSION = 22;

    private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int HEADER_BYTES = MAGIC.length + 4 + 4;

    private SnappyFraming() {
    }

    /**
     * @param payload a batch's compressed records (from its position to its limit; not modified)
     * @return null when every size is plausible, else what is wrong
     */
    static String problem(ByteBuffer payload) {
        ByteBuffer in = payload.duplicate();
        if (!startsWithMagic(in)) {
            return blockProblem(in, in.remaining(), "the raw block");
        }
        int chunk = 0;
        while (in.hasRemaining()) {
            if (startsWithMagic(in)) {
                if (in.remaining() < HEADER_BYTES) {
                    return "snappy stream header cut short";
                }
                in.position(in.position() + HEADER_BYTES);
                continue;
            }
            if (in.remaining() < 4) {
                return "snappy chunk length cut short (" + in.remaining() + " bytes left)";
            }
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                return "snappy chunk " + chunk + " claims " + length + " bytes; " + in.remaining() + " remain";
            }
            String problem = blockProblem(in.slice(in.position(), length), length, "chunk " + chunk);
            if (problem != null) {
                return problem;
            }
            in.position(in.position() + length);
            chunk++;
        }
        return null;
    }

    private static boolean startsWithMagic(ByteBuffer in) {
        if (in.remaining() < MAGIC.length) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (in.get(in.position() + i) != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** The uncompressed length a raw block starts with, against its size. */
    private static String blockProblem(ByteBuffer block, int blockBytes, String which) {
        long uncompressed = 0;
        int shift = 0;
        ByteBuffer in = block.duplicate();
        while (true) {
            if (!in.hasRemaining() || shift > 28) {
                return "snappy " + which + " has no valid uncompressed length";
            }
            byte b = in.get();
            uncompressed |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        if (uncompressed > (long) MAX_EXPANSION * blockBytes) {
            return "snappy " + which + " of " + blockBytes + " bytes claims " + uncompressed
                + " uncompressed bytes, more than any snappy block of its size holds";
        }
        return null;
    }
}
