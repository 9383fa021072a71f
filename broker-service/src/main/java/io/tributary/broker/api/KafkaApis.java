package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.IntervalLog;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.RequestHandler;
import io.tributary.broker.network.Response;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatches requests to the {@link ApiHandler} of their api key after checking the version
 * against the handler's served range.
 *
 * <p>An api this broker does not serve, or a version outside what it advertises, closes the
 * connection (there is no response layout to answer in), except ApiVersions, answered with
 * UNSUPPORTED_VERSION in the v0 layout so the client retries lower (KIP-511). A version that is
 * advertised but not served (Produce v0-2, KAFKA-18659) gets UNSUPPORTED_VERSION. A body the
 * codec cannot parse closes the connection. An exception from a handler becomes the request's
 * error response with the matching Kafka error code; one without a code (UNKNOWN_SERVER_ERROR) is
 * logged at ERROR, at most once per API and exception type per refused-request log interval, so a
 * client repeating a request that trips a bug cannot flood the log.
 *
 * <p>Every request that reaches a handler is counted and timed in {@link RequestMetrics}, until
 * its response is ready.
 *
 * <p>Thread-safe. Called on the request handler threads ({@code num.io.threads}), never on a
 * network thread: every handler may block on the log or ZooKeeper.
 */
public final class KafkaApis implements RequestHandler {

    private static final Logger log = LoggerFactory.getLogger(KafkaApis.class);

    private final Map<ApiKeys, ApiHandler> handlers = new EnumMap<>(ApiKeys.class);
    private final RefusedRequestLog refusals;
    private final RequestMetrics metrics;
    private final RequestTimeQuota requestQuota;
    private final IntervalLog failures;
    private final Time time;

    /** Dispatching without a request-time quota. */
    public KafkaApis(Collection<ApiHandler> handlers, RequestMetrics metrics, RefusedRequestLog refusals, Time time) {
        this(handlers, metrics, refusals, null, time);
    }

    /**
     * @param handlers     one handler per api served
     * @param metrics      request counts and times per API
     * @param refusals     where requests refused as unsupported or malformed are logged
     * @param requestQuota the {@code request_percentage} quota (KIP-124), or null for none
     * @param time         clock of the request times
     */
    public KafkaApis(Collection<ApiHandler> handlers, RequestMetrics metrics, RefusedRequestLog refusals,
                     io.tributary.broker.quota.ClientQuotaManager requestQuota, Time time) {
        this.requestQuota = requestQuota == null ? RequestTimeQuota.NONE : new RequestTimeQuota(requestQuota);
        this.metrics = metrics;
        this.refusals = refusals;
        this.failures = new IntervalLog(refusals.intervalMs(), time);
        this.time = time;
        for (ApiHandler h : handlers) {
            if (this.handlers.put(h.apiKey(), h) != null) {
                throw new IllegalArgumentException("Two handlers for " + h.apiKey());
            }
        }
    }

    /** Tells every handler (share sessions end with their connection, as in Kafka). Never blocks. */
    @Override
    public void connectionClosed(String connectionId) {
        for (ApiHandler h : handlers.values()) {
            try {
                h.connectionClosed(connectionId);
            } catch (RuntimeException e) {
                log.warn("Handler of {} failed on the close of connection {}", h.apiKey(), connectionId, e);
            }
        }
    }

