package io.tributary.broker.network;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request handler threads ({@code num.io.threads}, Kafka's {@code KafkaRequestHandlerPool}):
 * each takes requests from the {@link RequestChannel} and runs them. A request that waits for
 * something (acks=all replication, a long-poll fetch, a rebalance) returns a future and frees its
 * thread; what it does before that (append, fsync, read, ZooKeeper call) may block this thread,
 * never an event loop.
 *
 * <p>The pool can be resized while it runs ({@link #resize}, the dynamic {@code num.io.threads}):
 * new threads start at once; a thread no longer wanted stops after the request it runs.
 *
 * <p>Thread-safe. A request that throws is logged; its connection's handler sees the failure
 * through the request's own future, which the request completes.
 */
public final class RequestHandlerPool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RequestHandlerPool.class);
    private static final long POLL_MS = 300;

    private final RequestChannel channel;
    private final String namePrefix;
    /** The threads by number from 1; guarded by {@code this}. A stopped thread's slot is null. */
    private final List<Thread> threads = new ArrayList<>();
    private volatile int size;
    private volatile boolean stopping;

    /**
     * Starts the threads.
     *
     * @param channel    the queue the threads take requests from
     * @param numThreads handler threads ({@code num.io.threads})
     * @param namePrefix thread names are the prefix followed by a number from 1
     */
    public RequestHandlerPool(RequestChannel channel, int numThreads, String namePrefix) {
        if (numThreads <= 0) {
            throw new IllegalArgumentException("num.io.threads must be positive, was " + numThreads);
        }
        this.channel = channel;
        this.namePrefix = namePrefix;
        resize(numThreads);
    }

    /**
     * Sets the number of threads: starts the missing ones, and has those numbered above
     * {@code numThreads} stop once their current request (if any) is done. Kafka's
     * {@code KafkaRequestHandlerPool.resizeThreadPool}; the bounds (at least half, at most double)
     * are checked where the setting is validated.
     *
     * @throws IllegalArgumentException {@code numThreads} below 1
     */
    public synchronized void resize(int numThreads) {
        if (numThreads <= 0) {
            throw new IllegalArgumentException("num.io.threads must be positive, was " + numThreads);
        }
        if (stopping || numThreads == size) {
            return;
        }
        int previous = size;
        size = numThreads;
        for (int number = 1; number <= numThreads; number++) {
            if (threads.size() < number) {
                threads.add(null);
            }
            Thread existing = threads.get(number - 1);
            if (existing == null || !existing.isAlive()) {
                int own = number;
                Thread t = new Thread(() -> run(own), namePrefix + number);
                t.setDaemon(true);
                threads.set(number - 1, t);
                t.start();
            }
        }
        if (previous != 0) {
            log.info("Request handler threads resized from {} to {}", previous, numThreads);
        }
    }

    /** The number of threads wanted now (the threads above it may still finish a request). */
    public int size() {
        return size;
    }

    private void run(int number) {
        while (true) {
            if (number > size && retired(number)) {
                return;
            }
            Runnable request;
            try {
                request = channel.poll(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (request == null) {
                if (stopping) {
                    return;
                }
                continue;
            }
            try {
                request.run();
            } catch (RuntimeException | Error e) {
                log.error("Request handler {} failed", Thread.currentThread().getName(), e);
            }
        }
    }

    /** Frees the slot of a thread numbered above the pool's size, unless the pool grew again meanwhile. */
    private synchronized boolean retired(int number) {
        if (number <= size) {
            return false;
        }
        threads.set(number - 1, null);
        return true;
    }

    /**
     * Stops taking new requests, lets the threads finish the queued ones, and waits for them up to
     * {@code timeoutMs}; threads still busy then are interrupted.
     */
    public void shutdown(long timeoutMs) {
        channel.close();
        List<Thread> running;
        synchronized (this) {
            stopping = true;
            running = threads.stream().filter(java.util.Objects::nonNull).toList();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Thread t : running) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close();
    }

    /** Stops at once: the threads are interrupted, queued requests are dropped (a crash). */
    @Override
    public synchronized void close() {
        channel.close();
        stopping = true;
        threads.stream().filter(java.util.Objects::nonNull).forEach(Thread::interrupt);
    }
}
