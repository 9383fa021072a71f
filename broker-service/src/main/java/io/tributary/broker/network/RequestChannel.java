package io.tributary.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
 * <p>A frame whose header cannot be parsed, or a handler failure, closes this connection only,
 * with a log line. All state is confined to the channel's event loop.
 */
final class RequestChannel extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RequestChannel.class);
    private static final int MAX_QUEUED_BYTES = 16 * 1024 * 1024;

    private final RequestHandler handler;
    private final String listenerName;
    private final SecurityProtocol securityProtocol;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private long queuedBytes;
    private boolean inFlight;
    private boolean closed;
    private String connectionId = "unknown";

    RequestChannel(RequestHandler handler, String listenerName, SecurityProtocol securityProtocol) {
        this.handler = handler;
        this.listenerName = listenerName;
        this.securityProtocol = securityProtocol;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connectionId = ctx.channel().localAddress() + "-" + ctx.channel().remoteAddress();
        super.channelActive(ctx);
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
        if (queuedBytes > MAX_QUEUED_BYTES) {
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
        RequestHeader header;
        try {
            header = RequestHeader.parse(buffer);
        } catch (RuntimeException e) {
            frame.release();
            closeWithLog(ctx, "request header could not be parsed (" + e.getMessage() + ")");
            return;
        }
        InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
        RequestContext context = new RequestContext(header, connectionId, remote == null ? null : remote.getAddress(),
            listenerName, securityProtocol, KafkaPrincipal.ANONYMOUS);
        CompletableFuture<Response> future;
        try {
            future = handler.handle(context, buffer);
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
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
        if (closed) {
            return;
        }
        if (error != null) {
            log.warn("Closing connection {}: {} v{} from client {} failed", connectionId, context.apiKey(),
                context.apiVersion(), context.clientId(), error);
            close(ctx);
            return;
        }
        if (response instanceof Response.SendResponse s) {
            List<Object> messages;
            try {
                messages = NettySendAdapter.toMessages(s.send());
            } catch (Exception e) {
                log.error("Could not serialize the {} response on {}; closing it", context.apiKey(), connectionId, e);
                close(ctx);
                return;
            }
            for (Object m : messages) {
                ctx.write(m, ctx.voidPromise());
            }
            ctx.flush();
        } else if (response instanceof Response.CloseConnection c) {
            log.info("Closing connection {} after {} from client {}: {}", connectionId, context.apiKey(),
                context.clientId(), c.reason());
            close(ctx);
            return;
        }
        inFlight = false;
        processNext(ctx);
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
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException) {
            log.debug("Connection {} failed: {}", connectionId, cause.toString());
            close(ctx);
        } else {
            closeWithLog(ctx, cause.toString());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseQueued();
        closed = true;
        super.channelInactive(ctx);
    }

    private void closeWithLog(ChannelHandlerContext ctx, String reason) {
        log.warn("Closing connection {}: {}", connectionId, reason);
        close(ctx);
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
