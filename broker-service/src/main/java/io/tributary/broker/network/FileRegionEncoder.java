package io.tributary.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;

/**
 * Reads a file slice of a fetch response into a buffer, for TLS connections: {@code sendfile}
 * cannot encrypt, so on SSL and SASL_SSL listeners record bytes are copied once from the segment
 * into a pooled direct buffer that the TLS handler encrypts, as Kafka does. Plaintext listeners
 * do not have this handler and keep the zero-copy path.
 *
 * <p>Stateless; runs on the connection's event loop.
 */
final class FileRegionEncoder extends MessageToMessageEncoder<SharedFileRegion> {

    @Override
    protected void encode(ChannelHandlerContext ctx, SharedFileRegion region, List<Object> out) throws IOException {
        int count = Math.toIntExact(region.count());
        ByteBuf buffer = ctx.alloc().directBuffer(count);
        try {
            long position = region.position();
            int remaining = count;
            while (remaining > 0) {
                int read = buffer.writeBytes(region.channel(), position, remaining);
                if (read < 0) {
                    throw new EOFException("Segment ended " + remaining + " bytes before the fetched slice's end");
                }
                position += read;
                remaining -= read;
            }
        } catch (IOException | RuntimeException e) {
            buffer.release();
            throw e;
        }
        out.add(buffer);
    }
}
