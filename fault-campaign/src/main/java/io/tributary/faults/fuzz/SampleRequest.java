package io.tributary.faults.fuzz;

import org.apache.kafka.common.protocol.ApiKeys;

/**
 * One valid request frame as a client sends it: the 4-byte big-endian size, the request header and the body.
 * For a Produce request, {@code batchOffset} is where its first record batch starts within {@code frame} and
 * {@code batchLength} its length in bytes (v2 batch format); both are -1 for other requests.
 *
 * @param apiKey      the request's API
 * @param version     its version
 * @param frame       the whole frame, size prefix included; callers must not modify it (mutators copy it)
 * @param batchOffset offset of the first record batch in {@code frame}, or -1
 * @param batchLength length of that batch, bytes, or -1
 */
public record SampleRequest(ApiKeys apiKey, short version, byte[] frame, int batchOffset, int batchLength) {

    /** Byte offset of the request header's api key, after the size prefix. */
    public static final int HEADER_OFFSET = 4;

    /** Whether this request carries a record batch that the batch mutations can change. */
    public boolean hasBatch() {
        return batchOffset >= 0;
    }

    /** Offset of the header's client id length (int16) in {@link #frame}: after api key, version, correlation id. */
    public static int clientIdLengthOffset() {
        return HEADER_OFFSET + 2 + 2 + 4;
    }

    @Override
    public String toString() {
        return apiKey + " v" + version + " (" + frame.length + " bytes" + (hasBatch() ? ", batch at " + batchOffset : "")
                + ")";
    }
}
