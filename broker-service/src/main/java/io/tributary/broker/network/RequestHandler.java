package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Handles one decoded request frame. {@link #handle} is called on a request handler thread
 * ({@link RequestHandlerPool}), never on an event loop: it may block on the log or ZooKeeper, and
 * completes the future later for what waits on other requests (replication, long polls). The event
 * loop first offers the request to {@link #handleWithoutBlocking}, which serves what it can without
 * blocking and saves the two thread hand-offs.
 */
public interface RequestHandler {

    /**
     * @param context the parsed header and connection
     * @param body    the request body after the header; valid until the returned future completes
     * @return the response; a failed future closes the connection
     */
    CompletableFuture<Response> handle(RequestContext context, ByteBuffer body);

    /**
     * Handles the request on the calling network thread if that can be done without blocking;
     * null, with {@code body} untouched and nothing changed, when it needs a request handler thread
     * ({@link #handle}). Must never block.
     *
     * @return the response, as {@link #handle}'s; or null
     */
    default CompletableFuture<Response> handleWithoutBlocking(RequestContext context, ByteBuffer body) {
        return null;
    }

    /**
     * A connection closed (by either side), after the requests it carried: what was kept for it may
     * go (Kafka's {@code ConnectionDisconnectListener}, e.g. share sessions). Called on the
     * connection's network thread: must never block.
     *
     * @param connectionId the {@link RequestContext#connectionId()} of its requests
     */
    default void connectionClosed(String connectionId) {
    }
}
