package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Handles one decoded request frame. Called on a request handler thread ({@link RequestHandlerPool}),
 * never on an event loop: it may block on the log or ZooKeeper, and completes the future later for
 * what waits on other requests (replication, long polls).
 */
public interface RequestHandler {

    /**
     * @param context the parsed header and connection
     * @param body    the request body after the header; valid until the returned future completes
     * @return the response; a failed future closes the connection
     */
    CompletableFuture<Response> handle(RequestContext context, ByteBuffer body);
}
