package io.tributary.broker.cluster;

import org.apache.zookeeper.KeeperException;

/** A ZooKeeper operation failed; {@link #isBadVersion()} tells a lost conditional write. */
public class ZooKeeperClientException extends RuntimeException {

    public ZooKeeperClientException(String message) {
        super(message);
    }

    public ZooKeeperClientException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether a conditional write failed because the node changed (a concurrent writer won). */
    public boolean isBadVersion() {
        return getCause() instanceof KeeperException.BadVersionException;
    }

    /** Whether the node to write already existed. */
    public boolean isNodeExists() {
        return getCause() instanceof KeeperException.NodeExistsException;
    }
}
