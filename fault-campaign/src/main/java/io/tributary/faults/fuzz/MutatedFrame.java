package io.tributary.faults.fuzz;

/**
 * Bytes to send for one fuzzed request.
 *
 * @param source   the valid request it came from
 * @param mutation what was changed
 * @param bytes    the bytes to write to the socket (size prefix included, possibly lying)
 * @param hangUp   true when the broker cannot answer (it waits for bytes that never come): the sender closes the
 *                 connection after writing instead of waiting for an answer
 */
public record MutatedFrame(SampleRequest source, Mutation mutation, byte[] bytes, boolean hangUp) {

    @Override
    public String toString() {
        return mutation + " of " + source + " → " + bytes.length + " bytes" + (hangUp ? " (then hang up)" : "");
    }
}
