package io.tributary.faults.history;

import java.util.Comparator;
import java.util.List;

/**
 * The longest time a run's {@code acks=all} producers could not write, measured from the history alone.
 *
 * <p>Definition: take the completed sends of {@code acks=all} producers in order of completion time. A window is a
 * maximal run of consecutive such completions that are all {@link Outcome#FAIL} or {@link Outcome#INFO}. It starts at
 * the completion of the OK send before the run (or, if none, at the invocation of the run's first send) and ends at
 * the completion of the OK send after it (or, if none, at the completion of the run's last send). The unavailability
 * is the longest window, in nanoseconds; 0 if no send failed. Gaps between OK sends with no failure in between are
 * not windows: an idle producer is not an unavailable cluster. The workload sends continuously, so a window is at
 * most one send timeout longer than the outage the clients saw.
 */
public final class Unavailability {

    private Unavailability() {
    }

    /** The longest window, in nanoseconds, per the class's definition; 0 for a history without failed sends. */
    public static long longestNanos(History history) {
        List<Send> completions = history.sends().stream()
                .filter(Send::acksAll)
                .sorted(Comparator.comparingLong(Send::completedNanos))
                .toList();
        long longest = 0;
        Long lastOkNanos = null;
        Send firstFailure = null;
        Send lastFailure = null;
        for (Send send : completions) {
            if (send.outcome() == Outcome.OK) {
                if (firstFailure != null) {
                    long start = lastOkNanos != null ? lastOkNanos : firstFailure.invokedNanos();
                    longest = Math.max(longest, send.completedNanos() - start);
                    firstFailure = null;
                }
                lastOkNanos = send.completedNanos();
            } else {
                if (firstFailure == null) {
                    firstFailure = send;
                }
                lastFailure = send;
            }
        }
        if (firstFailure != null) {
            long start = lastOkNanos != null ? lastOkNanos : firstFailure.invokedNanos();
            longest = Math.max(longest, lastFailure.completedNanos() - start);
        }
        return longest;
    }
}
