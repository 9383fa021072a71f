package io.tributary.broker.replica;

import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.log.PartitionLog;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.replica.ClientMetadata;
import org.apache.kafka.common.replica.PartitionView;
import org.apache.kafka.common.replica.ReplicaSelector;
import org.apache.kafka.common.replica.ReplicaView;

/**
 * Which replica a consumer should read from (KIP-392): the configured
 * {@code replica.selector.class} chooses among this leader and the in-sync followers that hold
 * the fetch offset, each described with its rack, log end offset and time since it was caught up.
 * Without a selector every consumer stays on the leader.
 *
 * <p>Thread-safe.
 */
final class ReadReplicaSelection {

    private final int brokerId;
    private final MetadataCache metadataCache;
    private final ReplicaSelector selector;

    /**
     * @param selector {@code replica.selector.class} (KIP-392), or null to keep consumers on the leader
     */
    ReadReplicaSelection(int brokerId, MetadataCache metadataCache, ReplicaSelector selector) {
        this.brokerId = brokerId;
        this.metadataCache = metadataCache;
        this.selector = selector;
    }

    /**
     * @return the broker id of the replica to read {@code fetchOffset} from, or -1 for this leader
     */
    int preferredReadReplica(Partition partition, PartitionLog partitionLog, long fetchOffset, ClientMetadata client) {
        ReplicaSelector current = selector;
        if (current == null) {
            return -1;
        }
        Optional<Node> leaderNode = node(brokerId, client.listenerName());
        if (leaderNode.isEmpty()) {
            return -1;
        }
        ReplicaView leader = new ReplicaView.DefaultReplicaView(leaderNode.get(), partitionLog.logEndOffset(), 0);
        Set<ReplicaView> views = new HashSet<>();
        views.add(leader);
        for (ReadReplicaCandidate c : partition.readReplicaCandidates(fetchOffset)) {
            node(c.brokerId(), client.listenerName()).ifPresent(n -> views.add(
                new ReplicaView.DefaultReplicaView(n, c.logEndOffset(), c.timeSinceCaughtUpMs())));
        }
        return current.select(partition.topicPartition(), client, new PartitionView.DefaultPartitionView(views, leader))
            .map(v -> v.endpoint().id()).filter(id -> id != brokerId).orElse(-1);
    }

    /** A broker's address on the client's listener, with its rack. */
    private Optional<Node> node(int id, String listenerName) {
        return metadataCache.broker(id).flatMap(b -> b.endPoint(listenerName)
            .map(e -> new Node(id, e.host(), e.port(), b.rack())));
    }
}
