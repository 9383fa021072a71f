package io.tributary.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplicaPlanTest {

    @Test
    void withBrokersOutsideTheSetOneReplicaMovesToOneOfThemInItsPlace() {
        List<Integer> current = List.of(2, 4, 1);
        Set<Integer> newcomers = new HashSet<>();
        for (long seed = 0; seed < 40; seed++) {
            ReplicaPlan plan = ReplicaPlan.move(current, List.of(1, 2, 3, 4, 5), new Random(seed));

            assertThat(plan.moved()).isTrue();
            assertThat(plan.replicas()).hasSize(3).doesNotHaveDuplicates();
            List<Integer> added = new ArrayList<>(plan.replicas());
            added.removeAll(current);
            assertThat(added).hasSize(1).isSubsetOf(3, 5);
            int position = plan.replicas().indexOf(added.get(0));
            List<Integer> rest = new ArrayList<>(current);
            rest.remove(position);
            assertThat(plan.replicas()).containsAll(rest);
            newcomers.add(added.get(0));
        }
        assertThat(newcomers).containsExactlyInAnyOrder(3, 5);
    }

    @Test
    void withNoBrokerOutsideTheSetTheMoveIsAReorderWithAnotherPreferredReplica() {
        for (long seed = 0; seed < 20; seed++) {
            ReplicaPlan plan = ReplicaPlan.move(List.of(3, 1, 2), List.of(1, 2, 3), new Random(seed));

            assertThat(plan.moved()).isFalse();
            assertThat(plan.replicas()).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(plan.preferred()).isNotEqualTo(3);
        }
    }

    @Test
    void preferOtherPutsAnotherReplicaFirstAndKeepsTheOrderOfTheRest() {
        Set<Integer> preferred = new HashSet<>();
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            ReplicaPlan plan = ReplicaPlan.preferOther(List.of(1, 2, 3), 1, random);

            assertThat(plan.replicas()).isIn(List.of(2, 1, 3), List.of(3, 1, 2));
            preferred.add(plan.preferred());
        }
        assertThat(preferred).containsExactlyInAnyOrder(2, 3);
    }

    @Test
    void aSingleReplicaCannotPreferAnother() {
        assertThatThrownBy(() -> ReplicaPlan.preferOther(List.of(1), 1, new Random(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[1]");
    }
}
