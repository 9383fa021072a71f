package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.requests.AbstractResponse;

/** Builds network responses from the library's response objects. */
final class Responses {

    private Responses() {
    }

    /** Serializes {@code response} for the request's api version, with its response header. */
    static Response of(RequestContext context, AbstractResponse response) {
        return Response.send(response.toSend(context.responseHeader(), context.apiVersion()));
    }

    static CompletableFuture<Response> completed(RequestContext context, AbstractResponse response) {
        return CompletableFuture.completedFuture(of(context, response));
    }
}
