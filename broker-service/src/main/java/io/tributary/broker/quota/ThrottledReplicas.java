package io.tributary.broker.quota;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The value of a topic's {@code leader.replication.throttled.replicas} or
 * {@code follower.replication.throttled.replicas}, as Kafka reads it: empty (none), {@code *}
 * (every replica), or {@code partition:broker} pairs separated by commas, as
 * {@code kafka-reassign-partitions --throttle} writes them. A malformed pair is ignored. Thread-safe;
 * parsed values are cached by text.
 */
public final class ThrottledReplicas {

    private static final ConcurrentHashMap<String, long[]> PARSED = new ConcurrentHashMap<>();
    private static final long[] ALL = new long[0];
    private static final int MAX_CACHED = 1024;

    private ThrottledReplicas() {
    }

    /** Whether {@code value} throttles the replica of {@code partition} on {@code brokerId}. */
    public static boolean throttles(String value, int partition, int brokerId) {
        if (value == null || value.isBlank()) {
            return false;
        }
        if (PARSED.size() > MAX_CACHED) {
            PARSED.clear(); // reassignments write new values; old ones are not kept forever
        }
        long[] pairs = PARSED.computeIfAbsent(value.trim(), ThrottledReplicas::parse);
        if (pairs == ALL) {
            return true;
        }
        long wanted = pair(partition, brokerId);
        for (long p : pairs) {
            if (p == wanted) {
                return true;
            }
        }
        return false;
    }

    private static long pair(int partition, int brokerId) {
        return ((long) partition << 32) | (brokerId & 0xffffffffL);
    }

    private static long[] parse(String value) {
        if (value.equals("*")) {
            return ALL;
        }
        return java.util.Arrays.stream(value.split(",")).map(String::trim).map(s -> s.split(":"))
            .filter(p -> p.length == 2).flatMapToLong(p -> {
                try {
                    return java.util.stream.LongStream.of(pair(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim())));
                } catch (NumberFormatException e) {
                    return java.util.stream.LongStream.empty();
                }
            }).toArray();
    }
}
