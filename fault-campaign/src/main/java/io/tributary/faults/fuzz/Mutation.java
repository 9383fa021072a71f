package io.tributary.faults.fuzz;

/**
 * What {@link FrameMutator} does to a valid request frame. The frame-level ones apply to every request; the
 * {@code BATCH_*} ones to the first record batch of a Produce request (v2 layout: base offset 0, batch length 8,
 * leader epoch 12, magic 16, CRC 17, attributes 21, ..., record count 57, records from 61; the CRC-32C covers
 * attributes to the end).
 */
public enum Mutation {
    /** The frame as built: a control that the broker answers. */
    NONE,
    /** The size prefix says fewer bytes than follow: the rest is read as the start of another frame. */
    LENGTH_SHORT,
    /** The size prefix says more bytes than follow: the broker waits for them (the sender then hangs up). */
    LENGTH_LONG,
    /** A negative size prefix. */
    LENGTH_NEGATIVE,
    /** A size prefix far above {@code socket.request.max.bytes}. */
    LENGTH_HUGE,
    /** A version outside the API's advertised range (below, above, negative). */
    VERSION_OUT_OF_RANGE,
    /** An api key no Kafka version defines. */
    UNKNOWN_API_KEY,
    /** The header's client id length (int16) replaced: negative, past the frame, off by a few. */
    CLIENT_ID_LENGTH,
    /** A tagged-field section (the header's or the body's last) replaced by a huge count or an oversized field. */
    TAGGED_FIELDS,
    /** The frame cut short at a random point, its size prefix telling the truth. */
    TRUNCATE,
    /** One to eight random bits flipped after the size prefix. */
    BIT_FLIPS,
    /** The batch's magic byte replaced. */
    BATCH_MAGIC,
    /** The batch's CRC corrupted. */
    BATCH_CRC,
    /** The batch's length field replaced (negative, huge, off by a few). */
    BATCH_LENGTH,
    /** The batch's record count replaced, the CRC recomputed so that validation looks further. */
    BATCH_RECORD_COUNT,
    /** The batch's attributes (compression codec bits, transactional, control) replaced, CRC recomputed. */
    BATCH_ATTRIBUTES,
    /** Bytes of the (compressed) records corrupted, CRC recomputed so the broker has to decompress them. */
    COMPRESSED_PAYLOAD;

    /** Whether this mutation needs a record batch in the frame. */
    public boolean needsBatch() {
        return name().startsWith("BATCH_") || this == COMPRESSED_PAYLOAD;
    }
}
