package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;

/**
 * Places partition replicas on brokers as Kafka's {@code AdminUtils.assignReplicasToBrokers}
 * does without racks: the first replica of each partition round-robin from a random broker, the
 * others shifted so that leaders and followers spread evenly. Thread-safe.
 */
public final class ReplicaAssignor {

    private final Random random;

    public ReplicaAssignor(Random random) {
        this.random = random;
    }

    /**
     * Assigns partitions {@code firstPartition .. firstPartition + partitions - 1}.
     *
     * @param brokerIds         candidate brokers
     * @param replicationFactor replicas per partition
     * @throws InvalidReplicationFactorException when there are fewer brokers than replicas
     */
    public Map<Integer, List<Integer>> assign(List<Integer> brokerIds, int firstPartition, int partitions,
                                              int replicationFactor) {
        List<Integer> brokers = brokerIds.stream().sorted().toList();
        int n = brokers.size();
        if (replicationFactor <= 0) {
            throw new InvalidReplicationFactorException("Replication factor must be larger than 0.");
        }
        if (replicationFactor > n) {
            throw new InvalidReplicationFactorException("Replication factor: " + replicationFactor
                + " larger than available brokers: " + n + ".");
        }
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        int startIndex = random.nextInt(n);
        int nextReplicaShift = random.nextInt(n);
        int currentPartition = firstPartition;
        for (int i = 0; i < partitions; i++) {
            if (currentPartition > 0 && currentPartition % n == 0) {
                nextReplicaShift++;
            }
            int firstReplicaIndex = (currentPartition + startIndex) % n;
            List<Integer> replicas = new ArrayList<>();
            replicas.add(brokers.get(firstReplicaIndex));
            for (int j = 0; j < replicationFactor - 1; j++) {
                replicas.add(brokers.get(replicaIndex(firstReplicaIndex, nextReplicaShift, j, n)));
            }
            assignment.put(currentPartition, replicas);
            currentPartition++;
        }
        return assignment;
    }

    private static int replicaIndex(int firstReplicaIndex, int secondReplicaShift, int replicaIndex, int n) {
        int shift = 1 + (secondReplicaShift + replicaIndex) % (n - 1);
        return (firstReplicaIndex + shift) % n;
    }
}
