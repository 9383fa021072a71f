package io.tributary.broker.network;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tributary.broker.security.ListenerSecurity;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one client connection: TLS (SSL and SASL_SSL listeners, with
 * {@link FileRegionEncoder} since {@code sendfile} cannot encrypt), an idle timeout
 * ({@code connections.max.idle.ms}), frame decoding (4-byte big-endian length, at most
 * {@code socket.request.max.bytes}, less before SASL authentication) and a {@link ConnectionHandler},
 * which runs the SASL exchange on SASL listeners and hands requests to the {@link RequestChannel}; their lines
 * about closed connections share one {@link IntervalLog}.
 *
 * <p>Thread-safe: shared by every connection of one listener.
 */
@ChannelHandler.Sharable
final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final int maxRequestBytes;
    private final long idleTimeoutMs;
    private final RequestHandler handler;
    private final RequestChannel requestChannel;
    private final ListenerSecurity security;
    private final IntervalLog closeLog;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    KafkaChannelInitializer(int maxRequestBytes, long idleTimeoutMs, RequestHandler handler, RequestChannel requestChannel,
                            ListenerSecurity security, IntervalLog closeLog) {
        this.closeLog = closeLog;
        this.maxRequestBytes = maxRequestBytes;
        this.idleTimeoutMs = idleTimeoutMs;
        this.handler = handler;
        this.requestChannel = requestChannel;
        this.security = security;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        if (security.usesTls()) {
            ch.pipeline().addLast("tls", new SslHandler(security.newSslEngine(ch.remoteAddress())))
                .addLast("chunks", new ChunkedWriteHandler());
        }
        ch.pipeline()
            .addLast("idle", new IdleStateHandler(0, 0, idleTimeoutMs, TimeUnit.MILLISECONDS))
            .addLast("frames", new KafkaFrameDecoder(maxRequestBytes, security.saslServers() != null
                ? security.saslServerMaxReceiveSize() : Integer.MAX_VALUE));
        if (security.usesTls()) {
            ch.pipeline().addLast("files", new FileRegionEncoder());
        }
        ch.pipeline().addLast("requests", new ConnectionHandler(handler, requestChannel, security, closeLog));
    }

    /** The open connections, closed by the server on shutdown. */
    ChannelGroup connections() {
        return connections;
    }
}
