package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader elections asked for by an operator (ElectLeaders, KIP-183 and KIP-460) and the
 * controller's periodic move of leaders back to their preferred replicas
 * ({@code auto.leader.rebalance.enable}). Runs on the controller's event thread and writes
 * through its fenced transactions; the choices are {@link PartitionLeaderElection}'s.
 */
final class LeaderElections {

    private static final Logger log = LoggerFactory.getLogger(LeaderElections.class);

    private final MetadataCache metadataCache;
    private final ControllerWrites writes;

    LeaderElections(MetadataCache metadataCache, ControllerWrites writes) {
        this.metadataCache = metadataCache;
        this.writes = writes;
    }

    /** Every partition of every topic. */
    List<TopicPartition> allPartitions() {
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : metadataCache.topicNames()) {
            metadataCache.topic(topic).ifPresent(t -> t.replicas().keySet().forEach(p -> all.add(new TopicPartition(topic, p))));
        }
        return all;
    }

    /**
     * PREFERRED moves leadership to the preferred replica when it is alive and in sync; UNCLEAN
     * elects a live replica for a partition without a live leader, from the ISR when it can.
     *
     * @return per partition: NONE, ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE,
     *         ELIGIBLE_LEADERS_NOT_AVAILABLE or UNKNOWN_TOPIC_OR_PARTITION
     */
    Map<TopicPartition, Errors> elect(ElectionType type, Collection<TopicPartition> partitions) {
        Set<Integer> live = metadataCache.aliveBrokers().stream().map(BrokerInfo::id).collect(Collectors.toSet());
        Set<Integer> shuttingDown = metadataCache.aliveBrokers().stream().filter(BrokerInfo::shuttingDown)
            .map(BrokerInfo::id).collect(Collectors.toSet());
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            List<Integer> replicas = metadataCache.topic(tp.topic()).map(t -> t.replicas().get(tp.partition())).orElse(null);
            Optional<LeaderAndIsr> current = metadataCache.partitionState(tp);
            if (replicas == null || current.isEmpty() || metadataCache.isPendingDeletion(tp.topic())) {
                results.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                continue;
            }
            LeaderAndIsr state = current.get();
            Optional<Integer> leader;
            if (type == ElectionType.PREFERRED) {
                if (state.leader() == replicas.get(0)) {
                    results.put(tp, Errors.ELECTION_NOT_NEEDED);
                    continue;
                }
                leader = PartitionLeaderElection.preferred(replicas, state.isr(), live, shuttingDown);
                if (leader.isEmpty()) {
                    results.put(tp, Errors.PREFERRED_LEADER_NOT_AVAILABLE);
                    continue;
                }
                List<Integer> isr = state.isr().stream().filter(live::contains).toList();
                boolean written = writes.writePartitionState(tp,
                    state.newLeader(leader.get(), isr, writes.controllerEpoch()), "preferred leader election");
                results.put(tp, written ? Errors.NONE : Errors.PREFERRED_LEADER_NOT_AVAILABLE);
            } else {
                if (state.hasLeader() && live.contains(state.leader())) {
                    results.put(tp, Errors.ELECTION_NOT_NEEDED);
                    continue;
                }
                leader = PartitionLeaderElection.fromIsr(replicas, state.isr(), live, shuttingDown, -1)
                    .or(() -> PartitionLeaderElection.unclean(replicas, live, shuttingDown));
                if (leader.isEmpty()) {
                    results.put(tp, Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE);
                    continue;
                }
                List<Integer> isr = state.isr().contains(leader.get())
                    ? state.isr().stream().filter(live::contains).toList() : List.of(leader.get());
                boolean written = writes.writePartitionState(tp,
                    state.newLeader(leader.get(), isr, writes.controllerEpoch()), "unclean leader election by request");
                results.put(tp, written ? Errors.NONE : Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE);
            }
        }
        return results;
    }

    /**
     * Moves leaders back to preferred replicas for every broker that leads fewer than its share
     * ({@code leader.imbalance.per.broker.percentage} of its preferred partitions led elsewhere).
     */
    void moveLeadersToPreferredReplicas(int imbalancePercentage) {
        Map<TopicPartition, List<Integer>> assignments = new HashMap<>();
        Map<TopicPartition, LeaderAndIsr> states = new HashMap<>();
        for (TopicPartition tp : allPartitions()) {
            if (metadataCache.isPendingDeletion(tp.topic())) {
                continue;
            }
            metadataCache.topic(tp.topic()).map(t -> t.replicas().get(tp.partition())).ifPresent(r -> assignments.put(tp, r));
            metadataCache.partitionState(tp).ifPresent(st -> states.put(tp, st));
        }
        List<TopicPartition> imbalanced = PartitionLeaderElection.imbalanced(assignments, states, imbalancePercentage);
        if (!imbalanced.isEmpty()) {
            var results = elect(ElectionType.PREFERRED, imbalanced);
            log.info("Leader imbalance check moved leaders back to preferred replicas: {}", results);
        }
    }
}
