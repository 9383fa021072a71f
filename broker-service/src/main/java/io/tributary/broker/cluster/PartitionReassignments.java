package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition reassignment as Kafka's controller runs it (KIP-455): a partition moving from its
 * original replicas (ORS) to target replicas (TRS) first has all of them, TRS followed by the
 * ones leaving ({@code adding_replicas} and {@code removing_replicas} recorded in the topic's
 * node); the new replicas copy the log as followers; once every target replica is in the ISR,
 * leadership moves into TRS if needed, the ISR is cut to TRS, and the assignment becomes TRS,
 * so the removed replicas stop and delete their logs. A cancellation reverts to ORS.
 *
 * <p>Runs on the controller's event thread; every write goes through the controller's fenced,
 * versioned transactions ({@link ControllerWrites}).
 */
final class PartitionReassignments {

    private static final Logger log = LoggerFactory.getLogger(PartitionReassignments.class);

    private final MetadataCache metadataCache;
    private final ControllerWrites writes;

    PartitionReassignments(MetadataCache metadataCache, ControllerWrites writes) {
        this.metadataCache = metadataCache;
        this.writes = writes;
    }

    /**
     * Starts or cancels reassignments (AlterPartitionReassignments).
     *
     * @param targets                      per partition the target replicas, or empty to cancel
     * @param allowReplicationFactorChange whether a target may have another size (KIP-860)
     * @return per partition: NONE, UNKNOWN_TOPIC_OR_PARTITION, INVALID_REPLICA_ASSIGNMENT,
     *         INVALID_REPLICATION_FACTOR or NO_REASSIGNMENT_IN_PROGRESS
     */
    Map<TopicPartition, ApiError> alter(Map<TopicPartition, Optional<List<Integer>>> targets,
                                        boolean allowReplicationFactorChange) {
        Map<TopicPartition, ApiError> results = new LinkedHashMap<>();
        Map<String, TopicAssignment> updated = new LinkedHashMap<>();
        Map<String, List<TopicPartition>> byTopic = new LinkedHashMap<>();
        Set<Integer> registered = new HashSet<>();
        metadataCache.aliveBrokers().forEach(b -> registered.add(b.id()));
        for (Map.Entry<TopicPartition, Optional<List<Integer>>> e : targets.entrySet()) {
            TopicPartition tp = e.getKey();
            TopicAssignment assignment = updated.computeIfAbsent(tp.topic(), t -> metadataCache.topic(t).orElse(null));
            if (assignment == null || !assignment.replicas().containsKey(tp.partition())
                    || metadataCache.isPendingDeletion(tp.topic())) {
                results.put(tp, new ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, null));
                continue;
            }
            int p = tp.partition();
            List<Integer> original = assignment.originalReplicas(p);
            if (e.getValue().isEmpty()) {
                if (!assignment.isReassigning(p)) {
                    results.put(tp, new ApiError(Errors.NO_REASSIGNMENT_IN_PROGRESS, "No reassignment of " + tp));
                    continue;
                }
                // Leadership and ISR go back inside the original replicas before the new ones are dropped,
                // and never so that only an unclean election could follow (as KRaft's revert refuses).
                ApiError reverted = revertState(tp, original);
                if (reverted.isFailure()) {
                    results.put(tp, reverted);
                    continue;
                }
                updated.put(tp.topic(), assignment.withPartition(p, original, List.of(), List.of()));
                results.put(tp, ApiError.NONE);
                byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp);
                continue;
            }
            List<Integer> target = e.getValue().get();
            if (target.isEmpty() || new HashSet<>(target).size() != target.size()) {
                results.put(tp, new ApiError(Errors.INVALID_REPLICA_ASSIGNMENT,
                    "The target replicas " + target + " of " + tp + " are empty or repeat a broker"));
                continue;
            }
            if (!registered.containsAll(target)) {
                results.put(tp, new ApiError(Errors.INVALID_REPLICA_ASSIGNMENT,
                    "The target replicas " + target + " of " + tp + " name a broker that is not registered"));
                continue;
            }
            if (!allowReplicationFactorChange && target.size() != original.size()) {
                results.put(tp, new ApiError(Errors.INVALID_REPLICATION_FACTOR, "The target replicas " + target + " of "
                    + tp + " change its replication factor " + original.size() + " and that is not allowed"));
                continue;
            }
            List<Integer> adding = target.stream().filter(r -> !original.contains(r)).toList();
            List<Integer> removing = original.stream().filter(r -> !target.contains(r)).toList();
            List<Integer> all = new ArrayList<>(target);
            all.addAll(removing);
            updated.put(tp.topic(), assignment.withPartition(p, all, adding, removing));
            results.put(tp, ApiError.NONE);
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp);
        }
        for (Map.Entry<String, List<TopicPartition>> e : byTopic.entrySet()) {
            TopicAssignment assignment = updated.get(e.getKey());
            if (!writes.writeTopicAssignment(assignment, "reassign " + e.getValue())) {
                e.getValue().forEach(tp -> results.put(tp, new ApiError(Errors.CONCURRENT_TRANSACTIONS,
                    "The assignment of " + tp.topic() + " changed meanwhile; retry")));
            } else {
                log.info("Reassignment of {}: replicas {}, adding {}, removing {}", e.getValue(), assignment.replicas(),
                    assignment.addingReplicas(), assignment.removingReplicas());
            }
        }
        return results;
    }

    /**
     * Before a cancellation drops the replicas being added: they leave the ISR, and leadership
     * moves to a live in-sync original replica if one of them leads.
     *
     * @return NONE, or INVALID_REPLICA_ASSIGNMENT when no original replica is alive and in sync
     *         (dropping the others would lose acknowledged records), or CONCURRENT_TRANSACTIONS
     *         when the state changed meanwhile
     */
    private ApiError revertState(TopicPartition tp, List<Integer> original) {
        Optional<LeaderAndIsr> current = metadataCache.partitionState(tp);
        if (current.isEmpty()) {
            return ApiError.NONE;
        }
        LeaderAndIsr state = current.get();
        Set<Integer> live = liveBrokers();
        List<Integer> isr = state.isr().stream().filter(original::contains).toList();
        Optional<Integer> leader = original.contains(state.leader()) && live.contains(state.leader())
            ? Optional.of(state.leader())
            : original.stream().filter(r -> isr.contains(r) && live.contains(r)).findFirst();
        if (isr.isEmpty() || leader.isEmpty()) {
            return new ApiError(Errors.INVALID_REPLICA_ASSIGNMENT, "Cannot cancel the reassignment of " + tp
                + ": no original replica " + original + " is alive and in the ISR " + state.isr()
                + ", so only an unclean leader election could follow");
        }
        if (isr.size() == state.isr().size() && leader.get() == state.leader()) {
            return ApiError.NONE;
        }
        boolean written = writes.writePartitionState(tp, state.newLeader(leader.get(), isr, writes.controllerEpoch()),
            "reassignment cancelled: back to " + original);
        return written ? ApiError.NONE : new ApiError(Errors.CONCURRENT_TRANSACTIONS,
            "The state of " + tp + " changed meanwhile; retry");
    }

    private Set<Integer> liveBrokers() {
        Set<Integer> live = new HashSet<>();
        metadataCache.aliveBrokers().forEach(b -> live.add(b.id()));
        return live;
    }

    /**
     * Moves every reassignment of a topic on as far as it can: once all of a partition's target
     * replicas are in sync, leadership and ISR move into the target and the assignment becomes it.
     */
    void reconcile(TopicAssignment assignment) {
        TopicAssignment current = assignment;
        for (int p : assignment.replicas().keySet()) {
            if (!current.isReassigning(p)) {
                continue;
            }
            TopicPartition tp = new TopicPartition(assignment.topic(), p);
            Optional<LeaderAndIsr> state = metadataCache.partitionState(tp);
            List<Integer> target = current.targetReplicas(p);
            if (state.isEmpty() || !state.get().isr().containsAll(target)) {
                continue; // the new replicas are still catching up
            }
            LeaderAndIsr s = state.get();
            List<Integer> isr = s.isr().stream().filter(target::contains).toList();
            Set<Integer> live = liveBrokers();
            if (!target.contains(s.leader()) || !live.contains(s.leader()) || isr.size() < s.isr().size()) {
                int leader = target.contains(s.leader()) && live.contains(s.leader()) ? s.leader()
                    : target.stream().filter(r -> isr.contains(r) && live.contains(r)).findFirst()
                        .orElse(LeaderAndIsr.NO_LEADER);
                if (leader == LeaderAndIsr.NO_LEADER) {
                    continue;
                }
                if (!writes.writePartitionState(tp, s.newLeader(leader, isr, writes.controllerEpoch()),
                        "reassignment of " + tp + " complete: leader and ISR within " + target)) {
                    continue;
                }
            }
            TopicAssignment next = current.withPartition(p, target, List.of(), List.of());
            if (!writes.writeTopicAssignment(next, "reassignment of " + tp + " complete: replicas " + target)) {
                return; // the topic node changed: the next reconciliation reads it again
            }
            current = new TopicAssignment(next.topic(), next.topicId(), next.replicas(), next.addingReplicas(),
                next.removingReplicas(), next.zkVersion() + 1);
            log.info("Reassignment of {} completed: replicas {}", tp, target);
        }
    }
}
