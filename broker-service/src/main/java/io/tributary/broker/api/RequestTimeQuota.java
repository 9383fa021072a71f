package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaManager;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.ProduceRequest;

/**
 * The request-time quota (KIP-124, {@code request_percentage}) applied to a handled request, as
 * Kafka's {@code RequestHandlerHelper.sendResponseMaybeThrottle}: the request handler time the
 * request took is recorded for its user and client id; when that puts the client over its quota,
 * the response carries the longer of that throttle time and the one a byte-rate quota already set
 * ({@code throttle_time_ms}), and the connection is muted for as long ({@link Response.Throttled}).
 * Then the response is serialized.
 *
 * <p>Exempt, as in Kafka, with their time recorded as {@code exempt-request-time}: requests between
 * brokers (APIs Kafka marks cluster actions, such as WriteTxnMarkers), follower fetches, and
 * Produce with acks=0 (there is no answer to carry a throttle time).
 *
 * <p>Thread-safe; runs on the thread that completes the request.
 */
final class RequestTimeQuota {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RequestTimeQuota.class);

    /** No request quota: responses are only serialized. */
    static final RequestTimeQuota NONE = new RequestTimeQuota(null);

    private final ClientQuotaManager quota;

    /** @param quota the {@code request_percentage} quota manager, or null for none */
    RequestTimeQuota(ClientQuotaManager quota) {
        this.quota = quota;
    }

    /**
     * Records {@code threadNanos} and returns the response to write: serialized, with the throttle
     * time set, and wrapped in {@link Response.Throttled} when the client must wait.
     *
     * @param request     the parsed request, or null when it could not be parsed
     * @param threadNanos request handler (or network) thread time the request took, ns
     */
    Response complete(RequestContext context, AbstractRequest request, Response response, long threadNanos) {
        int throttleMs = 0;
        Response inner = response;
        if (response instanceof Response.Throttled throttled) {
            throttleMs = throttled.throttleMs();
            inner = throttled.response();
        }
        if (quota != null) {
            if (exempt(context, request, inner)) {
                quota.recordExemptRequestTime(threadNanos);
            } else {
                throttleMs = Math.max(throttleMs, quota.recordRequestTime(context.principal().getName(),
                    context.clientId(), threadNanos));
            }
        }
        if (inner instanceof Response.Unserialized unserialized) {
            if (throttleMs > unserialized.body().throttleTimeMs()) {
                unserialized.body().maybeSetThrottleTimeMs(throttleMs);
            }
            try {
                inner = Response.send(unserialized.toSend());
            } catch (RuntimeException e) {
                log.error("Could not serialize the {} v{} response to client {}", context.apiKey(), context.apiVersion(),
                    context.clientId(), e);
                return Response.close("the " + context.apiKey() + " response could not be serialized: " + e);
            }
        }
        return throttleMs > 0 ? new Response.Throttled(inner, throttleMs) : inner;
    }

    private static boolean exempt(RequestContext context, AbstractRequest request, Response response) {
        return context.apiKey().clusterAction
            || (request instanceof FetchRequest fetch && fetch.isFromFollower())
            || (request instanceof ProduceRequest produce && produce.acks() == 0)
            || !(response instanceof Response.Unserialized || response instanceof Response.SendResponse);
    }
}
