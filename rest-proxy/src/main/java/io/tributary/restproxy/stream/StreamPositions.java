package io.tributary.restproxy.stream;

import io.tributary.restproxy.error.InvalidArgumentException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The positions of a record stream: for each partition, the offset of the next record to send.
 * Written as the SSE event id {@code partition:offset,partition:offset,...} (e.g. {@code 0:17,1:4}),
 * so a client that reconnects with {@code Last-Event-ID} resumes right after the last event it got,
 * on every partition. Not thread-safe: owned by one stream.
 */
final class StreamPositions {

    private final TreeMap<Integer, Long> next = new TreeMap<>();

    /**
     * Parses a {@code Last-Event-ID}.
     *
     * @throws InvalidArgumentException when it is not of this form
     */
    static StreamPositions parse(String eventId) {
        StreamPositions positions = new StreamPositions();
        if (eventId == null || eventId.isBlank()) {
            return positions;
        }
        try {
            for (String part : eventId.trim().split(",")) {
                int colon = part.indexOf(':');
                int partition = Integer.parseInt(part.substring(0, colon).trim());
                long offset = Long.parseLong(part.substring(colon + 1).trim());
                if (partition < 0 || offset < 0) {
                    throw new NumberFormatException(part);
                }
                positions.next.put(partition, offset);
            }
        } catch (RuntimeException e) {
            throw new InvalidArgumentException("Last-Event-ID '" + eventId + "' is not partition:offset[,...]");
        }
        return positions;
    }

    /** The next offset of {@code partition}, or null when unknown. */
    Long get(int partition) {
        return next.get(partition);
    }

    void put(int partition, long nextOffset) {
        next.put(partition, nextOffset);
    }

    Map<Integer, Long> asMap() {
        return next;
    }

    /** The event id for the current positions. */
    String eventId() {
        StringBuilder id = new StringBuilder();
        next.forEach((partition, offset) -> id.append(id.isEmpty() ? "" : ",").append(partition).append(':')
            .append(offset));
        return id.toString();
    }
}
