package io.tributary.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;

/**
 * Turns a file slice of a fetch response into chunks read from the segment, for TLS connections:
 * {@code sendfile} cannot encrypt, so on SSL and SASL_SSL listeners record bytes are copied from the
 * segment into pooled buffers of at most {@value #CHUNK_BYTES} bytes that the TLS handler encrypts,
 * as Kafka does. A {@link ChunkedWriteHandler} nearer the socket reads the next chunk only when the
 * connection is writable, so a large fetch never sits in memory whole. Plaintext listeners do not
 * have this handler and keep the zero-copy path.
 *
 * <p>Stateless; runs on the connection's event loop.
 */
final class FileRegionEncoder extends MessageToMessageEncoder<SharedFileRegion> {

    /** Largest chunk read from a segment at once, bytes. */
    static final int CHUNK_BYTES = 64 * 1024;

    @Override
    protected void encode(ChannelHandlerContext ctx, SharedFileRegion region, List<Object> out) {
        out.add(new SegmentSlice(region));
    }

    /** A segment slice read in chunks; the segment's channel stays open (the segment owns it). */
    private static final class SegmentSlice implements ChunkedInput<ByteBuf> {

        private final SharedFileRegion region;
        private final long end;
        private long position;

        SegmentSlice(SharedFileRegion region) {
            this.region = region;
            this.position = region.position();
            this.end = region.position() + region.count();
        }

        @Override
        public boolean isEndOfInput() {
            return position >= end;
        }

        @Override
        public void close() {
            // The segment owns the channel.
        }

        @Deprecated
        @Override
        public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
            return readChunk(ctx.alloc());
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
            if (isEndOfInput()) {
                return null;
            }
            int size = (int) Math.min(CHUNK_BYTES, end - position);
            ByteBuf chunk = allocator.directBuffer(size);
            try {
                int remaining = size;
                while (remaining > 0) {
                    int read = chunk.writeBytes(region.channel(), position, remaining);
                    if (read < 0) {
                        throw new EOFException("Segment ended " + (end - position) + " bytes before the fetched"
                            + " slice's end");
                    }
                    position += read;
                    remaining -= read;
                }
                return chunk;
            } catch (IOException | RuntimeException e) {
                chunk.release();
                throw e;
            }
        }

        @Override
        public long length() {
            return region.count();
        }

        @Override
        public long progress() {
            return position - region.position();
        }
    }
}
