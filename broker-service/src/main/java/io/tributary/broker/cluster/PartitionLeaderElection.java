package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The controller's choices of a partition leader, as Kafka's controller makes them: always in
 * the order of the assigned replicas, so the first (the preferred replica) wins when it can.
 * Pure functions of the assignment, the partition state and the live brokers.
 */
final class PartitionLeaderElection {

    private PartitionLeaderElection() {
    }

    /**
     * A leader from the ISR for a partition whose leader died or shuts down: the first assigned
     * replica that is in the ISR, alive and not shutting down; failing that, one that is only
     * shutting down (better than offline).
     */
    static Optional<Integer> fromIsr(List<Integer> replicas, List<Integer> isr, Set<Integer> live,
                                     Set<Integer> shuttingDown, int excluded) {
        Optional<Integer> eligible = replicas.stream()
            .filter(r -> r != excluded && isr.contains(r) && live.contains(r) && !shuttingDown.contains(r)).findFirst();
        if (eligible.isPresent()) {
            return eligible;
        }
        return replicas.stream().filter(r -> r != excluded && isr.contains(r) && live.contains(r)).findFirst();
    }

    /** Any live replica, in or out of the ISR (unclean election: what it lacks is lost). */
    static Optional<Integer> unclean(List<Integer> replicas, Set<Integer> live, Set<Integer> shuttingDown) {
        return replicas.stream().filter(r -> live.contains(r) && !shuttingDown.contains(r)).findFirst()
            .or(() -> replicas.stream().filter(live::contains).findFirst());
    }

    /** The preferred replica, when it is alive, in the ISR and not shutting down. */
    static Optional<Integer> preferred(List<Integer> replicas, List<Integer> isr, Set<Integer> live,
                                       Set<Integer> shuttingDown) {
        if (replicas.isEmpty()) {
            return Optional.empty();
        }
        int preferred = replicas.get(0);
        return isr.contains(preferred) && live.contains(preferred) && !shuttingDown.contains(preferred)
            ? Optional.of(preferred) : Optional.empty();
    }

    /**
     * Partitions to move back to their preferred replica ({@code auto.leader.rebalance.enable}):
     * for each broker, the partitions it is preferred for but does not lead, when they are more
     * than {@code imbalancePercentage} percent of the partitions it is preferred for
     * ({@code leader.imbalance.per.broker.percentage}).
     */
    static List<TopicPartition> imbalanced(Map<TopicPartition, List<Integer>> assignments,
                                           Map<TopicPartition, LeaderAndIsr> states, int imbalancePercentage) {
        Map<Integer, List<TopicPartition>> preferredFor = new HashMap<>();
        Map<Integer, List<TopicPartition>> notLed = new HashMap<>();
        assignments.forEach((tp, replicas) -> {
            LeaderAndIsr state = states.get(tp);
            if (replicas.isEmpty() || state == null) {
                return;
            }
            int preferred = replicas.get(0);
            preferredFor.computeIfAbsent(preferred, k -> new ArrayList<>()).add(tp);
            if (state.leader() != preferred) {
                notLed.computeIfAbsent(preferred, k -> new ArrayList<>()).add(tp);
            }
        });
        List<TopicPartition> out = new ArrayList<>();
        notLed.forEach((broker, tps) -> {
            double ratio = 100.0 * tps.size() / preferredFor.get(broker).size();
            if (ratio > imbalancePercentage) {
                out.addAll(tps);
            }
        });
        return out;
    }
}
