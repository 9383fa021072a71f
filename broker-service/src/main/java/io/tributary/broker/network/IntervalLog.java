package io.tributary.broker.network;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Time;

/**
 * Lets through at most one log line per key per interval, as {@code RefusedRequestLog} does for
 * refused requests, and counts the lines it holds back, so that a client reconnecting in a loop
 * cannot flood the log. Thread-safe; never blocks on anything but its own short lock.
 */
public final class IntervalLog {

    /** What {@link #allow} returns for a line to leave out. */
    public static final long SUPPRESS = -1;

    private final long intervalMs;
    private final Time time;
    private final Map<String, long[]> lastLoggedAndSuppressed = new HashMap<>();

    /**
     * @param intervalMs at least this long between two lines of one key, ms (0: every line)
     */
    public IntervalLog(long intervalMs, Time time) {
        this.intervalMs = intervalMs;
        this.time = time;
    }

    /**
     * Whether a line of {@code key} may be written now.
     *
     * @return {@link #SUPPRESS} to leave it out, else how many lines of the key were left out since the last one
     */
    public long allow(String key) {
        long now = time.milliseconds();
        synchronized (lastLoggedAndSuppressed) {
            long[] state = lastLoggedAndSuppressed.computeIfAbsent(key, k -> new long[] {Long.MIN_VALUE, 0});
            if (state[0] != Long.MIN_VALUE && now - state[0] < intervalMs) {
                state[1]++;
                return SUPPRESS;
            }
            long suppressed = state[1];
            state[0] = now;
            state[1] = 0;
            return suppressed;
        }
    }

    /** The tail of a line after {@code suppressed} others were left out: empty when none were. */
    public String more(long suppressed) {
        return suppressed <= 0 ? "" : " (" + suppressed + " more like it not logged in the last " + intervalMs + " ms)";
    }
}
