package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.cluster.MetadataCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * One partition as Metadata and DescribeTopicPartitions describe it to a client on one listener,
 * from the broker's metadata cache (Kafka's {@code ZkMetadataCache.getPartitionMetadata}).
 *
 * @param leaderId        the leader, or -1 when there is none, it is not alive, or it has no end point
 *                        on the request's listener
 * @param leaderEpoch     the leader epoch, -1 for a partition without state
 * @param replicas        the assigned replicas, in assignment order
 * @param isr             the in-sync replicas
 * @param offlineReplicas replicas on dead brokers or on a failed log directory (KIP-112)
 * @param error           NONE; LEADER_NOT_AVAILABLE without a live leader; LISTENER_NOT_FOUND when the
 *                        live leader lacks the listener (LEADER_NOT_AVAILABLE instead for Metadata
 *                        before v6, as Kafka)
 */
record PartitionView(int leaderId, int leaderEpoch, List<Integer> replicas, List<Integer> isr,
                     List<Integer> offlineReplicas, Errors error) {

    PartitionView {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        offlineReplicas = List.copyOf(offlineReplicas);
    }

    /**
     * @param replicas               the partition's assigned replicas
     * @param listenerName           the listener the request came in on
     * @param listenerNotFoundErrors whether a leader without that listener is LISTENER_NOT_FOUND
     *                               (Metadata v6+) rather than LEADER_NOT_AVAILABLE
     */
    static PartitionView of(MetadataCache metadataCache, TopicPartition tp, List<Integer> replicas, String listenerName,
                            boolean listenerNotFoundErrors) {
        List<Integer> offline = replicas.stream().filter(r -> metadataCache.broker(r)
            .map(b -> b.offlineReplicas().contains(tp)).orElse(true)).toList();
        Optional<LeaderAndIsr> state = metadataCache.partitionState(tp);
        if (state.isEmpty() || !state.get().hasLeader()) {
            return new PartitionView(-1, state.map(LeaderAndIsr::leaderEpoch).orElse(-1), replicas,
                state.map(s -> (List<Integer>) new ArrayList<>(s.isr())).orElse(List.of()), offline,
                Errors.LEADER_NOT_AVAILABLE);
        }
        LeaderAndIsr s = state.get();
        Optional<BrokerInfo> leader = metadataCache.broker(s.leader());
        Errors error = Errors.NONE;
        if (leader.isEmpty()) {
            error = Errors.LEADER_NOT_AVAILABLE;
        } else if (leader.get().endPoint(listenerName).isEmpty()) {
            error = listenerNotFoundErrors ? Errors.LISTENER_NOT_FOUND : Errors.LEADER_NOT_AVAILABLE;
        }
        return new PartitionView(error == Errors.NONE ? s.leader() : -1, s.leaderEpoch(), replicas,
            new ArrayList<>(s.isr()), offline, error);
    }
}
