package io.tributary.broker.log;

import org.apache.kafka.common.utils.Time;

/**
 * Holds the callers of {@link #maybeThrottle} to a rate, as Kafka's {@code Throttler} holds the log
 * cleaner to {@code log.cleaner.io.max.bytes.per.second}: the amount observed is summed over periods
 * of at least {@code checkIntervalMs}; at the end of a period in which it went faster than the
 * desired rate, the caller sleeps until the period's average is the desired rate. All callers share
 * one throttler, and the caller that sleeps holds it, so the rate is that of all of them together.
 *
 * <p>Thread-safe. The desired rate can change at any time ({@link #updateDesiredRatePerSec}); a
 * sleep is cut short by {@link #wakeUp} (the cleaner stopping), within {@value #SLEEP_SLICE_MS} ms.
 */
final class Throttler {

    private static final long SLEEP_SLICE_MS = 100;

    private final long checkIntervalMs;
    private final java.util.concurrent.atomic.AtomicLong wakeUps = new java.util.concurrent.atomic.AtomicLong();
    private final Time time;
    private volatile double desiredRatePerSec;
    private long periodStartNs;
    private double observedSoFar;

    /**
     * @param desiredRatePerSec the rate to hold to, units per second ({@code Double.MAX_VALUE}: no limit)
     * @param checkIntervalMs   the shortest period measured, ms (Kafka's cleaner uses 300)
     */
    Throttler(double desiredRatePerSec, long checkIntervalMs, Time time) {
        this.desiredRatePerSec = desiredRatePerSec;
        this.checkIntervalMs = checkIntervalMs;
        this.time = time;
        this.periodStartNs = time.nanoseconds();
    }

    /**
     * Counts {@code observed} units (bytes) and, at the end of a period that went too fast, sleeps
     * on the calling thread.
     */
    synchronized void maybeThrottle(double observed) {
        double desired = desiredRatePerSec;
        if (desired >= Double.MAX_VALUE) {
            return;
        }
        observedSoFar += observed;
        long now = time.nanoseconds();
        long elapsedNs = now - periodStartNs;
        if (elapsedNs <= checkIntervalMs * 1_000_000L || observedSoFar <= 0) {
            return;
        }
        double elapsedMs = elapsedNs / 1_000_000.0;
        double rateInSecs = observedSoFar * 1_000.0 / elapsedMs;
        if (rateInSecs > desired) {
            long sleepMs = Math.round(observedSoFar / (desired / 1_000.0) - elapsedMs);
            long generation = wakeUps.get();
            while (sleepMs > 0 && generation == wakeUps.get()) {
                long slice = Math.min(sleepMs, SLEEP_SLICE_MS);
                time.sleep(slice);
                sleepMs -= slice;
            }
        }
        periodStartNs = time.nanoseconds();
        observedSoFar = 0;
    }

    /** Ends the sleeps under way (their callers return from {@link #maybeThrottle}). */
    void wakeUp() {
        wakeUps.incrementAndGet();
    }

    /** Sets the rate held to from the next period on, units per second. */
    void updateDesiredRatePerSec(double desiredRatePerSec) {
        this.desiredRatePerSec = desiredRatePerSec;
    }

    double desiredRatePerSec() {
        return desiredRatePerSec;
    }
}
