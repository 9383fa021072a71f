package io.tributary.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acceptor side of {@link ConnectionQuotas} for one listener: a handler on the server channel's
 * pipeline ({@code ServerBootstrap.handler}) that sees each accepted connection before Netty hands it to
 * an event loop, as Kafka's {@code Acceptor.accept}. One connection at a time, in order of arrival:
 * it is counted in the creation rates, waits out any throttle, then is admitted (passed on), refused
 * for its address (closed at once) or left waiting for a slot. While a connection waits, the server
 * channel stops reading ({@code autoRead} off), so new ones stay in the kernel's accept backlog, as
 * behind Kafka's sleeping acceptor; it reads again once the waiting ones are through. A throttle ends
 * on a timer of the acceptor's event loop, a slot wait when {@link ConnectionQuotas} wakes it.
 *
 * <p>An admitted connection gets an {@link Activity} handler first in its pipeline, which marks it
 * active on every read and write, and is uncounted when it closes.
 *
 * <p>Not thread-safe but confined: everything runs on the server channel's event loop; {@link #wake}
 * may be called from any thread.
 */
final class ConnectionAcceptor extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ConnectionAcceptor.class);

    /** An accepted connection not yet admitted; {@code readyAtMs} is set once it has been counted in the rates. */
    private static final class Waiting {
        final Channel channel;
        long readyAtMs = -1;

        Waiting(Channel channel) {
            this.channel = channel;
        }
    }

    private final String listener;
    private final ConnectionQuotas quotas;
    private final Time time;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private volatile ChannelHandlerContext ctx;
    private io.netty.util.concurrent.ScheduledFuture<?> throttleEnd;

    ConnectionAcceptor(String listener, ConnectionQuotas quotas) {
        this.listener = listener;
        this.quotas = quotas;
        this.time = quotas.time();
    }

    /** Asks the acceptor to try its waiting connections again; from any thread. */
    void wake() {
        ChannelHandlerContext context = ctx;
        if (context != null) {
            try {
                context.executor().execute(this::admitWaiting);
            } catch (RejectedExecutionException e) {
                // the acceptor is shutting down, and its waiting connections with it
            }
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        waiting.add(new Waiting((Channel) msg));
        admitWaiting();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeWaiting();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeWaiting();
    }

    /** Goes through the waiting connections until one must wait longer; reads again once none waits. */
    private void admitWaiting() {
        ChannelHandlerContext context = ctx;
        if (context == null || !context.channel().isActive()) {
            closeWaiting();
            return;
        }
        Waiting next;
        while ((next = waiting.peek()) != null) {
            Channel channel = next.channel;
            if (next.readyAtMs < 0) {
                long throttleMs = quotas.recordConnectionAndGetThrottleTimeMs(listener);
                next.readyAtMs = time.milliseconds() + throttleMs;
                if (throttleMs > 0) {
                    log.debug("Listener {} waits {} ms before accepting more connections: above its connection "
                        + "creation rate", listener, throttleMs);
                }
            }
            long remainingMs = next.readyAtMs - time.milliseconds();
            if (remainingMs > 0) {
                stopReading(context);
                if (throttleEnd == null || throttleEnd.isDone()) {
                    throttleEnd = context.executor().schedule(this::admitWaiting, remainingMs, TimeUnit.MILLISECONDS);
                }
                return;
            }
            SocketAddress remote = channel.remoteAddress();
            if (!(remote instanceof InetSocketAddress address) || address.getAddress() == null) {
                waiting.poll();
                channel.unsafe().closeForcibly(); // gone before it could be counted
                continue;
            }
            Activity activity = new Activity(channel);
            ConnectionQuotas.Admission admission = quotas.admit(listener, address.getAddress(), activity::close);
            switch (admission.outcome()) {
                case NO_SLOT -> {
                    stopReading(context);
                    return;
                }
                case TOO_MANY_FROM_ADDRESS -> {
                    waiting.poll();
                    channel.unsafe().closeForcibly(); // never registered: closed here, on the acceptor
                }
                case ADMITTED -> {
                    waiting.poll();
                    ConnectionQuotas.Connection connection = admission.connection();
                    activity.connection = connection;
                    channel.closeFuture().addListener(f -> quotas.closed(connection));
                    channel.pipeline().addFirst("activity", activity);
                    context.fireChannelRead(channel);
                }
            }
        }
        if (!context.channel().config().isAutoRead()) {
            context.channel().config().setAutoRead(true);
        }
    }

    private static void stopReading(ChannelHandlerContext context) {
        if (context.channel().config().isAutoRead()) {
            context.channel().config().setAutoRead(false);
        }
    }

    private void closeWaiting() {
        Waiting next;
        while ((next = waiting.poll()) != null) {
            next.channel.unsafe().closeForcibly();
        }
        if (throttleEnd != null) {
            throttleEnd.cancel(false);
        }
    }

    /**
     * First in an admitted connection's pipeline: marks the connection active on each read and
     * write, and closes it when {@link ConnectionQuotas} evicts it.
     */
    static final class Activity extends ChannelDuplexHandler {
        private final Channel channel;
        volatile ConnectionQuotas.Connection connection;
        private volatile boolean closeRequested;

        Activity(Channel channel) {
            this.channel = channel;
        }

        /** Closes the connection, from any thread; one admitted a moment ago closes once on its event loop. */
        void close() {
            closeRequested = true;
            try {
                channel.close();
            } catch (IllegalStateException notYetOnAnEventLoop) {
                // handlerAdded runs once it is registered, and closes it
            }
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            if (closeRequested) {
                ctx.channel().close();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            connection.recordActivity();
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            connection.recordActivity();
            ctx.write(msg, promise);
        }
    }
}
