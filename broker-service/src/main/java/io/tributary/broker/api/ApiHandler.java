package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;

/**
 * Handles one Kafka API: decodes nothing itself (the library's codec did), calls the domain
 * services, builds the response. Each handler declares the versions it serves; ApiVersions
 * advertises exactly those (never the library's latest), so a kafka-clients upgrade cannot
 * silently advertise what was never built.
 */
public interface ApiHandler {

    ApiKeys apiKey();

    /** Oldest version served. */
    short minVersion();

    /** Newest version served. */
    short maxVersion();

    /**
     * Oldest version advertised; below {@link #minVersion()} only where old clients need it
     * (KAFKA-18659), and those versions are answered with UNSUPPORTED_VERSION.
     */
    default short advertisedMinVersion() {
        return minVersion();
    }

    /**
     * Handles a parsed request, on a request handler thread ({@code num.io.threads}), never on a
     * network thread: it may block on the log, fsync or ZooKeeper, but should not wait for other
     * requests (replication, a long poll, a rebalance): those complete the returned future later.
     *
     * @return the response; may complete later (long polls, acks=all)
     */
    CompletableFuture<Response> handle(RequestContext context, AbstractRequest request);

    /** Whether {@link #handleWithoutBlocking} may answer; false spares parsing the request twice. */
    default boolean mayHandleWithoutBlocking() {
        return false;
    }

    /**
     * Handles a parsed request on a network thread, if that can be done without blocking: no
     * waiting for a lock, no fsync, no file read, no ZooKeeper call. Null when it cannot, with
     * nothing changed: the request then goes to {@link #handle} on a request handler thread.
     *
     * @return the response, as {@link #handle}'s; or null
     */
    default CompletableFuture<Response> handleWithoutBlocking(RequestContext context, AbstractRequest request) {
        return null;
    }

    /**
     * A client connection closed; see {@link io.tributary.broker.network.RequestHandler#connectionClosed}.
     * Called on a network thread: must never block.
     */
    default void connectionClosed(String connectionId) {
    }
}
