package io.tributary.broker.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;

/**
 * Places partition replicas on brokers as Kafka's {@code AdminUtils.assignReplicasToBrokers} does.
 *
 * <p>Without racks: the first replica (the preferred leader) of each partition round-robin from a
 * random broker, the others shifted so that leaders and followers spread evenly.
 *
 * <p>With racks ({@code broker.rack} on every broker): the brokers are first listed alternating
 * between racks (one broker of each rack in turn), the first replica goes round-robin over that
 * list, and each further replica goes to the next broker, in the same shifted walk, whose rack
 * holds no replica of the partition yet, until every rack holds one (then to any broker without a
 * replica). So a partition survives the loss of a rack whenever it has at least as many replicas
 * as there are racks, and leaders still spread over brokers and racks. When only some brokers have
 * a rack, racks are ignored (Kafka's "safe" mode) rather than refusing the topic.
 *
 * <p>Thread-safe.
 */
public final class ReplicaAssignor {

    private final Random random;

    public ReplicaAssignor(Random random) {
        this.random = random;
    }

    /**
     * Assigns partitions {@code firstPartition .. firstPartition + partitions - 1}, rack-aware when
     * every broker has a rack.
     *
     * @param brokerRacks       candidate brokers, id to rack (an empty {@code Optional} without one)
     * @param replicationFactor replicas per partition
     * @return partition to replica broker ids, the preferred leader first
     * @throws InvalidReplicationFactorException when there are fewer brokers than replicas
     */
    public Map<Integer, List<Integer>> assign(Map<Integer, Optional<String>> brokerRacks, int firstPartition,
                                              int partitions, int replicationFactor) {
        boolean rackAware = !brokerRacks.isEmpty() && brokerRacks.values().stream().allMatch(Optional::isPresent);
        if (!rackAware) {
            return assign(List.copyOf(brokerRacks.keySet()), firstPartition, partitions, replicationFactor);
        }
        checkReplicationFactor(replicationFactor, brokerRacks.size());
        Map<Integer, String> rackOf = new TreeMap<>();
        brokerRacks.forEach((id, rack) -> rackOf.put(id, rack.get()));
        List<Integer> brokers = rackAlternated(rackOf);
        int n = brokers.size();
        int racks = (int) rackOf.values().stream().distinct().count();
        return place(brokers, firstPartition, partitions, (firstReplicaIndex, nextReplicaShift) -> {
            int leader = brokers.get(firstReplicaIndex);
            List<Integer> replicas = new ArrayList<>(List.of(leader));
            Set<String> racksWithReplicas = new HashSet<>(Set.of(rackOf.get(leader)));
            Set<Integer> brokersWithReplicas = new HashSet<>(Set.of(leader));
            int k = 0;
            while (replicas.size() < replicationFactor) {
                int broker = brokers.get(replicaIndex(firstReplicaIndex, nextReplicaShift * racks, k++, n));
                String rack = rackOf.get(broker);
                // Skip a broker whose rack already has a replica while some rack has none, and a broker that has
                // a replica while some broker has none.
                if ((!racksWithReplicas.contains(rack) || racksWithReplicas.size() == racks)
                        && (!brokersWithReplicas.contains(broker) || brokersWithReplicas.size() == n)) {
                    replicas.add(broker);
                    racksWithReplicas.add(rack);
                    brokersWithReplicas.add(broker);
                }
            }
            return replicas;
        });
    }

    /**
     * The brokers listed rack by rack in turn (racks and brokers in id order), e.g. racks
     * {@code a: 0,1,2; b: 3; c: 4,5} give {@code 0,3,4,1,5,2}.
     */
    static List<Integer> rackAlternated(Map<Integer, String> rackOf) {
        Map<String, List<Integer>> byRack = new TreeMap<>();
        rackOf.forEach((broker, rack) -> byRack.computeIfAbsent(rack, r -> new ArrayList<>()).add(broker));
        List<Iterator<Integer>> iterators = new ArrayList<>();
        byRack.values().forEach(ids -> iterators.add(ids.stream().sorted().iterator()));
        List<Integer> result = new ArrayList<>();
        for (int rack = 0; result.size() < rackOf.size(); rack = (rack + 1) % iterators.size()) {
            if (iterators.get(rack).hasNext()) {
                result.add(iterators.get(rack).next());
            }
        }
        return result;
    }

    /**
     * Assigns partitions {@code firstPartition .. firstPartition + partitions - 1}, ignoring racks.
     *
     * @param brokerIds         candidate brokers
     * @param replicationFactor replicas per partition
     * @throws InvalidReplicationFactorException when there are fewer brokers than replicas
     */
    public Map<Integer, List<Integer>> assign(List<Integer> brokerIds, int firstPartition, int partitions,
                                              int replicationFactor) {
        List<Integer> brokers = brokerIds.stream().sorted().toList();
        int n = brokers.size();
        checkReplicationFactor(replicationFactor, n);
        return place(brokers, firstPartition, partitions, (firstReplicaIndex, nextReplicaShift) -> {
            List<Integer> replicas = new ArrayList<>();
            replicas.add(brokers.get(firstReplicaIndex));
            for (int j = 0; j < replicationFactor - 1; j++) {
                replicas.add(brokers.get(replicaIndex(firstReplicaIndex, nextReplicaShift, j, n)));
            }
            return replicas;
        });
    }

    /** Chooses a partition's replicas from the index of its first replica and the current shift. */
    private interface Placement {
        List<Integer> replicas(int firstReplicaIndex, int nextReplicaShift);
    }

    /**
     * The walk both placements share: the first replica of each partition round-robin over
     * {@code brokers} from a random start, the shift of the others growing by one each time the
     * partitions have gone once round the brokers.
     */
    private Map<Integer, List<Integer>> place(List<Integer> brokers, int firstPartition, int partitions,
                                              Placement placement) {
        int n = brokers.size();
        Map<Integer, List<Integer>> assignment = new TreeMap<>();
        int startIndex = random.nextInt(n);
        int nextReplicaShift = random.nextInt(n);
        int currentPartition = firstPartition;
        for (int i = 0; i < partitions; i++) {
            if (currentPartition > 0 && currentPartition % n == 0) {
                nextReplicaShift++;
            }
            assignment.put(currentPartition, placement.replicas((currentPartition + startIndex) % n, nextReplicaShift));
            currentPartition++;
        }
        return assignment;
    }

    private static void checkReplicationFactor(int replicationFactor, int brokers) {
        if (replicationFactor <= 0) {
            throw new InvalidReplicationFactorException("Replication factor must be larger than 0.");
        }
        if (replicationFactor > brokers) {
            throw new InvalidReplicationFactorException("Replication factor: " + replicationFactor
                + " larger than available brokers: " + brokers + ".");
        }
    }

    private static int replicaIndex(int firstReplicaIndex, int secondReplicaShift, int replicaIndex, int n) {
        int shift = 1 + (secondReplicaShift + replicaIndex) % (n - 1);
        return (firstReplicaIndex + shift) % n;
    }
}