    /** The handlers, for ApiVersions. */
    public Map<ApiKeys, ApiHandler> handlers() {
        return handlers;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, ByteBuffer body) {
        long startNanos = time.nanoseconds();
        ApiKeys apiKey = context.apiKey();
        short version = context.apiVersion();
        ApiHandler handler = handlers.get(apiKey);
        if (handler == null) {
            refusals.refused(RefusedRequestLog.Kind.UNSUPPORTED, context, "the API is not served by this broker;"
                + " the connection is closed");
            return CompletableFuture.completedFuture(Response.close("api " + apiKey + " is not served by this broker"));
        }
        if (version < handler.minVersion() || version > handler.maxVersion()) {
            String served = "served versions are " + handler.minVersion() + " to " + handler.maxVersion();
            if (apiKey == ApiKeys.API_VERSIONS) {
                refusals.refused(RefusedRequestLog.Kind.UNSUPPORTED, context, served + "; answered UNSUPPORTED_VERSION");
                return CompletableFuture.completedFuture(ApiVersionsHandler.unsupportedVersion(context, handlers.values()));
            }
            if (version >= handler.advertisedMinVersion() && version < handler.minVersion()) {
                refusals.refused(RefusedRequestLog.Kind.UNSUPPORTED, context, served + "; answered UNSUPPORTED_VERSION");
                return CompletableFuture.completedFuture(UnsupportedVersionResponses.of(context, body));
            }
            refusals.refused(RefusedRequestLog.Kind.UNSUPPORTED, context, served + "; the connection is closed");
            return CompletableFuture.completedFuture(Response.close(apiKey + " version " + version
                + " is outside the served range " + handler.minVersion() + ".." + handler.maxVersion()));
        }
        AbstractRequest request;
        try {
            request = AbstractRequest.parseRequest(apiKey, version, new ByteBufferAccessor(body)).request;
        } catch (RuntimeException e) {
            refusals.refused(RefusedRequestLog.Kind.MALFORMED, context, "the request could not be parsed ("
                + e.getMessage() + "); the connection is closed");
            return CompletableFuture.completedFuture(Response.close("malformed " + apiKey + " v" + version
                + " request: " + e.getMessage()));
        }
        CompletableFuture<Response> response = invoke(context, request, () -> handler.handle(context, request));
        long threadNanos = time.nanoseconds() - startNanos;
        String requestName = RequestMetrics.requestName(apiKey,
            request instanceof FetchRequest fetch && fetch.replicaId() >= 0);
        return response.thenApply(r -> requestQuota.complete(context, request, r, threadNanos))
            .whenComplete((r, e) -> metrics.record(requestName, version, time.nanoseconds() - startNanos));
    }

    /**
     * Handles the request on the calling network thread when its handler can without blocking
     * ({@link ApiHandler#handleWithoutBlocking}, today Produce); null otherwise, with {@code body}
     * untouched, and the request goes to {@link #handle} on a request handler thread. Counted and
     * timed as {@link #handle} does.
     */
    @Override
    public CompletableFuture<Response> handleWithoutBlocking(RequestContext context, ByteBuffer body) {
        long startNanos = time.nanoseconds();
        ApiKeys apiKey = context.apiKey();
        short version = context.apiVersion();
        ApiHandler handler = handlers.get(apiKey);
        if (handler == null || !handler.mayHandleWithoutBlocking() || version < handler.minVersion()
                || version > handler.maxVersion()) {
            return null;
        }
        AbstractRequest request;
        try {
            request = AbstractRequest.parseRequest(apiKey, version, new ByteBufferAccessor(body.duplicate())).request;
        } catch (RuntimeException e) {
            return null; // handle() answers it
        }
        CompletableFuture<Response> response = invoke(context, request,
            () -> handler.handleWithoutBlocking(context, request));
        if (response == null) {
            return null;
        }
        long threadNanos = time.nanoseconds() - startNanos;
        String requestName = RequestMetrics.requestName(apiKey, false);
        metrics.recordOnNetworkThread(requestName);
        return response.thenApply(r -> requestQuota.complete(context, request, r, threadNanos))
            .whenComplete((r, e) -> metrics.record(requestName, version, time.nanoseconds() - startNanos));
    }

    /**
     * Runs a handler's {@code call}: its exception or failed future becomes the request's error
     * response. Null when the call answers null (a request it leaves to a handler thread).
     */
    private CompletableFuture<Response> invoke(RequestContext context, AbstractRequest request,
                                                      Supplier<CompletableFuture<Response>> call) {
        CompletableFuture<Response> result;
        try {
            result = call.get();
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result == null ? null : result.exceptionally(e -> errorResponse(context, request, e));
    }

    private Response errorResponse(RequestContext context, AbstractRequest request, Throwable e) {
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        Errors error = Errors.forException(cause);
        if (error == Errors.UNKNOWN_SERVER_ERROR) {
            long suppressed = failures.allow(context.apiKey() + ":" + cause.getClass().getName());
            if (suppressed != IntervalLog.SUPPRESS) {
                log.error("Error handling {} v{} from client {} on {}{}", context.apiKey(), context.apiVersion(),
                    context.clientId(), context.connectionId(), failures.more(suppressed), cause);
            }
        } else {
            log.debug("{} from client {} failed with {}: {}", context.apiKey(), context.clientId(), error, cause.getMessage());
        }
        try {
            return Responses.of(context, request.getErrorResponse(0, cause));
        } catch (UnsupportedVersionException | IllegalStateException | UnsupportedOperationException ex) {
            return Response.close("no error response for " + context.apiKey() + ": " + cause);
        }
    }
}
