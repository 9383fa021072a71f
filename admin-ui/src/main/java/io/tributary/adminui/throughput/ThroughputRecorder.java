package io.tributary.adminui.throughput;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rate maths: per broker the last counters and when they were read; per scrape one cluster-wide
 * point (bytes in, bytes out, messages in per second, summed over the brokers that were read twice in a
 * row) into a ring buffer covering {@code window}. A counter that went down (the broker restarted)
 * counts as a reset: its new value is the increase since the restart, never a negative rate.
 * Thread-safe.
 */
public final class ThroughputRecorder {

    /** One point of the chart: rates per second at {@code time}. */
    public record Point(Instant time, double bytesIn, double bytesOut, double messagesIn) {
    }

    private record Sample(Instant time, Counters counters) {
    }

    private final Duration window;
    private final int capacity;
    private final Deque<Point> points = new ArrayDeque<>();
    private final Map<Integer, Sample> last = new HashMap<>();
    private Set<Integer> missing = Set.of();

    /** Keeps at most {@code window / interval} points (plus one), none older than {@code window}. */
    public ThroughputRecorder(Duration window, Duration interval) {
        this.window = window;
        this.capacity = (int) (window.toMillis() / Math.max(1, interval.toMillis())) + 1;
    }

    /**
     * Records one scrape at {@code time}: the counters of the brokers that answered, and the ids of those
     * that did not. Adds a point when at least one broker that answered had answered the scrape before.
     */
    public synchronized void record(Instant time, Map<Integer, Counters> scraped, Set<Integer> failed) {
        double bytesIn = 0;
        double bytesOut = 0;
        double messagesIn = 0;
        boolean any = false;
        for (Map.Entry<Integer, Counters> e : scraped.entrySet()) {
            Sample before = last.get(e.getKey());
            Counters now = e.getValue();
            if (before != null && time.isAfter(before.time())) {
                double seconds = Duration.between(before.time(), time).toNanos() / 1e9;
                bytesIn += increase(before.counters().bytesIn(), now.bytesIn()) / seconds;
                bytesOut += increase(before.counters().bytesOut(), now.bytesOut()) / seconds;
                messagesIn += increase(before.counters().messagesIn(), now.messagesIn()) / seconds;
                any = true;
            }
        }
        // A broker that failed or left the list starts over: its next rate must not span the gap.
        last.keySet().retainAll(scraped.keySet());
        scraped.forEach((id, counters) -> last.put(id, new Sample(time, counters)));
        missing = Set.copyOf(failed);
        if (any) {
            points.addLast(new Point(time, bytesIn, bytesOut, messagesIn));
        }
        trim(time);
    }

    /** Forgets the last counters (scraping paused): the next scrape starts the rates over. */
    public synchronized void pause() {
        last.clear();
        missing = Set.of();
    }

    /** The points of the last {@code window} before {@code now}, oldest first. */
    public synchronized List<Point> points(Instant now) {
        trim(now);
        return new ArrayList<>(points);
    }

    /** Ids of the brokers the last scrape could not read, ascending. */
    public synchronized List<Integer> missingBrokers() {
        return List.copyOf(new TreeSet<>(missing));
    }

    private void trim(Instant now) {
        Instant oldest = now.minus(window);
        while (!points.isEmpty() && (points.size() > capacity || points.peekFirst().time().isBefore(oldest))) {
            points.removeFirst();
        }
    }

    private static double increase(double before, double now) {
        return now >= before ? now - before : now;
    }
}
