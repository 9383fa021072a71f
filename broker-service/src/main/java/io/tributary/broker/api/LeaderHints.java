package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.config.EndPoint;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * The new leader of a partition, for a Produce (v10+) or Fetch (v16+) answered
 * NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH (KIP-951): the partition's {@code CurrentLeader}
 * (id and leader epoch, from this broker's metadata) and, once per leader, its endpoint on the
 * request's listener in {@code NodeEndpoints}, so a client moves to the new leader without a
 * Metadata round trip. One instance per response. Not thread-safe.
 */
final class LeaderHints {

    /** A leader's id and endpoint on the request's listener. */
    record Node(int id, String host, int port, String rack) {
    }

    private final MetadataCache metadataCache;
    private final String listenerName;
    private final Map<Integer, Node> nodes = new LinkedHashMap<>();

    LeaderHints(MetadataCache metadataCache, String listenerName) {
        this.metadataCache = metadataCache;
        this.listenerName = listenerName;
    }

    /** Whether a partition answered {@code error} carries a leader hint. */
    static boolean wanted(Errors error) {
        return error == Errors.NOT_LEADER_OR_FOLLOWER || error == Errors.FENCED_LEADER_EPOCH;
    }

    /**
     * The partition's leader and leader epoch as this broker knows them, when it has a leader
     * reachable on the request's listener; the leader's endpoint is kept for {@link #nodes}.
     */
    Optional<LeaderAndIsr> leaderOf(TopicPartition tp) {
        Optional<LeaderAndIsr> state = metadataCache.partitionState(tp).filter(s -> s.leader() >= 0);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        int leader = state.get().leader();
        Optional<BrokerInfo> broker = metadataCache.broker(leader);
        Optional<EndPoint> endPoint = broker.flatMap(b -> b.endPoint(listenerName));
        if (endPoint.isEmpty()) {
            return Optional.empty();
        }
        nodes.putIfAbsent(leader, new Node(leader, endPoint.get().host(), endPoint.get().port(), broker.get().rack()));
        return state;
    }

    /** The endpoints of the leaders named so far, once each. */
    Iterable<Node> nodes() {
        return nodes.values();
    }
}
