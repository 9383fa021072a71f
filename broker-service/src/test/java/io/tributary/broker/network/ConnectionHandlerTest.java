package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionHandler} on a PLAINTEXT connection over an embedded channel, with a request
 * handler whose futures the test completes: pipelined requests are handled one at a time and
 * answered in request order whatever order their futures complete in, the next request is
 * dispatched only once the previous response is written; reading from the socket pauses while
 * more than 16 MiB of requests wait or while the client does not read its responses, and resumes
 * once drained; a failed or throwing handler, an unserializable response, {@code SendThenClose}
 * and {@code CloseConnection} close the connection and free the requests still queued, as the
 * idle timeout does.
 */
class ConnectionHandlerTest {

    /** ConnectionHandler's {@code MAX_QUEUED_BYTES}. */
    private static final int QUEUE_LIMIT_BYTES = 16 * 1024 * 1024;

    private final ControlledRequestHandler handler = new ControlledRequestHandler();
    private final EmbeddedConnection connection = EmbeddedConnection.plaintext(handler);

    private static ApiVersionsRequest apiVersions() {
        return new ApiVersionsRequest.Builder().build((short) 3);
    }

    private static MetadataRequest metadata() {
        return MetadataRequest.Builder.allTopics().build((short) 12);
    }

    @Test
    void pipelinedRequestsAreAnsweredInRequestOrder() {
        // The later requests' answers are ready first: the third's, then the second's, then the first's.
        handler.answer(3).complete(ControlledRequestHandler.okResponse(context(ApiKeys.METADATA, 3)));
        handler.answer(2).complete(ControlledRequestHandler.okResponse(context(ApiKeys.API_VERSIONS, 2)));

        List<Integer> ids = connection.sendPipelined(apiVersions(), apiVersions(), metadata());

        assertThat(ids).containsExactly(1, 2, 3);
        assertThat(handler.correlationIds()).containsExactly(1);
        assertThat(connection.responses()).isEmpty();

        handler.calls().get(0).respond();

        List<EmbeddedConnection.Received> responses = connection.responses();
        assertThat(responses).extracting(EmbeddedConnection.Received::correlationId).containsExactly(1, 2, 3);
        assertThat(responses).extracting(EmbeddedConnection.Received::apiKey)
            .containsExactly(ApiKeys.API_VERSIONS, ApiKeys.API_VERSIONS, ApiKeys.METADATA);
        assertThat(handler.correlationIds()).containsExactly(1, 2, 3);
    }

    /**
     * A request the handler serves without blocking is answered on the event loop and never offered
     * to the request handler threads; one it declines (null) goes to them, with its body untouched.
     */
    @Test
    void aRequestServedWithoutBlockingNeverReachesTheHandlerThreads() {
        List<Runnable> offered = new ArrayList<>();
        RequestQueue requests = new RequestQueue() {
            @Override
            public boolean offer(Runnable request) {
                offered.add(request);
                request.run();
                return true;
            }

            @Override
            public void whenSpace(Runnable waiter) {
            }
        };
        List<Integer> declinedBodySizes = new ArrayList<>();
        RequestHandler inlineForMetadata = new RequestHandler() {
            @Override
            public CompletableFuture<Response> handle(RequestContext context, java.nio.ByteBuffer body) {
                return handler.handle(context, body);
            }

            @Override
            public CompletableFuture<Response> handleWithoutBlocking(RequestContext context, java.nio.ByteBuffer body) {
                if (context.apiKey() != ApiKeys.METADATA) {
                    declinedBodySizes.add(body.remaining());
                    return null;
                }
                return CompletableFuture.completedFuture(ControlledRequestHandler.okResponse(context));
            }
        };
        EmbeddedConnection inline = EmbeddedConnection.plaintext(inlineForMetadata, requests);

        inline.sendPipelined(metadata(), apiVersions());

        assertThat(offered).as("only the declined ApiVersions went to a handler thread").hasSize(1);
        assertThat(handler.correlationIds()).containsExactly(2);
        assertThat(handler.calls().get(0).body().remaining()).isEqualTo(declinedBodySizes.get(0));
        handler.calls().get(0).respond();
        assertThat(inline.responses()).extracting(EmbeddedConnection.Received::apiKey)
            .containsExactly(ApiKeys.METADATA, ApiKeys.API_VERSIONS);
    }

