package io.tributary.broker.network;

import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;

/**
 * Turns a kafka-clients {@link Send} (a response built by the library's codec) into Netty
 * messages without copying: header and body buffers are wrapped, file slices become
 * {@link SharedFileRegion}s written with {@code sendfile}. The frame's size prefix is part of
 * the first buffer, so the length is known before any file bytes go out.
 *
 * <p>Not thread-safe; one instance per response.
 */
final class NettySendAdapter implements TransferableChannel {

    private final List<Object> messages = new ArrayList<>();

    /** Collects the whole send as Netty messages, in order. */
    static List<Object> toMessages(Send send) throws java.io.IOException {
        NettySendAdapter adapter = new NettySendAdapter();
        while (!send.completed()) {
            send.writeTo(adapter);
        }
        return adapter.messages;
    }

    @Override
    public boolean hasPendingWrites() {
        return false;
    }

    @Override
    public long transferFrom(FileChannel fileChannel, long position, long count) {
        if (count > 0) {
            messages.add(new SharedFileRegion(fileChannel, position, count));
        }
        return count;
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
        if (n > 0) {
            messages.add(Unpooled.wrappedBuffer(src.slice()));
            src.position(src.limit());
        }
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
