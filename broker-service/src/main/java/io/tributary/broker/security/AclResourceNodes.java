package io.tributary.broker.security;

import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes the ACL node of one resource pattern ({@link AclZNodes}). A change is a
 * conditional write of the node (its version as read; a create when it did not exist; a delete
 * when no ACL is left, as Kafka's {@code AclAuthorizer.updateResourceAcls}) and its change
 * notification in one ZooKeeper transaction, retried when another writer changed the node in
 * between, so two brokers adding ACLs to one resource at once keep both.
 *
 * <p>Blocking; thread-safe. Failures surface as {@link ZooKeeperClientException}.
 */
final class AclResourceNodes {

    private static final Logger log = LoggerFactory.getLogger(AclResourceNodes.class);
    /** How often a change is retried when another writer changed the node in between. */
    private static final int MAX_WRITE_ATTEMPTS = 20;

    private final KafkaZkClient zkClient;

    AclResourceNodes(KafkaZkClient zkClient) {
        this.zkClient = zkClient;
    }

    /** A resource's ACLs as stored, with the node's version (-1: no node). */
    record VersionedAcls(Set<AccessControlEntry> acls, int version) {
        static final VersionedAcls NONE = new VersionedAcls(Set.of(), -1);

        boolean exists() {
            return version >= 0;
        }
    }

    /** Creates the roots, the resource type nodes and the change roots when missing. */
    void ensurePaths() {
        zkClient.ensurePaths(AclZNodes.persistentPaths());
    }

    /**
     * A resource's ACLs; {@link VersionedAcls#NONE} when it has no node.
     *
     * @throws IllegalArgumentException when the node holds no valid ACL JSON
     */
    VersionedAcls read(ResourcePattern pattern) {
        String path = AclZNodes.path(pattern);
        return call(() -> {
            try {
                Stat stat = new Stat();
                byte[] data = curator().getData().storingStatIn(stat).forPath(path);
                List<AccessControlEntry> acls = AclZNodes.decode(data, path,
                    entry -> log.warn("Ignoring an ACL entry of {} that names no known operation or permission: {}", path, entry));
                return new VersionedAcls(new LinkedHashSet<>(acls), stat.getVersion());
            } catch (KeeperException.NoNodeException e) {
                return VersionedAcls.NONE;
            }
        }, "read " + path);
    }

    /**
     * Changes a resource's ACLs and writes its change notification, in one transaction; writes
     * nothing when the change leaves the ACLs as they are.
     *
     * @param change from the current ACLs (empty without a node) to the new ones, in order; may run
     *               more than once (after a concurrent change)
     * @return the ACLs before and after the change that was written (or found unchanged)
     * @throws ZooKeeperClientException when ZooKeeper fails, or the node keeps changing under us
     * @throws IllegalArgumentException when the node holds no valid ACL JSON (it is left as it is)
     */
    Change update(ResourcePattern pattern, UnaryOperator<Set<AccessControlEntry>> change) {
        String path = AclZNodes.path(pattern);
        for (int attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
            VersionedAcls current = read(pattern);
            Set<AccessControlEntry> next = new LinkedHashSet<>(change.apply(new LinkedHashSet<>(current.acls())));
            if (next.equals(current.acls())) {
                return new Change(current.acls(), next);
            }
            boolean written = call(() -> {
                List<CuratorOp> ops = new ArrayList<>(2);
                if (next.isEmpty()) {
                    ops.add(curator().transactionOp().delete().withVersion(current.version()).forPath(path));
                } else if (current.exists()) {
                    ops.add(curator().transactionOp().setData().withVersion(current.version())
                        .forPath(path, AclZNodes.encode(next)));
                } else {
                    ops.add(curator().transactionOp().create().forPath(path, AclZNodes.encode(next)));
                }
                ops.add(curator().transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(AclZNodes.changeNotificationPrefix(pattern), AclZNodes.changeNotification(pattern)));
                try {
                    curator().transaction().forOperations(ops);
                    return true;
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    return false; // changed, created or deleted meanwhile: read again
                }
            }, "write " + path);
            if (written) {
                return new Change(current.acls(), next);
            }
        }
        throw new ZooKeeperClientException("Could not write " + path + ": changed concurrently " + MAX_WRITE_ATTEMPTS
            + " times in a row");
    }

    /** A resource's ACLs before and after a change. */
    record Change(Set<AccessControlEntry> before, Set<AccessControlEntry> after) {
    }

    private CuratorFramework curator() {
        return zkClient.curator();
    }

    private static <T> T call(KafkaZkClient.ZkCall<T> zkCall, String what) {
        return KafkaZkClient.run(zkCall, what);
    }
}
