package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.ReassignmentNotFoundException;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.TopicNotFoundException;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.NoReassignmentInProgressException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Service;

/**
 * Partition reassignments (KIP-455) behind the v3 API: the ongoing ones with their progress, starting
 * some (optionally throttled, see {@link ReplicationThrottles}) and cancelling one, as
 * {@code kafka-reassign-partitions} does. Knows nothing of HTTP. Thread-safe.
 */
@Service
public class ReassignmentsAdmin {

    /** An added replica's bytes on disk against the leader's (empty when not known) and whether it is in the ISR. */
    public record Progress(int brokerId, OptionalLong sizeBytes, OptionalLong leaderSizeBytes, boolean inSync) {
    }

    /** An ongoing reassignment with its partition's leader and ISR and the progress of each added replica. */
    public record Ongoing(TopicPartition partition, PartitionReassignment reassignment, Integer leader,
            List<Integer> isr, List<Progress> progress) {
    }

    private final Admin admin;
    private final ReplicationThrottles throttles;
    private final Callers callers;

    public ReassignmentsAdmin(Admin admin, ReplicationThrottles throttles, Callers callers) {
        this.admin = admin;
        this.throttles = throttles;
        this.callers = callers;
    }

    /** The ongoing reassignments, of every topic or of one, by topic and partition. */
    public List<Ongoing> ongoing(Optional<String> topic) {
        Map<TopicPartition, PartitionReassignment> all = KafkaFutures.get(admin.listPartitionReassignments()
            .reassignments());
        List<TopicPartition> partitions = all.keySet().stream().filter(tp -> topic.isEmpty()
                || tp.topic().equals(topic.get()))
            .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition)).toList();
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<String, TopicDescription> topics = KafkaFutures.get(admin.describeTopics(
            partitions.stream().map(TopicPartition::topic).distinct().toList()).allTopicNames());
        Set<Integer> brokers = new HashSet<>();
        all.values().forEach(r -> brokers.addAll(r.replicas()));
        Map<Integer, Map<TopicPartition, Long>> sizes = sizes(brokers);
        List<Ongoing> result = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            PartitionReassignment reassignment = all.get(tp);
            TopicPartitionInfo info = topics.get(tp.topic()).partitions().get(tp.partition());
            Integer leader = info.leader() == null || info.leader().isEmpty() ? null : info.leader().id();
            List<Integer> isr = info.isr().stream().map(Node::id).toList();
            List<Progress> progress = reassignment.addingReplicas().stream().map(b -> new Progress(b,
                size(sizes, b, tp), leader == null ? OptionalLong.empty() : size(sizes, leader, tp), isr.contains(b)))
                .toList();
            result.add(new Ongoing(tp, reassignment, leader, isr, progress));
        }
        return result;
    }

    /**
     * Starts moving each partition to its target replicas; with a throttle, sets it first (and clears it
     * once the topics' reassignments are over).
     *
     * @throws TopicNotFoundException when a topic or partition does not exist
     * @throws InvalidArgumentException for replicas the brokers refuse (unknown broker, duplicates)
     */
    public void start(Map<TopicPartition, List<Integer>> targets, OptionalLong throttleBytesPerSecond) {
        Set<String> names = new HashSet<>();
        targets.keySet().forEach(tp -> names.add(tp.topic()));
        Map<String, TopicDescription> topics = KafkaFutures.get(admin.describeTopics(names).allTopicNames(),
            cause -> cause instanceof UnknownTopicOrPartitionException
                ? new TopicNotFoundException(String.join(", ", names)) : null);
        Map<TopicPartition, List<Integer>> current = new HashMap<>();
        for (TopicPartition tp : targets.keySet()) {
            List<TopicPartitionInfo> partitions = topics.get(tp.topic()).partitions();
            if (tp.partition() < 0 || tp.partition() >= partitions.size()) {
                throw new InvalidArgumentException("Topic " + tp.topic() + " has no partition " + tp.partition());
            }
            current.put(tp, partitions.get(tp.partition()).replicas().stream().map(Node::id).toList());
        }
        if (throttleBytesPerSecond.isPresent()) {
            throttles.apply(admin, current, targets, throttleBytesPerSecond.getAsLong());
        }
        Map<TopicPartition, Optional<NewPartitionReassignment>> request = new HashMap<>();
        targets.forEach((tp, replicas) -> request.put(tp, Optional.of(new NewPartitionReassignment(replicas))));
        KafkaLogin caller = callers.current();
        try {
            KafkaFutures.get(admin.alterPartitionReassignments(request).all(), ReassignmentsAdmin::badRequest);
        } finally {
            if (throttleBytesPerSecond.isPresent()) {
                throttles.clearWhenDone(caller, names);
            }
        }
    }

    /**
     * Cancels a partition's reassignment (its replicas go back to those before it) and clears the
     * throttles no longer needed.
     *
     * @throws ReassignmentNotFoundException when no reassignment of that partition is in progress
     */
    public void cancel(TopicPartition partition) {
        Map<TopicPartition, Optional<NewPartitionReassignment>> request = new HashMap<>();
        request.put(partition, Optional.empty());
        KafkaFutures.get(admin.alterPartitionReassignments(request).all(), cause ->
            cause instanceof UnknownTopicOrPartitionException ? new TopicNotFoundException(partition.topic())
                : cause instanceof NoReassignmentInProgressException
                    ? new ReassignmentNotFoundException("No reassignment of " + partition + " is in progress.")
                    : badRequest(cause));
        throttles.clearFinished(admin, List.of(partition.topic()));
    }

    /** Bytes on disk of each replica, by broker; empty when the caller may not describe log directories. */
    private Map<Integer, Map<TopicPartition, Long>> sizes(Collection<Integer> brokers) {
        Map<Integer, Map<String, LogDirDescription>> dirs;
        try {
            dirs = KafkaFutures.get(admin.describeLogDirs(brokers).allDescriptions());
        } catch (KafkaOperationException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return Map.of();
            }
            throw e;
        }
        Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
        dirs.forEach((broker, byDir) -> byDir.values().forEach(dir -> {
            for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                sizes.computeIfAbsent(broker, b -> new HashMap<>()).merge(replica.getKey(), replica.getValue().size(),
                    Math::max);
            }
        }));
        return sizes;
    }

    private static OptionalLong size(Map<Integer, Map<TopicPartition, Long>> sizes, int broker, TopicPartition tp) {
        Long size = sizes.getOrDefault(broker, Map.of()).get(tp);
        return size == null ? (sizes.isEmpty() ? OptionalLong.empty() : OptionalLong.of(0)) : OptionalLong.of(size);
    }

    private static RestException badRequest(Throwable cause) {
        if (cause instanceof InvalidReplicaAssignmentException || cause instanceof InvalidRequestException) {
            return new InvalidArgumentException(KafkaErrors.describe(cause), cause);
        }
        return null;
    }
}
