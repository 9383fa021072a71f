package io.tributary.broker.simulation;

import io.tributary.broker.testing.MockTime;
import java.util.PriorityQueue;

/**
 * The simulation's only source of progress: events ordered by simulated time, ties broken by
 * the order they were scheduled in, run one at a time on the test's thread. Running an event
 * first moves the {@link MockTime} to its time, so every {@code Time} reader (the partitions'
 * lag checks, the logs) sees the simulated clock.
 *
 * <p>Invariant: the clock never goes back; two runs that schedule the same events in the same
 * order run them in the same order. Not thread-safe (there is one thread).
 */
final class SimulatedEventQueue {

    /** One scheduled event; {@code description} goes into the trace and into failure messages. */
    record Event(long timeMs, long sequence, String description, Runnable action) {
    }

    private final MockTime time;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.timeMs != b.timeMs
        ? Long.compare(a.timeMs, b.timeMs) : Long.compare(a.sequence, b.sequence));
    private long nextSequence;

    SimulatedEventQueue(MockTime time) {
        this.time = time;
    }

    long nowMs() {
        return time.milliseconds();
    }

    /** Schedules {@code action} {@code delayMs} (at least 0) from now. */
    void schedule(long delayMs, String description, Runnable action) {
        events.add(new Event(nowMs() + Math.max(0, delayMs), nextSequence++, description, action));
    }

    boolean isEmpty() {
        return events.isEmpty();
    }

    /** Removes the next event and moves the clock to its time; the caller runs it. */
    Event next() {
        Event event = events.remove();
        long delta = event.timeMs - nowMs();
        if (delta > 0) {
            time.advance(delta);
        }
        return event;
    }
}
