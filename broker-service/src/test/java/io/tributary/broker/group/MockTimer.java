package io.tributary.broker.group;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The group coordinator's timer on a {@link MockTime}: its join, sync and session timeouts run
 * when the test advances the clock past them, on the advancing thread (through a
 * {@link MockScheduler}), so tests of those timeouts do not wait for real time. A task due now
 * runs at the next advance, {@code time.advance(0)} included.
 */
final class MockTimer extends AbstractExecutorService implements ScheduledExecutorService {

    private final MockScheduler scheduler;
    private volatile boolean shutdown;

    MockTimer(MockTime time) {
        this.scheduler = new MockScheduler(time);
    }

    /** When the soonest pending timer is due, ms on the mock clock; empty when none is. */
    OptionalLong nextDueMs() {
        return scheduler.nextRunMs();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return scheduler.schedule("group-timer", command, unit.toMillis(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return scheduler.schedule("group-timer", command, unit.toMillis(initialDelay), unit.toMillis(delay));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return scheduleWithFixedDelay(command, initialDelay, period, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the coordinator schedules Runnables only");
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public void shutdown() {
        shutdown = true;
        scheduler.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }
}
