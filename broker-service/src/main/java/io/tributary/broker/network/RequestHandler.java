package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Handles one decoded request frame. Called on the connection's event loop thread; must not
 * block (hand blocking work to another thread and complete the future later).
 */
public interface RequestHandler {

    /**
     * @param context the parsed header and connection
     * @param body    the request body after the header; valid until the returned future completes
     * @return the response; a failed future closes the connection
     */
    CompletableFuture<Response> handle(RequestContext context, ByteBuffer body);
}
