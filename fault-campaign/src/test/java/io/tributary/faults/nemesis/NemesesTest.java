package io.tributary.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.faults.harness.BrokerProcess;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NemesesTest {

    @Test
    void everyFaultKindOfTheIssueHasANemesisWithAStableName() {
        assertThat(Nemeses.kinds()).containsExactly(
                "partition-leader-followers", "partition-leader-zookeeper", "partition-controller-zookeeper",
                "partition-zookeeper-minority", "partition-zookeeper-leader", "partition-bridge",
                "pause-leader", "pause-controller", "pause-zookeeper",
                "kill-leader", "kill-brokers", "kill-zookeeper", "full-disk",
                "rolling-restart", "kill-during-reassignment", "kill-during-preferred-election");
        for (String kind : Nemeses.kinds()) {
            assertThat(Nemeses.create(kind).kind()).isEqualTo(kind);
        }
    }

    @Test
    void pausesAndCutsFromZooKeeperOutlastTheBrokersSessionTimeout() {
        for (String kind : List.of("pause-leader", "pause-controller", "pause-zookeeper",
                "partition-leader-zookeeper", "partition-controller-zookeeper")) {
            assertThat(Nemeses.create(kind).minimumHold()).isGreaterThan(BrokerProcess.SESSION_TIMEOUT);
        }
    }

    @Test
    void aRollingRestartIsMadeByItsStartSoNoHoldIsAdded() {
        Nemesis roll = Nemeses.create("rolling-restart");

        assertThat(roll.maximumHold()).isZero();
        assertThat(roll.minimumHold()).isZero();
        assertThat(Nemeses.create("kill-leader").maximumHold()).isGreaterThan(java.time.Duration.ofDays(1));
    }

    @Test
    void aRollingRestartRollsEveryBrokerOnceInTurnFromADrawnOne() {
        List<Integer> ids = List.of(1, 2, 3, 4, 5);
        java.util.Set<Integer> firsts = new java.util.HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            List<Integer> order = RollingRestart.rollOrder(ids, new Random(seed));

            assertThat(order).containsExactlyInAnyOrderElementsOf(ids);
            int first = order.get(0);
            assertThat(order).isEqualTo(java.util.stream.IntStream.range(0, 5)
                    .mapToObj(i -> ids.get((ids.indexOf(first) + i) % 5)).toList());
            firsts.add(first);
        }
        assertThat(firsts).hasSize(5);
    }

    @Test
    void unknownKindIsRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> Nemeses.create("flood"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flood").hasMessageContaining("kill-leader");
    }

    @Test
    void pickDrawsDistinctElementsTheSameWayForTheSameSeed() {
        List<Integer> from = List.of(1, 2, 3, 4, 5);

        List<Integer> first = NemesisContext.pick(from, 3, new Random(7));

        assertThat(first).hasSize(3).doesNotHaveDuplicates().isSubsetOf(from);
        assertThat(NemesisContext.pick(from, 3, new Random(7))).isEqualTo(first);
    }
}
