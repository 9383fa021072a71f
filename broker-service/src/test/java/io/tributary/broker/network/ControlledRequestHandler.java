package io.tributary.broker.network;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataResponse;

/**
 * A {@link RequestHandler} whose answers the test gives: every call is recorded and gets the
 * future {@link #answer(int) registered} for its correlation id, or a new pending one that the
 * test completes later, in any order. The body of each call is copied, since the network layer
 * releases the frame once the response is written.
 *
 * <p>Confined to the test thread, which is the embedded channel's event loop.
 */
final class ControlledRequestHandler implements RequestHandler {

    /** One request the handler was given. */
    record Call(RequestContext context, ByteBuffer body, CompletableFuture<Response> future) {

        int correlationId() {
            return context.correlationId();
        }

        /** Answers with a small, valid response for the request's api (ApiVersions or Metadata). */
        void respond() {
            future.complete(okResponse(context));
        }
    }

    private final List<Call> calls = new ArrayList<>();
    private final List<String> closedConnections = new ArrayList<>();
    private final Map<Integer, CompletableFuture<Response>> futures = new HashMap<>();
    private Consumer<Call> onCall = call -> { };
    private Throwable toThrow;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, ByteBuffer body) {
        ByteBuffer copy = ByteBuffer.allocate(body.remaining()).put(body.duplicate()).flip();
        CompletableFuture<Response> future = futures.computeIfAbsent(context.correlationId(),
            id -> new CompletableFuture<>());
        Call call = new Call(context, copy, future);
        calls.add(call);
        onCall.accept(call);
        if (toThrow instanceof RuntimeException e) {
            throw e;
        }
        if (toThrow instanceof Error e) {
            throw e;
        }
        return future;
    }

    /**
     * The future the request with {@code correlationId} gets when it is dispatched, created now so
     * the test can complete it before the request reaches the handler.
     */
    CompletableFuture<Response> answer(int correlationId) {
        return futures.computeIfAbsent(correlationId, id -> new CompletableFuture<>());
    }

    /** Runs {@code action} on each call, when the handler is given the request. */
    void onCall(Consumer<Call> action) {
        this.onCall = action;
    }

    /** Makes {@link #handle} throw {@code e} instead of returning a future. */
    void throwOnCall(RuntimeException e) {
        this.toThrow = e;
    }

    /** The next calls throw {@code e}, as a handler that runs out of memory does. */
    void throwErrorOnCall(Error e) {
        this.toThrow = e;
    }

    List<Call> calls() {
        return calls;
    }

    Call lastCall() {
        return calls.get(calls.size() - 1);
    }

    List<Integer> correlationIds() {
        return calls.stream().map(Call::correlationId).toList();
    }

    /** A response with no error for an ApiVersions or Metadata request, in its version's layout. */
    static Response okResponse(RequestContext context) {
        AbstractResponse response;
        if (context.apiKey() == ApiKeys.API_VERSIONS) {
            response = new ApiVersionsResponse(new ApiVersionsResponseData());
        } else if (context.apiKey() == ApiKeys.METADATA) {
            response = new MetadataResponse(new MetadataResponseData(), context.apiVersion());
        } else {
            throw new IllegalArgumentException("no canned response for " + context.apiKey());
        }
        return Response.send(response.toSend(context.responseHeader(), context.apiVersion()));
    }

    @Override
    public void connectionClosed(String connectionId) {
        closedConnections.add(connectionId);
    }

    /** The connection ids {@link #connectionClosed} was told of, in order. */
    List<String> closedConnections() {
        return closedConnections;
    }
}
