package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.junit.jupiter.api.Test;

class ReplicaAssignorTest {

    @Test
    void everyPartitionHasOneReplicaPerRackWhenThereAreAsManyReplicasAsRacks() {
        Map<Integer, Optional<String>> brokers = racks("a", "a", "b", "b", "c", "c");
        for (int seed = 0; seed < 20; seed++) {
            Map<Integer, List<Integer>> assignment = new ReplicaAssignor(new Random(seed)).assign(brokers, 0, 12, 3);

            assertThat(assignment).hasSize(12);
            for (List<Integer> replicas : assignment.values()) {
                Set<String> racksUsed = new HashSet<>();
                replicas.forEach(b -> racksUsed.add(brokers.get(b).get()));
                assertThat(racksUsed).as("partition %s", replicas).hasSize(3);
                assertThat(new HashSet<>(replicas)).hasSize(3);
            }
            assertThat(count(assignment, true)).as("leaders per broker").containsOnlyKeys(0, 1, 2, 3, 4, 5)
                .allSatisfy((broker, leaders) -> assertThat(leaders).isEqualTo(2));
            assertThat(count(assignment, false)).as("replicas per broker")
                .allSatisfy((broker, replicas) -> assertThat(replicas).isEqualTo(6));
        }
    }

    @Test
    void moreReplicasThanRacksStillUseEveryRackAndNeverABrokerTwice() {
        Map<Integer, Optional<String>> brokers = racks("a", "a", "a", "b");
        Map<Integer, List<Integer>> assignment = new ReplicaAssignor(new Random(7)).assign(brokers, 0, 8, 3);

        for (List<Integer> replicas : assignment.values()) {
            assertThat(new HashSet<>(replicas)).hasSize(3);
            assertThat(replicas).as("rack b holds a replica of %s", replicas).contains(3);
        }
    }

    @Test
    void brokersAreListedRackByRackInTurn() {
        Map<Integer, String> rackOf = new TreeMap<>(Map.of(0, "a", 1, "a", 2, "a", 3, "b", 4, "c", 5, "c"));

        assertThat(ReplicaAssignor.rackAlternated(rackOf)).containsExactly(0, 3, 4, 1, 5, 2);
    }

    @Test
    void withoutRacksOnEveryBrokerRacksAreIgnored() {
        Map<Integer, Optional<String>> mixed = new TreeMap<>(Map.of(0, Optional.of("a"), 1, Optional.empty(),
            2, Optional.of("b")));

        Map<Integer, List<Integer>> assignment = new ReplicaAssignor(new Random(1)).assign(mixed, 0, 6, 2);

        assertThat(assignment).hasSize(6);
        assignment.values().forEach(replicas -> assertThat(new HashSet<>(replicas)).hasSize(2));
        assertThat(count(assignment, true)).allSatisfy((broker, leaders) -> assertThat(leaders).isEqualTo(2));
    }

    @Test
    void newPartitionsContinueTheSpread() {
        Map<Integer, Optional<String>> brokers = racks("a", "b", "c");
        Map<Integer, List<Integer>> added = new ReplicaAssignor(new Random(3)).assign(brokers, 3, 3, 2);

        assertThat(added).containsOnlyKeys(3, 4, 5);
        assertThat(count(added, true)).allSatisfy((broker, leaders) -> assertThat(leaders).isEqualTo(1));
    }

    @Test
    void aReplicationFactorAboveTheBrokerCountIsRefused() {
        ReplicaAssignor assignor = new ReplicaAssignor(new Random(0));

        assertThatThrownBy(() -> assignor.assign(racks("a", "b"), 0, 1, 3))
            .isInstanceOf(InvalidReplicationFactorException.class).hasMessageContaining("larger than available brokers");
        assertThatThrownBy(() -> assignor.assign(List.of(0, 1), 0, 1, 3))
            .isInstanceOf(InvalidReplicationFactorException.class);
    }

    private static Map<Integer, Optional<String>> racks(String... racks) {
        Map<Integer, Optional<String>> brokers = new TreeMap<>();
        for (int i = 0; i < racks.length; i++) {
            brokers.put(i, Optional.of(racks[i]));
        }
        return brokers;
    }

    private static Map<Integer, Integer> count(Map<Integer, List<Integer>> assignment, boolean leadersOnly) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (List<Integer> replicas : assignment.values()) {
            for (Integer broker : leadersOnly ? replicas.subList(0, 1) : replicas) {
                counts.merge(broker, 1, Integer::sum);
            }
        }
        return counts;
    }
}
