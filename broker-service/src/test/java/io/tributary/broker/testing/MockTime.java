package io.tributary.broker.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Time;

/**
 * A clock that moves only when a test moves it. {@link #sleep(long)} and {@link #advance(long)}
 * move it forward and then notify the listeners (a {@link MockScheduler} runs the tasks that
 * became due), so tests of retention, expiry and rolling by age never wait for real time.
 */
public final class MockTime implements Time {

    /** A fixed, realistic start time (2023-11-14T22:13:20Z) so record timestamps look like real ones. */
    public static final long DEFAULT_START_MS = 1_700_000_000_000L;

    private final AtomicLong timeMs;
    private final AtomicLong highResTimeNs;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public MockTime() {
        this(DEFAULT_START_MS);
    }

    public MockTime(long startMs) {
        this.timeMs = new AtomicLong(startMs);
        this.highResTimeNs = new AtomicLong(TimeUnit.MILLISECONDS.toNanos(startMs));
    }

    @Override
    public long milliseconds() {
        return timeMs.get();
    }

    @Override
    public long nanoseconds() {
        return highResTimeNs.get();
    }

    @Override
    public long hiResClockMs() {
        return TimeUnit.NANOSECONDS.toMillis(nanoseconds());
    }

    /** Moves the clock forward instead of blocking. */
    @Override
    public void sleep(long ms) {
        advance(ms);
    }

    /** Moves the clock forward by {@code ms} and notifies the listeners. */
    public void advance(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("A mock clock does not go backwards: " + ms);
        }
        timeMs.addAndGet(ms);
        highResTimeNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
        listeners.forEach(Runnable::run);
    }

    /** Called after every advance of the clock. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }
}
