package io.tributary.broker.group;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of a classic consumer group, with the transitions Kafka allows (the classic
 * group state machine of Kafka's group coordinator). {@link #canTransitionFrom} is checked on
 * every transition; an illegal one is a bug and throws.
 *
 * <pre>
 *   Empty ──join──▶ PreparingRebalance ──all joined──▶ CompletingRebalance ──leader synced──▶ Stable
 *     ▲                  │  ▲                               │                                  │
 *     └──all left────────┘  └──member joins/leaves/fails────┴──────────────────────────────────┘
 *   any state ──group deleted or partition unloaded──▶ Dead
 * </pre>
 */
public enum GroupState {
    /** No members; offsets may remain until they expire. */
    EMPTY("Empty"),
    /** Waiting for members to (re)join. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** Members joined; waiting for the leader's assignment. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Assignment distributed; members heartbeat. */
    STABLE("Stable"),
    /** Deleted or moved to another coordinator. */
    DEAD("Dead");

    private final String protocolName;

    GroupState(String protocolName) {
        this.protocolName = protocolName;
    }

    /** The name clients see in DescribeGroups and ListGroups. */
    public String protocolName() {
        return protocolName;
    }

    /** The states a group may be in before entering this one. */
    Set<GroupState> validPreviousStates() {
        return switch (this) {
            case EMPTY -> EnumSet.of(PREPARING_REBALANCE);
            case PREPARING_REBALANCE -> EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY);
            case COMPLETING_REBALANCE -> EnumSet.of(PREPARING_REBALANCE);
            case STABLE -> EnumSet.of(COMPLETING_REBALANCE);
            case DEAD -> EnumSet.of(STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD);
        };
    }

    /** Whether a group may move from {@code previous} to this state. */
    public boolean canTransitionFrom(GroupState previous) {
        return validPreviousStates().contains(previous);
    }

    /** The state named {@code name} (case-insensitive), as in ListGroups' states filter; null when none. */
    public static GroupState forName(String name) {
        for (GroupState s : values()) {
            if (s.protocolName.equalsIgnoreCase(name)) {
                return s;
            }
        }
        return null;
    }
}
