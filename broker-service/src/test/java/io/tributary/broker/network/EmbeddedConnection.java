package io.tributary.broker.network;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.security.ListenerSecurity;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.CredentialCache;

/**
 * One client connection to a listener, without sockets: an {@link EmbeddedChannel} with the
 * pipeline {@link KafkaChannelInitializer} gives a plaintext or SASL_PLAINTEXT connection (a
 * {@link KafkaFrameDecoder} and a {@link ConnectionHandler}, whose requests run in place), seen from the client's side. Requests
 * built with kafka-clients' own classes go in as size-prefixed frames; responses come out as
 * frames and are parsed with kafka-clients against the header of the request they answer.
 *
 * <p>The client can stop reading ({@link #stopReading()}): flushes then stop short of the socket,
 * so written responses stay in the channel's outbound buffer and count against its
 * write-buffer water marks, as with a client that does not read its socket.
 *
 * <p>Everything runs on the test thread, which is the channel's event loop.
 */
final class EmbeddedConnection {

    /** The client's address: ConnectionHandler takes the remote address as an {@link InetSocketAddress}. */
    static final InetSocketAddress CLIENT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 50_123);
    static final InetSocketAddress BROKER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 9092);
    /** {@code socket.request.max.bytes}: Kafka's default. */
    static final int MAX_REQUEST_BYTES = 100 * 1024 * 1024;

    private final EmbeddedChannel channel;
    private final Client client = new Client();
    private final ByteBuf received = Unpooled.buffer();
    private final Map<Integer, RequestHeader> sent = new HashMap<>();
    private int nextCorrelationId = 1;

    private EmbeddedConnection(RequestHandler handler, RequestQueue requests, ListenerSecurity security,
                               int maxRequestBytes) {
        this(handler, requests, security, maxRequestBytes, new IntervalLog(0, org.apache.kafka.common.utils.Time.SYSTEM));
    }

    private EmbeddedConnection(RequestHandler handler, RequestQueue requests, ListenerSecurity security,
                               int maxRequestBytes, IntervalLog closeLog) {
        channel = new LoopbackChannel(client, new KafkaFrameDecoder(maxRequestBytes,
            security.saslServers() != null ? security.saslServerMaxReceiveSize() : Integer.MAX_VALUE),
            new ConnectionHandler(handler, requests, security, closeLog));
    }

    /** A plaintext connection whose lines about closing go through {@code closeLog}, shared as a listener shares it. */
    static EmbeddedConnection plaintext(RequestHandler handler, IntervalLog closeLog) {
        return new EmbeddedConnection(handler, IN_PLACE, plaintextListener(), MAX_REQUEST_BYTES, closeLog);
    }

    /** Runs each request at once on the test thread, as if a handler thread took it from the request channel. */
    static final RequestQueue IN_PLACE = new RequestQueue() {
        @Override
        public boolean offer(Runnable request) {
            request.run();
            return true;
        }

        @Override
        public void whenSpace(Runnable waiter) {
            waiter.run();
        }
    };

    /** A connection on a listener with {@code security}, its pipeline built as {@link KafkaChannelInitializer} builds it. */
    static EmbeddedConnection open(RequestHandler handler, ListenerSecurity security, int maxRequestBytes) {
        return new EmbeddedConnection(handler, IN_PLACE, security, maxRequestBytes);
    }

    /** A plaintext connection whose requests go to {@code requests} (a request channel the test controls). */
    static EmbeddedConnection plaintext(RequestHandler handler, RequestQueue requests) {
        return new EmbeddedConnection(handler, requests, plaintextListener(), MAX_REQUEST_BYTES);
    }

    static EmbeddedConnection plaintext(RequestHandler handler) {
        return open(handler, plaintextListener(), MAX_REQUEST_BYTES);
    }

    /** A PLAINTEXT listener's security: no TLS, no SASL, principal ANONYMOUS. */
    static ListenerSecurity plaintextListener() {
        return listener(SecurityProtocol.PLAINTEXT, Map.of(), new SimpleMeterRegistry());
    }

    static ListenerSecurity listener(SecurityProtocol protocol, Map<String, String> settings,
                                     SimpleMeterRegistry registry) {
        return listener(protocol, settings, registry, org.apache.kafka.common.utils.Time.SYSTEM);
    }

    /** @param time the clock SASL sessions expire by (KIP-368) */
    static ListenerSecurity listener(SecurityProtocol protocol, Map<String, String> settings,
                                     SimpleMeterRegistry registry, org.apache.kafka.common.utils.Time time) {
        return new ListenerSecurity(new EndPoint(protocol.name, protocol, BROKER.getHostString(), BROKER.getPort()),
            BrokerSecurityProperties.bind(settings), new CredentialCache(), registry, time);
    }

    EmbeddedChannel channel() {
        return channel;
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    boolean readsFromSocket() {
        return channel.config().isAutoRead();
    }

    /** Sends each request as its own read, correlation ids counting up from 1; returns the ids. */
    List<Integer> send(AbstractRequest... requests) {
        List<Integer> ids = new ArrayList<>();
        for (AbstractRequest request : requests) {
            int id = nextCorrelationId++;
            channel.writeInbound(frame(request, id));
            ids.add(id);
        }
        return ids;
    }

    /** Sends the requests' frames together, in one read, as a client pipelining them. */
    List<Integer> sendPipelined(AbstractRequest... requests) {
        ByteBuf all = Unpooled.buffer();
        List<Integer> ids = new ArrayList<>();
        for (AbstractRequest request : requests) {
            int id = nextCorrelationId++;
            ByteBuf frame = frame(request, id);
            all.writeBytes(frame);
            frame.release();
            ids.add(id);
        }
        channel.writeInbound(all);
        return ids;
    }

    /** The request's frame: 4-byte size, header (for {@link #responses()}), body. */
    ByteBuf frame(AbstractRequest request, int correlationId) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "test-client", correlationId);
        sent.put(correlationId, header);
        return sizePrefixed(request.serializeWithHeader(header));
    }

    /**
     * The request's frame grown to a size prefix of {@code size} bytes with padding after the body
     * (which {@link ControlledRequestHandler} does not parse).
     */
    ByteBuf frameOfSize(AbstractRequest request, int correlationId, int size) {
        ByteBuf frame = frame(request, correlationId);
        int payload = frame.readableBytes() - 4;
        if (size < payload) {
            throw new IllegalArgumentException("the request alone takes " + payload + " bytes");
        }
        ByteBuf padded = Unpooled.buffer(4 + size);
        padded.writeInt(size);
        padded.writeBytes(frame, frame.readerIndex() + 4, payload);
        padded.writeZero(size - payload);
        frame.release();
        return padded;
    }

    /** Writes raw bytes as one read. */
    void write(ByteBuf bytes) {
        channel.writeInbound(bytes);
    }

    static ByteBuf sizePrefixed(ByteBuffer payload) {
        ByteBuf frame = Unpooled.buffer(4 + payload.remaining());
        frame.writeInt(payload.remaining());
        frame.writeBytes(payload.duplicate());
        return frame;
    }

    /** The client stops reading its socket: responses stay in the channel's outbound buffer. */
    void stopReading() {
        client.reading = false;
    }

    /** The client reads again: what waited in the outbound buffer is written out. */
    void resumeReading() {
        client.reading = true;
        channel.flush();
    }

    /**
     * The response frames written since the last call, without their size prefix. An empty buffer
     * written before a close is not a frame.
     */
    List<ByteBuffer> frames() {
        Object message;
        while ((message = channel.readOutbound()) != null) {
            if (!(message instanceof ByteBuf buffer)) {
                throw new AssertionError("unexpected outbound message " + message);
            }
            received.writeBytes(buffer);
            buffer.release();
        }
        List<ByteBuffer> frames = new ArrayList<>();
        while (received.readableBytes() >= 4 && received.readableBytes() >= 4 + received.getInt(received.readerIndex())) {
            int size = received.readInt();
            byte[] bytes = new byte[size];
            received.readBytes(bytes);
            frames.add(ByteBuffer.wrap(bytes));
        }
        received.discardReadBytes();
        return frames;
    }

    /** A parsed response with the correlation id it carried. */
    record Received(int correlationId, ApiKeys apiKey, AbstractResponse body) {
    }

    /** The responses written since the last call, parsed as answers to the requests sent. */
    List<Received> responses() {
        List<Received> responses = new ArrayList<>();
        for (ByteBuffer frame : frames()) {
            int correlationId = frame.getInt(0);
            RequestHeader request = sent.get(correlationId);
            if (request == null) {
                throw new AssertionError("response with correlation id " + correlationId + " answers no request sent");
            }
            responses.add(new Received(correlationId, request.apiKey(), AbstractResponse.parseResponse(frame, request)));
        }
        return responses;
    }

    List<Integer> responseCorrelationIds() {
        return responses().stream().map(Received::correlationId).toList();
    }

    /** The client's end of the socket; see {@link EmbeddedConnection#stopReading()}. */
    static final class Client extends ChannelOutboundHandlerAdapter {

        private boolean reading = true;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (reading) {
                ctx.flush();
            }
        }
    }

    /** An embedded channel with loopback socket addresses, as a TCP connection has. */
    private static final class LoopbackChannel extends EmbeddedChannel {

        LoopbackChannel(ChannelHandler... handlers) {
            super(handlers);
        }

        @Override
        protected SocketAddress localAddress0() {
            return isActive() ? BROKER : null;
        }

        @Override
        protected SocketAddress remoteAddress0() {
            return isActive() ? CLIENT : null;
        }
    }
}
