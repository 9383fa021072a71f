package io.tributary.broker.network;

/**
 * Where a connection hands its requests to be run off the event loop: the {@link RequestChannel}
 * in a broker (tests run them in place). Never blocks.
 */
interface RequestQueue {

    /**
     * Queues a request.
     *
     * @return false when there is no room: the caller keeps the request, stops reading, and offers it
     *         again after {@link #whenSpace} calls back
     */
    boolean offer(Runnable request);

    /**
     * Calls {@code waiter}, on whatever thread made room, once there may be room for a request; the
     * waiter only hands off to the connection's event loop.
     */
    void whenSpace(Runnable waiter);
}
