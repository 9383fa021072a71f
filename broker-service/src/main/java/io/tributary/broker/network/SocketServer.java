package io.tributary.broker.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.security.ListenerSecurity;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka protocol server of one listener (Kafka's {@code SocketServer}): a Netty server with one
 * acceptor thread and {@code num.network.threads} event loops, whose connections get the pipeline
 * of {@link KafkaChannelInitializer}. Uses the native epoll transport (with {@code sendfile} for
 * file regions) when available. The event loops only read, frame, authenticate and write: every
 * request runs on a request handler thread, reached through the {@link RequestChannel}. Accepted
 * connections first pass the broker's {@link ConnectionQuotas}, through a {@link ConnectionAcceptor}.
 *
 * <p>Thread-safe for start and close.
 */
public final class SocketServer implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(SocketServer.class);

    private final EndPoint endPoint;
    private final int numThreads;
    private final KafkaChannelInitializer initializer;
    private final ConnectionQuotas quotas;
    private final ConnectionAcceptor acceptor;
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel serverChannel;

    /**
     * @param endPoint        listener to bind
     * @param numThreads      event loop threads ({@code num.network.threads})
     * @param maxRequestBytes largest request frame ({@code socket.request.max.bytes})
     * @param idleTimeoutMs   idle connections are closed after this, ms ({@code connections.max.idle.ms})
     * @param handler         runs each request, on a request handler thread
     * @param requestChannel  the queue to the request handler threads
     * @param security        the listener's TLS, SASL and principals, by its security protocol
     * @param quotas          the broker's connection limits, shared by all its listeners; the listener is
     *                        added to them when it starts and removed when it closes
     */
    public SocketServer(EndPoint endPoint, int numThreads, int maxRequestBytes, long idleTimeoutMs, RequestHandler handler,
                        RequestChannel requestChannel, ListenerSecurity security, ConnectionQuotas quotas) {
        this.endPoint = endPoint;
        this.numThreads = numThreads;
        this.initializer = new KafkaChannelInitializer(maxRequestBytes, idleTimeoutMs, handler, requestChannel, security,
            quotas.intervalLog());
        this.quotas = quotas;
        this.acceptor = new ConnectionAcceptor(endPoint.listenerName(), quotas);
    }

    /**
     * Binds the listener.
     *
     * @return the bound port
     * @throws IllegalStateException when the port cannot be bound
     */
    public int start() {
        boolean epoll = Epoll.isAvailable();
        var ioHandler = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        bossGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("kafka-acceptor-" + endPoint.listenerName()),
            ioHandler);
        workerGroup = new MultiThreadIoEventLoopGroup(numThreads,
            new DefaultThreadFactory("kafka-network-" + endPoint.listenerName()), ioHandler);
        Class<? extends ServerChannel> channelClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(bossGroup, workerGroup)
            .channel(channelClass)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .handler(acceptor)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(initializer);
        InetSocketAddress address = endPoint.host() == null || endPoint.host().isEmpty()
            ? new InetSocketAddress(endPoint.port()) : new InetSocketAddress(endPoint.host(), endPoint.port());
        quotas.addListener(endPoint.listenerName(), acceptor::wake);
        try {
            serverChannel = bootstrap.bind(address).sync().channel();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("Could not bind listener " + endPoint.connectionString() + ": " + e.getMessage(), e);
        }
        int port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        log.info("Listening for Kafka clients on {} ({} transport, {} network threads)",
            endPoint.withPort(port).connectionString(), epoll ? "epoll" : "nio", numThreads);
        return port;
    }

    /** Number of open client connections. */
    public int connectionCount() {
        return initializer.connections().size();
    }

    /** Stops accepting, closes every connection and stops the event loops. */
    @Override
    public void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        initializer.connections().close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        quotas.removeListener(endPoint.listenerName());
        if (bossGroup != null) {
            bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (workerGroup != null) {
            workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
