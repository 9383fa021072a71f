package io.tributary.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Kafka's request framing (a 4-byte big-endian size, then that many bytes) with two limits on the
 * size, which as in Kafka's {@code NetworkReceive} does not count the 4 bytes of the size itself:
 * at most {@code socket.request.max.bytes}, and, until a SASL connection has authenticated, at
 * most {@code sasl.server.max.receive.size} (Kafka's default 512 KiB), so an unauthenticated
 * client cannot make the broker buffer a large frame. A frame over the limit, or a negative size,
 * fails with {@link TooLongFrameException}, which closes the connection.
 *
 * <p>Not thread-safe: confined to the connection's event loop, like the authenticator that lifts
 * the limit.
 */
final class KafkaFrameDecoder extends LengthFieldBasedFrameDecoder {

    private int unauthenticatedMaxBytes;

    /**
     * @param maxRequestBytes          {@code socket.request.max.bytes}
     * @param unauthenticatedMaxBytes  the limit before authentication; {@link Integer#MAX_VALUE} for none
     */
    KafkaFrameDecoder(int maxRequestBytes, int unauthenticatedMaxBytes) {
        // Netty's limit is on the whole frame, size field included.
        super((int) Math.min(Integer.MAX_VALUE, maxRequestBytes + 4L), 0, 4, 0, 4);
        this.unauthenticatedMaxBytes = unauthenticatedMaxBytes;
    }

    /** Lifts the pre-authentication limit (the connection authenticated). */
    void authenticated() {
        unauthenticatedMaxBytes = Integer.MAX_VALUE;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (unauthenticatedMaxBytes != Integer.MAX_VALUE && in.readableBytes() >= 4) {
            long size = in.getUnsignedInt(in.readerIndex());
            if (size > unauthenticatedMaxBytes) {
                in.skipBytes(in.readableBytes());
                throw new TooLongFrameException("Frame of " + size + " bytes before authentication; at most "
                    + unauthenticatedMaxBytes + " (sasl.server.max.receive.size)");
            }
        }
        return super.decode(ctx, in);
    }
}
