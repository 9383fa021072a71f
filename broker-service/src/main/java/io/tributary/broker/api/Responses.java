package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/** Builds network responses from the library's response objects. */
final class Responses {

    private Responses() {
    }

    /**
     * {@code response} for the request's api version, with its response header; serialized once the
     * request-time quota has set its throttle time ({@link RequestTimeQuota}).
     */
    static Response of(RequestContext context, AbstractResponse response) {
        return new Response.Unserialized(response, context.responseHeader(), context.apiVersion());
    }

    static CompletableFuture<Response> completed(RequestContext context, AbstractResponse response) {
        return CompletableFuture.completedFuture(of(context, response));
    }

    /**
     * The request's own error response (its {@code getErrorResponse}) for a principal denied an
     * operation on the cluster, as Kafka's {@code AuthHelper.authorizeClusterOperation} answers.
     */
    static CompletableFuture<Response> clusterAuthorizationFailed(RequestContext context, AbstractRequest request) {
        return completed(context, request.getErrorResponse(0, new ClusterAuthorizationException("Request "
            + context.apiKey().name + " from " + context.principal() + " is not authorized.")));
    }
}
