package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * A request and its answer as the wire carries them, for handler tests without a network: the
 * context a PLAINTEXT connection would give a request, its serialized body, and the bytes a
 * {@link Response} would write, parsed back with kafka-clients as a client would.
 */
final class Wire {

    static final int CORRELATION_ID = 7;
    static final KafkaPrincipal ALICE = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice");

    private Wire() {
    }

    /** The context of {@code request} from {@code principal} on a PLAINTEXT listener. */
    static RequestContext context(AbstractRequest request, KafkaPrincipal principal) {
        return context(new RequestHeader(request.apiKey(), request.version(), "test-client", CORRELATION_ID), principal);
    }

    static RequestContext context(RequestHeader header, KafkaPrincipal principal) {
        return new RequestContext(header, "local-remote", InetAddress.getLoopbackAddress(), "PLAINTEXT",
            SecurityProtocol.PLAINTEXT, principal);
    }

    /** The request's body, as the network layer hands it on after the header. */
    static ByteBuffer body(AbstractRequest request) {
        return request.serialize().buffer();
    }

    /** The answer {@code handler} gives to {@code request}, parsed as the client would, from bytes. */
    @SuppressWarnings("unchecked")
    static <T extends AbstractResponse> T exchange(ApiHandler handler, AbstractRequest request, KafkaPrincipal principal) {
        RequestContext context = context(request, principal);
        return (T) parse(handler.handle(context, request).join(), context);
    }

    /** The response's frame after its size prefix. */
    static ByteBuffer bytes(Response response) {
        if (response instanceof Response.Unserialized unserialized) {
            response = Response.send(unserialized.toSend());
        }
        if (!(response instanceof Response.SendResponse sent)) {
            throw new AssertionError("expected a response to send, got " + response);
        }
        ByteBuffer frame = write(sent.send());
        int size = frame.getInt();
        if (size != frame.remaining()) {
            throw new AssertionError("size prefix " + size + " but " + frame.remaining() + " bytes follow");
        }
        return frame;
    }

    static ByteBuffer bytes(CompletableFuture<Response> response) {
        if (!response.isDone()) {
            throw new AssertionError("the response is not ready");
        }
        return bytes(response.join());
    }

    /** The response parsed as the answer to the request of {@code context}. */
    static AbstractResponse parse(Response response, RequestContext context) {
        return AbstractResponse.parseResponse(bytes(response), context.header());
    }

    private static ByteBuffer write(Send send) {
        Collector out = new Collector();
        try {
            while (!send.completed()) {
                send.writeTo(out);
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return ByteBuffer.wrap(out.bytes.toByteArray());
    }

    /** Takes everything a {@link Send} writes. */
    private static final class Collector implements TransferableChannel {

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public boolean hasPendingWrites() {
            return false;
        }

        @Override
        public long transferFrom(FileChannel fileChannel, long position, long count) throws java.io.IOException {
            ByteBuffer slice = ByteBuffer.allocate((int) count);
            while (slice.hasRemaining()) {
                if (fileChannel.read(slice, position + slice.position()) < 0) {
                    throw new java.io.EOFException();
                }
            }
            return write(slice.flip());
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += write(srcs[i]);
            }
            return total;
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            byte[] chunk = new byte[n];
            src.get(chunk);
            bytes.writeBytes(chunk);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
