package io.tributary.broker.scheduler;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link Scheduler} on a small pool of daemon threads named {@code <prefix>-N}. Thread-safe. */
public final class DefaultScheduler implements Scheduler {

    private static final Logger log = LoggerFactory.getLogger(DefaultScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    /**
     * @param threads      pool size
     * @param threadPrefix prefix of thread names
     */
    public DefaultScheduler(int threads, String threadPrefix) {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, threadPrefix + "-" + counter.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        executor = new ScheduledThreadPoolExecutor(threads, factory);
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    @Override
    public ScheduledFuture<?> schedule(String name, Runnable task, long delayMs, long periodMs) {
        Runnable logged = () -> {
            try {
                task.run();
            } catch (Throwable t) {
                log.error("Scheduled task '{}' failed", name, t);
            }
        };
        if (periodMs > 0) {
            return executor.scheduleWithFixedDelay(logged, delayMs, periodMs, TimeUnit.MILLISECONDS);
        }
        return executor.schedule(logged, delayMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Sets the pool size while the broker runs (the dynamic {@code background.threads}); threads
     * above the new size end when idle.
     *
     * @throws IllegalArgumentException {@code threads} below 1
     */
    public void resize(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("background.threads must be positive, was " + threads);
        }
        if (threads != executor.getCorePoolSize()) {
            log.info("Background threads resized from {} to {}", executor.getCorePoolSize(), threads);
            executor.setCorePoolSize(threads);
        }
    }

    /** The pool size. */
    public int size() {
        return executor.getCorePoolSize();
    }

    @Override
    public void shutdown() throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            log.warn("Scheduler tasks still running after 30 s; interrupting them");
            executor.shutdownNow();
        }
    }
}
