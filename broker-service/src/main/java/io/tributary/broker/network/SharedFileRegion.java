package io.tributary.broker.network;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A file slice sent with {@code sendfile} (Netty's native transports special-case
 * {@link DefaultFileRegion}) that leaves the file open when released: the channel belongs to a
 * log segment and is shared by every fetch.
 */
final class SharedFileRegion extends DefaultFileRegion {

    private final FileChannel channel;

    SharedFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
        this.channel = channel;
    }

    /** The segment's file, for readers that cannot use {@code sendfile} (TLS). */
    FileChannel channel() {
        return channel;
    }

    @Override
    protected void deallocate() {
        // The segment owns the channel and closes it when the segment is deleted or closed.
    }
}