    @Test
    void aFullRequestChannelPausesReadingUntilItHasRoomAgain() {
        java.util.concurrent.atomic.AtomicBoolean full = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Runnable> waiters = new ArrayList<>();
        RequestQueue requests = new RequestQueue() {
            @Override
            public boolean offer(Runnable request) {
                if (full.get()) {
                    return false;
                }
                request.run();
                return true;
            }

            @Override
            public void whenSpace(Runnable waiter) {
                waiters.add(waiter);
            }
        };
        EmbeddedConnection refused = EmbeddedConnection.plaintext(handler, requests);

        refused.send(apiVersions());

        assertThat(handler.correlationIds()).isEmpty();
        assertThat(refused.readsFromSocket()).isFalse();
        assertThat(waiters).hasSize(1);

        full.set(false);
        waiters.remove(0).run();
        refused.channel().runPendingTasks();

        assertThat(handler.correlationIds()).containsExactly(1);
        handler.calls().get(0).respond();
        assertThat(refused.responses()).extracting(EmbeddedConnection.Received::correlationId).containsExactly(1);
        assertThat(refused.readsFromSocket()).isTrue();
    }

    @Test
    void theNextRequestIsDispatchedOnlyAfterThePreviousResponseIsWritten() {
        List<Integer> answered = new ArrayList<>();
        Map<Integer, List<Integer>> answeredAtDispatch = new LinkedHashMap<>();
        handler.onCall(call -> {
            answered.addAll(connection.responseCorrelationIds());
            answeredAtDispatch.put(call.correlationId(), List.copyOf(answered));
        });

        connection.sendPipelined(apiVersions(), metadata(), apiVersions());
        assertThat(handler.correlationIds()).containsExactly(1);
        handler.calls().get(0).respond();
        assertThat(handler.correlationIds()).containsExactly(1, 2);
        handler.calls().get(1).respond();
        handler.calls().get(2).respond();
        answered.addAll(connection.responseCorrelationIds());

        assertThat(answeredAtDispatch).containsExactly(Map.entry(1, List.of()), Map.entry(2, List.of(1)),
            Map.entry(3, List.of(1, 2)));
        assertThat(answered).containsExactly(1, 2, 3);
    }

    @Test
    void aRequestWithoutResponseLetsTheNextOneThrough() {
        connection.sendPipelined(apiVersions(), apiVersions());

        handler.calls().get(0).future().complete(Response.none());

        assertThat(handler.correlationIds()).containsExactly(1, 2);
        handler.calls().get(1).respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(2);
        assertThat(connection.isOpen()).isTrue();
    }

    @Test
    void theHandlerSeesTheHeaderBodyListenerAndAnonymousPrincipal() {
        connection.send(metadata());

        ControlledRequestHandler.Call call = handler.lastCall();
        assertThat(call.context().apiKey()).isEqualTo(ApiKeys.METADATA);
        assertThat(call.context().apiVersion()).isEqualTo((short) 12);
        assertThat(call.context().clientId()).isEqualTo("test-client");
        assertThat(call.context().listenerName()).isEqualTo("PLAINTEXT");
        assertThat(call.context().securityProtocol()).isEqualTo(SecurityProtocol.PLAINTEXT);
        assertThat(call.context().clientAddress()).isEqualTo(EmbeddedConnection.CLIENT.getAddress());
        assertThat(call.context().principal()).isEqualTo(KafkaPrincipal.ANONYMOUS);
        assertThat(MetadataRequest.parse(new ByteBufferAccessor(call.body()), (short) 12).isAllTopics()).isTrue();
    }

    @Test
    void readingPausesWhileQueuedRequestsExceedTheLimitAndResumesWhenDrained() {
        int size = QUEUE_LIMIT_BYTES / 2 + 1024;
        connection.send(apiVersions());
        assertThat(handler.correlationIds()).containsExactly(1);

        connection.write(connection.frameOfSize(apiVersions(), 2, size));
        assertThat(connection.readsFromSocket()).isTrue();
        connection.write(connection.frameOfSize(apiVersions(), 3, size));
        assertThat(connection.readsFromSocket()).as("over 16 MiB queued").isFalse();

        handler.calls().get(0).respond();
        // Request 2 went to the handler: about 8 MiB still wait, under the limit.
        assertThat(handler.correlationIds()).containsExactly(1, 2);
        assertThat(connection.readsFromSocket()).isTrue();

        handler.calls().get(1).respond();
        handler.calls().get(2).respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(1, 2, 3);
        assertThat(connection.readsFromSocket()).isTrue();
    }

