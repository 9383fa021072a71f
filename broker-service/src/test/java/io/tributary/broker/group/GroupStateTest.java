package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The classic group state machine: exactly Kafka's legal transitions, and illegal ones refused. */
class GroupStateTest {

    @Test
    void theLegalTransitionsAreKafkas() {
        assertThat(allowedFrom(GroupState.EMPTY)).containsExactlyInAnyOrder(GroupState.PREPARING_REBALANCE, GroupState.DEAD);
        assertThat(allowedFrom(GroupState.PREPARING_REBALANCE)).containsExactlyInAnyOrder(GroupState.EMPTY,
            GroupState.COMPLETING_REBALANCE, GroupState.DEAD);
        assertThat(allowedFrom(GroupState.COMPLETING_REBALANCE)).containsExactlyInAnyOrder(
            GroupState.PREPARING_REBALANCE, GroupState.STABLE, GroupState.DEAD);
        assertThat(allowedFrom(GroupState.STABLE)).containsExactlyInAnyOrder(GroupState.PREPARING_REBALANCE,
            GroupState.DEAD);
        assertThat(allowedFrom(GroupState.DEAD)).containsExactly(GroupState.DEAD);
    }

    @Test
    void aGroupRefusesAnIllegalTransition() {
        ClassicGroup group = new ClassicGroup("g", 0L);
        assertThat(group.state()).isEqualTo(GroupState.EMPTY);
        assertThatThrownBy(() -> group.transitionTo(GroupState.STABLE, 1L)).isInstanceOf(IllegalStateException.class);
        group.transitionTo(GroupState.PREPARING_REBALANCE, 1L);
        assertThatThrownBy(() -> group.transitionTo(GroupState.STABLE, 2L)).isInstanceOf(IllegalStateException.class);
        group.transitionTo(GroupState.COMPLETING_REBALANCE, 2L);
        group.transitionTo(GroupState.STABLE, 3L);
        assertThat(group.state()).isEqualTo(GroupState.STABLE);
        assertThat(group.currentStateTimestamp()).isEqualTo(3L);
    }

    @Test
    void namesAreTheProtocolNamesAndParseIgnoringCase() {
        assertThat(GroupState.COMPLETING_REBALANCE.protocolName()).isEqualTo("CompletingRebalance");
        assertThat(GroupState.forName("preparingrebalance")).isEqualTo(GroupState.PREPARING_REBALANCE);
        assertThat(GroupState.forName("Unknown")).isNull();
    }

    private static Set<GroupState> allowedFrom(GroupState from) {
        Set<GroupState> out = EnumSet.noneOf(GroupState.class);
        for (GroupState to : GroupState.values()) {
            if (to.canTransitionFrom(from)) {
                out.add(to);
            }
        }
        return out;
    }
}
