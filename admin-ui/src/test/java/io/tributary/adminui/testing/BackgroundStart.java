package io.tributary.adminui.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Something slow to start (a cluster of broker and proxy processes), started on a thread of its own
 * while the test goes on with other steps: on 2 cores a browser test leaves much of a core idle, so a
 * cluster started beside it costs little wall time. Starts are chained ({@link #then}) so that no more
 * than one runs in the background at a time. {@link #get()} waits for it; {@link #close()} waits for a
 * start still under way, then closes what it started.
 *
 * <p>Thread-safe. A start that failed is rethrown by {@link #get()} (as an {@link IllegalStateException}
 * with its cause) and closes nothing.
 *
 * @param <T> what is started
 */
public final class BackgroundStart<T extends AutoCloseable> implements AutoCloseable {

    /** Starts something; may throw whatever its start throws. */
    @FunctionalInterface
    public interface Starter<T> {
        T start() throws Exception;
    }

    private final String name;
    private final CompletableFuture<T> started = new CompletableFuture<>();

    private BackgroundStart(String name) {
        this.name = name;
    }

    /** Starts {@code starter} now on a daemon thread named {@code name}. */
    public static <T extends AutoCloseable> BackgroundStart<T> begin(String name, Starter<T> starter) {
        return begin(name, CompletableFuture.completedFuture(null), starter);
    }

    /** Starts {@code starter} on a daemon thread named {@code name} once this start has ended, well or not. */
    public <U extends AutoCloseable> BackgroundStart<U> then(String name, Starter<U> starter) {
        return begin(name, started, starter);
    }

    private static <T extends AutoCloseable> BackgroundStart<T> begin(String name, CompletableFuture<?> after,
            Starter<T> starter) {
        BackgroundStart<T> start = new BackgroundStart<>(name);
        Thread thread = new Thread(() -> {
            try {
                after.handle((value, failure) -> null).join();
                start.started.complete(starter.start());
            } catch (Throwable e) {
                start.started.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return start;
    }

    /** What was started, once it has; fails if the start failed. */
    public T get() {
        try {
            return started.join();
        } catch (CompletionException e) {
            throw new IllegalStateException("Starting the " + name + " failed", e.getCause());
        }
    }

    /** Waits for the start to end and closes what it started; a failed start has nothing to close. */
    @Override
    public void close() throws Exception {
        T value;
        try {
            value = started.join();
        } catch (CompletionException failed) {
            return;
        }
        value.close();
    }
}
