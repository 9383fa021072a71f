package io.tributary.broker.testing;

import io.tributary.broker.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Scheduler} driven by a {@link MockTime}: a task runs when the clock has reached its
 * due time, on the thread that advanced the clock (or called {@link #tick()}), never on its own.
 * Tasks due at the same time run in the order they were scheduled; a periodic task that fell
 * behind runs once for every period that elapsed.
 *
 * <p>A task that throws keeps its schedule (as the {@link Scheduler} contract says), but the
 * failure is not swallowed: {@link #tick()} rethrows it once every due task has run, so a test
 * never passes over a broken background task.
 */
public final class MockScheduler implements Scheduler {

    private final MockTime time;
    private final PriorityQueue<MockTask> queue = new PriorityQueue<>(
        Comparator.comparingLong((MockTask t) -> t.nextRunMs).thenComparingLong(t -> t.sequence));
    private long sequence;
    private boolean ticking;

    public MockScheduler(MockTime time) {
        this.time = time;
        time.addListener(this::tick);
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs) {
        MockTask t = new MockTask(name, task, time.milliseconds() + Math.max(0, delayMs), periodMs, sequence++);
        queue.add(t);
        return t;
    }

    /**
     * Runs every task due at the current time (including tasks that those tasks schedule for now).
     *
     * @throws AssertionError if a task threw, with the first failure as its cause
     */
    public void tick() {
        synchronized (this) {
            if (ticking) {
                return;
            }
            ticking = true;
        }
        List<Throwable> failures = new ArrayList<>();
        try {
            while (true) {
                MockTask next;
                synchronized (this) {
                    next = queue.peek();
                    if (next == null || next.nextRunMs > time.milliseconds()) {
                        break;
                    }
                    queue.poll();
                }
                if (next.cancelled) {
                    continue;
                }
                try {
                    next.task.run();
                } catch (Throwable t) {
                    failures.add(new AssertionError("Scheduled task '" + next.name + "' failed: " + t, t));
                }
                next.runs++;
                synchronized (this) {
                    if (next.periodMs > 0 && !next.cancelled) {
                        next.nextRunMs += next.periodMs;
                        queue.add(next);
                    }
                }
            }
        } finally {
            synchronized (this) {
                ticking = false;
            }
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " scheduled task(s) failed", failures.get(0));
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }

    /** When the soonest task that is not cancelled is due, ms on the mock clock; empty when none is. */
    public synchronized OptionalLong nextRunMs() {
        return queue.stream().filter(t -> !t.cancelled).mapToLong(t -> t.nextRunMs).min();
    }

    /** Names of the tasks waiting to run, soonest first. */
    public synchronized List<String> pendingTaskNames() {
        List<MockTask> tasks = new ArrayList<>(queue);
        tasks.sort(queue.comparator());
        List<String> names = new ArrayList<>();
        for (MockTask t : tasks) {
            if (!t.cancelled) {
                names.add(t.name);
            }
        }
        return names;
    }

    @Override
    public synchronized void shutdown() {
        queue.forEach(t -> t.cancelled = true);
        queue.clear();
    }

    private final class MockTask implements ScheduledFuture<Void> {
        final String name;
        final Runnable task;
        final long periodMs;
        final long sequence;
        volatile long nextRunMs;
        volatile boolean cancelled;
        volatile int runs;

        MockTask(String name, Runnable task, long nextRunMs, long periodMs, long sequence) {
            this.name = name;
            this.task = task;
            this.nextRunMs = nextRunMs;
            this.periodMs = periodMs;
            this.sequence = sequence;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(nextRunMs - time.milliseconds(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.MILLISECONDS), other.getDelay(TimeUnit.MILLISECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean wasPending = !isDone();
            cancelled = true;
            return wasPending;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled || (periodMs <= 0 && runs > 0);
        }

        @Override
        public Void get() {
            return null;
        }

        @Override
        public Void get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
