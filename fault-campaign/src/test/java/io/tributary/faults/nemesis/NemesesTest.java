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
                "kill-leader", "kill-brokers", "kill-zookeeper");
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
