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
 * <p>Thread-safe. A request that throws is logged; its connection's handler sees the failure
 * through the request's own future, which the request completes.
 */
public final class RequestHandlerPool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RequestHandlerPool.class);
    private static final long POLL_MS = 300;

    private final RequestChannel channel;
    private final List<Thread> threads = new ArrayList<>();
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
        for (int i = 1; i <= numThreads; i++) {
            Thread t = new Thread(this::run, namePrefix + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void run() {
        while (true) {
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

    /**
     * Stops taking new requests, lets the threads finish the queued ones, and waits for them up to
     * {@code timeoutMs}; threads still busy then are interrupted.
     */
    public void shutdown(long timeoutMs) {
        channel.close();
        stopping = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Thread t : threads) {
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
    public void close() {
        channel.close();
        stopping = true;
        threads.forEach(Thread::interrupt);
    }
}
