package io.tributary.broker.network;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The queue between the network threads and the request handler pool, as Kafka's
 * {@code RequestChannel}: a connection's handler offers each parsed request here, and a handler
 * thread of {@link RequestHandlerPool} takes it and runs it, so that nothing a request does (log
 * appends, fsync, index reads, ZooKeeper calls, waits on locks held across I/O) runs on a Netty
 * event loop.
 *
 * <p>At most {@code queued.max.requests} requests wait here. Where Kafka's network thread blocks on
 * a full queue, a connection whose offer is refused stops reading from its socket and registers
 * with {@link #whenSpace}: it is called back once a handler thread has taken a request, and offers
 * again from its own event loop. Since a connection has one request in flight at a time, the wait
 * costs nothing but the latency.
 *
 * <p>Thread-safe: offered from event loops, taken from handler threads. Offering never takes a lock
 * (a lock-free queue, a counted bound and a semaphore the handler threads wait on), so an event loop
 * never parks here.
 */
public final class RequestChannel implements RequestQueue {

    private final int capacity;
    private final Queue<Runnable> requests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Semaphore queued = new Semaphore(0);
    private final Queue<Runnable> waiters = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    /**
     * @param queuedMaxRequests requests that may wait for a handler thread ({@code queued.max.requests})
     */
    public RequestChannel(int queuedMaxRequests) {
        if (queuedMaxRequests <= 0) {
            throw new IllegalArgumentException("queued.max.requests must be positive, was " + queuedMaxRequests);
        }
        this.capacity = queuedMaxRequests;
    }

    /**
     * Queues a request for a handler thread; never blocks.
     *
     * @return false when the queue is full or closed: the caller keeps the request and waits for {@link #whenSpace}
     */
    @Override
    public boolean offer(Runnable request) {
        if (closed) {
            return false;
        }
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        requests.add(request);
        queued.release();
        return true;
    }

    /**
     * Calls {@code waiter} once there may be room for a request (at the latest after a handler thread
     * takes one). The waiter runs on the thread that made the room and must only hand off to the
     * connection's event loop; it may find the queue full again, and then offers and waits again.
     */
    @Override
    public void whenSpace(Runnable waiter) {
        waiters.add(waiter);
        // The queue may have drained between the refused offer and this registration: nobody else would call.
        if (!closed && size.get() < capacity) {
            wakeWaiters();
        }
    }

    /**
     * Takes the next request, waiting up to {@code timeoutMs}.
     *
     * @return the request, or null after the timeout
     * @throws InterruptedException when the handler thread is interrupted (the pool stops at once)
     */
    Runnable poll(long timeoutMs) throws InterruptedException {
        if (!queued.tryAcquire(timeoutMs, TimeUnit.MILLISECONDS)) {
            return null;
        }
        Runnable request = requests.poll(); // never null: each permit follows one add
        size.decrementAndGet();
        Runnable waiter = waiters.poll();
        if (waiter != null) {
            waiter.run();
        }
        return request;
    }

    private void wakeWaiters() {
        Runnable waiter;
        while (size.get() < capacity && (waiter = waiters.poll()) != null) {
            waiter.run();
        }
    }

    /** Requests waiting for a handler thread (Kafka's {@code RequestQueueSize}). */
    public int size() {
        return size.get();
    }

    /** Refuses every later offer; requests already queued are still taken. */
    void close() {
        closed = true;
    }
}