    @Test
    void readingPausesWhileTheClientDoesNotReadItsResponsesAndResumesWhenItDoes() {
        // Any response the client has not read makes the channel unwritable.
        connection.channel().config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 2));
        connection.stopReading();

        connection.send(apiVersions());
        handler.calls().get(0).respond();
        assertThat(connection.channel().isWritable()).isFalse();
        assertThat(connection.readsFromSocket()).isFalse();

        connection.send(apiVersions());
        assertThat(handler.correlationIds()).as("not dispatched while the client does not read").containsExactly(1);

        connection.resumeReading();
        assertThat(connection.channel().isWritable()).isTrue();
        assertThat(handler.correlationIds()).containsExactly(1, 2);
        assertThat(connection.readsFromSocket()).isTrue();
        handler.calls().get(1).respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(1, 2);
    }

    @Test
    void aFailedHandlerFutureClosesTheConnectionAndFreesQueuedRequests() {
        ByteBuf frames = Unpooled.buffer();
        for (int id = 1; id <= 3; id++) {
            ByteBuf frame = connection.frame(apiVersions(), id);
            frames.writeBytes(frame);
            frame.release();
        }
        connection.write(frames);
        assertThat(handler.correlationIds()).containsExactly(1);

        handler.calls().get(0).future().completeExceptionally(new CoordinatorNotAvailableException("lost"));

        assertThat(connection.isOpen()).isFalse();
        assertThat(connection.frames()).isEmpty();
        assertThat(handler.correlationIds()).containsExactly(1);
        assertThat(frames.refCnt()).as("request bytes released").isZero();
        connection.channel().checkException();
    }

    @Test
    void aHandlerThatThrowsClosesTheConnection() {
        handler.throwOnCall(new IllegalStateException("bug"));

        connection.send(apiVersions());

        assertThat(connection.isOpen()).isFalse();
        assertThat(connection.frames()).isEmpty();
        connection.channel().checkException();
    }

    @Test
    void sendThenCloseWritesTheResponseThenClosesWithoutHandlingQueuedRequests() {
        connection.sendPipelined(apiVersions(), apiVersions());
        RequestContext first = handler.calls().get(0).context();
        Response.SendResponse answer = (Response.SendResponse) ControlledRequestHandler.okResponse(first);

        handler.calls().get(0).future().complete(new Response.SendThenClose(answer.send(), "test"));

        assertThat(connection.responseCorrelationIds()).containsExactly(1);
        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.correlationIds()).containsExactly(1);
    }

    @Test
    void closeConnectionClosesWithoutAResponse() {
        connection.sendPipelined(apiVersions(), apiVersions());

        handler.calls().get(0).future().complete(Response.close("test"));

        assertThat(connection.frames()).isEmpty();
        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.correlationIds()).containsExactly(1);
    }

    @Test
    void aResponseThatCannotBeSerializedClosesTheConnection() {
        connection.send(apiVersions());

        handler.calls().get(0).future().complete(Response.send(new FailingSend()));

        assertThat(connection.frames()).isEmpty();
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void aResponseCompletingAfterTheClientLeftIsDropped() {
        ByteBuf frame = connection.frame(apiVersions(), 1);
        connection.write(frame);
        connection.channel().close();

        handler.calls().get(0).respond();

        assertThat(connection.frames()).isEmpty();
        assertThat(frame.refCnt()).as("request bytes released").isZero();
        connection.channel().checkException();
    }

    @Test
    void anIdleConnectionIsClosedWithTheRequestsItQueued() {
        ByteBuf frames = Unpooled.buffer();
        for (int id = 1; id <= 2; id++) {
            ByteBuf frame = connection.frame(apiVersions(), id);
            frames.writeBytes(frame);
            frame.release();
        }
        connection.write(frames);

        // What the idle handler KafkaChannelInitializer puts first fires after connections.max.idle.ms.
        connection.channel().pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);

        assertThat(connection.isOpen()).isFalse();
        handler.lastCall().respond();
        assertThat(connection.frames()).isEmpty();
        assertThat(frames.refCnt()).as("request bytes released").isZero();
    }

    private static RequestContext context(ApiKeys api, int correlationId) {
        short version = api == ApiKeys.METADATA ? (short) 12 : (short) 3;
        return new RequestContext(new RequestHeader(api, version, "test-client", correlationId), "test",
            EmbeddedConnection.CLIENT.getAddress(), "PLAINTEXT", SecurityProtocol.PLAINTEXT, KafkaPrincipal.ANONYMOUS);
    }

    /** A response whose serialization fails, as a file slice that can no longer be read would. */
    private static final class FailingSend implements Send {

        @Override
        public boolean completed() {
            return false;
        }

        @Override
        public long writeTo(TransferableChannel channel) throws IOException {
            throw new IOException("segment deleted");
        }

        @Override
        public long size() {
            return 100;
        }
    }

    @Test
    void theHandlerIsToldOnceWhenTheConnectionCloses() {
        connection.send(apiVersions());
        String connectionId = handler.calls().get(0).context().connectionId();

        connection.channel().close();

        assertThat(handler.closedConnections()).containsExactly(connectionId);
    }
}
