package io.tributary.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tributary.broker.security.ListenerSecurity;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: takes whole request frames from the frame decoder and handles them
 * one at a time, in order, as Kafka does, so responses leave in request order. Frames a client
 * pipelines are queued; reading from the socket pauses while the queue holds more than
 * {@value #MAX_QUEUED_BYTES} bytes or the outbound buffer is full (the client does not read).
 *
 * <p>The event loop parses the request header and runs the SASL exchange; the request itself is
 * served here when the handler can without blocking ({@link RequestHandler#handleWithoutBlocking}),
 * and otherwise goes through the {@link RequestChannel} to a request handler thread, its response
 * coming back to the event loop to be written. While the request channel is full, reading pauses and the request
 * waits here.
 *
 * <p>A frame whose header cannot be parsed, or a handler failure (an {@link Error} included, so the
 * connection is closed rather than left waiting for an answer that never comes), closes this
 * connection only, with a log line; the lines about closed connections go through the listener's
 * {@link IntervalLog}, at most one per kind of closing per interval, so a client that sends garbage
 * and reconnects in a loop cannot flood the log. All state is confined to the channel's event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionHandler.class);
    private static final int MAX_QUEUED_BYTES = 16 * 1024 * 1024;

    private final RequestHandler handler;
    private final RequestQueue requestChannel;
    private final ListenerSecurity security;
    private final String listenerName;
    private final SecurityProtocol securityProtocol;
    private final IntervalLog closeLog;
    private SaslAuthenticator sasl;
    private SSLSession sslSession;
    private KafkaPrincipal transportPrincipal = KafkaPrincipal.ANONYMOUS;
    private boolean frameLimitLifted;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private long queuedBytes;
    private boolean inFlight;
    private boolean closed;
    private String connectionId = "unknown";

    /**
     * @param handler        handles each request, on a request handler thread
     * @param requestChannel the queue to the request handler threads
     * @param security       the listener's TLS, SASL and principals
     * @param closeLog       rate-limits the lines about closed connections; shared by the listener's connections
     */
    ConnectionHandler(RequestHandler handler, RequestQueue requestChannel, ListenerSecurity security,
                      IntervalLog closeLog) {
        this.handler = handler;
        this.closeLog = closeLog;
        this.requestChannel = requestChannel;
        this.security = security;
        this.listenerName = security.listenerName();
        this.securityProtocol = security.securityProtocol();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connectionId = ctx.channel().localAddress() + "-" + ctx.channel().remoteAddress();
        if (security.saslServers() != null) {
            sasl = new SaslAuthenticator(security, connectionId);
        }
        if (!security.usesTls()) {
            transportPrincipal = security.transportPrincipal(clientAddress(ctx), null);
        }
        super.channelActive(ctx);
    }

    private static InetAddress clientAddress(ChannelHandlerContext ctx) {
        InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
        return remote == null ? null : remote.getAddress();
    }

    /** The connection's principal: SASL's once authenticated, else the TLS client certificate's or ANONYMOUS. */
    private KafkaPrincipal principal() {
        if (sasl != null) {
            return sasl.complete() ? sasl.principal() : KafkaPrincipal.ANONYMOUS;
        }
        return transportPrincipal;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (closed) {
            frame.release();
            return;
        }
        queued.add(frame);
        queuedBytes += frame.readableBytes();
        if (queuedBytes > MAX_QUEUED_BYTES || (sasl != null && !sasl.complete() && inFlight)) {
            // Before authentication one frame waits at most (as Kafka mutes the channel): a client that
            // has not authenticated cannot make the broker buffer its pipelined frames.
            ctx.channel().config().setAutoRead(false);
        }
        if (!inFlight) {
            processNext(ctx);
        }
    }

    private void processNext(ChannelHandlerContext ctx) {
        while (!inFlight && !closed) {
            if (!ctx.channel().isWritable()) {
                ctx.channel().config().setAutoRead(false);
                return;
            }
            ByteBuf frame = queued.poll();
            if (frame == null) {
                ctx.channel().config().setAutoRead(true);
                return;
            }
            queuedBytes -= frame.readableBytes();
            if (queuedBytes <= MAX_QUEUED_BYTES && !ctx.channel().config().isAutoRead()) {
                ctx.channel().config().setAutoRead(true);
            }
            inFlight = true;
            dispatch(ctx, frame);
        }
    }

    private void dispatch(ChannelHandlerContext ctx, ByteBuf frame) {
        ByteBuffer buffer = frame.nioBuffer();
        if (sasl != null && sasl.expectsRawToken()) {
            whenDone(ctx, frame, null, sasl.onRawToken(ctx, buffer, clientAddress(ctx), sslSession));
            return;
        }
        RequestHeader header;
        ByteBuffer raw = buffer.duplicate();
        try {
            header = RequestHeader.parse(buffer);
        } catch (RuntimeException e) {
            frame.release();
            closeWithLog(ctx, "unparseable-header", "request header could not be parsed (" + e.getMessage() + ")"
                + rawHeader(raw));
            return;
        }
        RequestContext context = new RequestContext(header, connectionId, clientAddress(ctx), listenerName,
            securityProtocol, principal());
        if (sasl != null && sasl.complete()) {
            long nowNanos = security.time().nanoseconds();
            boolean reauthenticating = header.apiKey() == ApiKeys.SASL_HANDSHAKE && sasl.maybeBeginReauthentication(nowNanos);
            if (!reauthenticating && sasl.sessionExpired(nowNanos)) {
                // KIP-368: the client did not re-authenticate in time.
                frame.release();
                security.recordExpiredConnectionKilled();
                log.debug("Closing connection {}: its SASL session expired ({} request)", connectionId, header.apiKey());
                close(ctx);
                return;
            }
        }
        CompletableFuture<Response> saslResponse = null;
        try {
            if (sasl != null && !sasl.complete()) {
                saslResponse = sasl.onRequest(ctx, context, buffer, sslSession);
            }
        } catch (RuntimeException e) {
            saslResponse = CompletableFuture.failedFuture(e);
        }
        if (saslResponse != null) {
            whenDone(ctx, frame, context, saslResponse);
            return;
        }
        CompletableFuture<Response> inline;
        try {
            inline = handler.handleWithoutBlocking(context, buffer);
        } catch (RuntimeException | Error e) {
            inline = CompletableFuture.failedFuture(e);
        }
        if (inline != null) {
            whenDone(ctx, frame, context, inline);
            return;
        }
        submit(ctx, frame, () -> {
            CompletableFuture<Response> future;
            try {
                future = handler.handle(context, buffer);
            } catch (RuntimeException | Error e) {
                // An Error too: otherwise the request is never answered and the connection waits for ever.
                future = CompletableFuture.failedFuture(e);
            }
            whenDone(ctx, frame, context, future);
        });
    }

    /** Hands a request to the handler threads; while the request channel is full, reading pauses. */
    private void submit(ChannelHandlerContext ctx, ByteBuf frame, Runnable request) {
        if (closed) {
            frame.release();
            return;
        }
        if (requestChannel.offer(request)) {
            return;
        }
        ctx.channel().config().setAutoRead(false);
        requestChannel.whenSpace(() -> {
            try {
                ctx.executor().execute(() -> submit(ctx, frame, request));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                ReferenceCountUtil.safeRelease(frame);
            }
        });
    }

    private void whenDone(ChannelHandlerContext ctx, ByteBuf frame, RequestContext context,
                          CompletableFuture<Response> future) {
        future.whenComplete((response, error) -> {
            if (ctx.executor().inEventLoop()) {
                onResponse(ctx, frame, context, response, error);
                return;
            }
            try {
                ctx.executor().execute(() -> onResponse(ctx, frame, context, response, error));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // The event loop is gone (shutdown): nobody will write the response, free the request.
                ReferenceCountUtil.safeRelease(frame);
            }
        });
    }

    private void onResponse(ChannelHandlerContext ctx, ByteBuf frame, RequestContext context, Response response,
                            Throwable error) {
        frame.release();
        if (sasl != null && sasl.complete() && !frameLimitLifted) {
            KafkaFrameDecoder frames = ctx.pipeline().get(KafkaFrameDecoder.class);
            if (frames != null) {
                frames.authenticated();
            }
            frameLimitLifted = true;
        }
        if (closed) {
            return;
        }
        int throttleMs = 0;
        if (response instanceof Response.Throttled t) {
            throttleMs = t.throttleMs();
            response = t.response();
        }
        if (error != null) {
            long suppressed = closeLog.allow("close:handler-failed");
            if (suppressed != IntervalLog.SUPPRESS) {
                log.warn("Closing connection {}: {} failed{}", connectionId, describe(context), closeLog.more(suppressed),
                    error);
            }
            close(ctx);
            return;
        }
        if (response instanceof Response.Unserialized u) {
            response = Response.send(u.toSend()); // not through the request-time quota (a SASL answer)
        }
        if (response instanceof Response.SendResponse s) {
            if (!write(ctx, s.send(), context)) {
                return;
            }
            ctx.flush();
        } else if (response instanceof Response.SendThenClose s) {
            if (!write(ctx, s.send(), context)) {
                return;
            }
            logClose("after-request", "after " + describe(context) + ": " + s.reason());
            closed = true;
            releaseQueued();
            ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            return;
        } else if (response instanceof Response.CloseConnection c) {
            logClose("after-request", "after " + describe(context) + ": " + c.reason());
            close(ctx);
            return;
        }
        if (throttleMs > 0) {
            // KIP-219: the client was told to wait; its connection stays muted (nothing more is read
            // or handled) until then, so one that ignores the throttle time cannot go faster.
            ctx.channel().config().setAutoRead(false);
            try {
                ctx.executor().schedule(() -> {
                    if (!closed) {
                        inFlight = false;
                        processNext(ctx);
                    }
                }, throttleMs, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                close(ctx); // the event loop is shutting down
            }
            return;
        }
        inFlight = false;
        processNext(ctx);
    }

    /** Writes a response's messages; false (and the connection closed) when it cannot be serialized. */
    private boolean write(ChannelHandlerContext ctx, org.apache.kafka.common.network.Send send, RequestContext context) {
        List<Object> messages;
        try {
            messages = NettySendAdapter.toMessages(send);
        } catch (Exception e) {
            log.error("Could not serialize the response to {} on {}; closing it", describe(context), connectionId, e);
            close(ctx);
            return false;
        }
        for (Object m : messages) {
            ctx.write(m, ctx.voidPromise());
        }
        return true;
    }

    private static String describe(RequestContext context) {
        return context == null ? "a SASL token" : context.apiKey() + " v" + context.apiVersion() + " from client "
            + SaslAuthenticator.printable(context.clientId());
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable() && !inFlight) {
            processNext(ctx);
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            log.debug("Closing idle connection {}", connectionId);
            close(ctx);
            return;
        }
        if (evt instanceof SslHandshakeCompletionEvent handshake) {
            if (handshake.isSuccess()) {
                sslSession = ctx.pipeline().get(SslHandler.class).engine().getSession();
                try {
                    transportPrincipal = security.transportPrincipal(clientAddress(ctx), sslSession);
                } catch (RuntimeException e) {
                    security.recordFailure(false);
                    closeWithLog(ctx, "no-principal", "no principal for the client certificate (" + e.getMessage() + ")");
                    return;
                }
                if (sasl == null) {
                    security.recordSuccess(false);
                }
            } else {
                security.recordFailure(false);
                long suppressed = closeLog.allow("close:tls-handshake");
                if (suppressed != IntervalLog.SUPPRESS) {
                    log.info("Failed TLS handshake on connection {} (listener {}): {}{}", connectionId, listenerName,
                        handshake.cause() == null ? "closed" : handshake.cause().getMessage(), closeLog.more(suppressed));
                }
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            log.debug("Connection {} failed: {}", connectionId, cause.toString());
            close(ctx);
        } else {
            closeWithLog(ctx, "exception:" + cause.getClass().getSimpleName(), cause.toString());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (sasl != null) {
            sasl.dispose();
        }
        releaseQueued();
        closed = true;
        handler.connectionClosed(connectionId);
        super.channelInactive(ctx);
    }

    /** Closes with a WARN line, unless one of the same {@code kind} was written less than the interval ago. */
    /**
     * What the start of a header that could not be parsed names (an API key no Kafka version defines, say):
     * {@code " (API key 9999 v0 from client 'app')"}, or "" when it is too short to say.
     */
    static String rawHeader(ByteBuffer header) {
        if (header.remaining() < 10) {
            return "";
        }
        short apiKey = header.getShort();
        short version = header.getShort();
        header.getInt(); // correlation id
        short length = header.getShort();
        String clientId;
        if (length < 0) {
            clientId = "null";
        } else if (length <= header.remaining()) {
            byte[] bytes = new byte[Math.min(length, 100)];
            header.get(bytes);
            clientId = "'" + new String(bytes, java.nio.charset.StandardCharsets.UTF_8).replaceAll("\\p{Cntrl}", "?")
                + (length > 100 ? "..." : "") + "'";
        } else {
            clientId = "unknown";
        }
        return " (API key " + apiKey + " v" + version + " from client " + clientId + ")";
    }

    private void closeWithLog(ChannelHandlerContext ctx, String kind, String reason) {
        long suppressed = closeLog.allow("close:" + kind);
        if (suppressed != IntervalLog.SUPPRESS) {
            log.warn("Closing connection {}: {}{}", connectionId, reason, closeLog.more(suppressed));
        }
        close(ctx);
    }

    /** An INFO line about a close the handler asked for, at most one of the {@code kind} per interval. */
    private void logClose(String kind, String reason) {
        long suppressed = closeLog.allow("close:" + kind);
        if (suppressed != IntervalLog.SUPPRESS) {
            log.info("Closing connection {} {}{}", connectionId, reason, closeLog.more(suppressed));
        }
    }

    private void close(ChannelHandlerContext ctx) {
        closed = true;
        releaseQueued();
        ctx.close();
    }

    private void releaseQueued() {
        ByteBuf b;
        while ((b = queued.poll()) != null) {
            ReferenceCountUtil.safeRelease(b);
        }
        queuedBytes = 0;
    }
}
