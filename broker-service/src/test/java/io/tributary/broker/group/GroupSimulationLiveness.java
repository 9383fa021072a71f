package io.tributary.broker.group;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The liveness of the group in the quiet phase of a {@link GroupSimulation}: no more crashes,
 * closes, restarts or stalls, and the running consumers heartbeat and rejoin as clients do. The
 * group must settle, Stable with exactly the running consumers, each Stable in the group's
 * generation with its part (or Empty when none runs), and stay so.
 *
 * <p>Until then what holds it back are members whose consumer is gone (crashed, closed without
 * its LeaveGroup arriving, or a stale member id of a consumer that started over), and the
 * coordinator must remove them at a pace its timeouts bound ({@code R} the largest rebalance
 * timeout, {@code S} the largest session timeout):
 * <ul>
 *   <li>when a join phase ends, dynamic members that did not rejoin are removed;</li>
 *   <li>members of the new generation that send no SyncGroup (one whose JoinGroup arrived before
 *       it crashed, a static member kept by KIP-345) are removed a rebalance timeout after it, or
 *       sooner one by one as their sessions expire, each starting a rebalance;</li>
 *   <li>such a rebalance waits at most the rebalance timeout for static members that do not rejoin;</li>
 *   <li>members of a Stable generation that synced and then went away are removed by their session
 *       timeout.</li>
 * </ul>
 * So from the start of the quiet phase at most {@code max(S, 2R)}, and after each removal at most
 * {@code 2R} (a sync phase, then a join phase), pass before the next removal, plus the time the
 * running consumers take to react: a heartbeat interval to hear of a rebalance, a poll to rejoin,
 * the network, a write of the assignment, and a new group's initial delay, extended by each member
 * that arrives. When no such member is left the group settles within that reaction time.
 *
 * <p>Not thread-safe; the simulation's thread calls it.
 */
final class GroupSimulationLiveness {

    private static final int SLACK_MS = 1000;

    private final GroupSimulation sim;
    private long quietStartMs = -1;
    private long settledAtMs = -1;
    private long deadlineMs;
    private long goneMembers;

    GroupSimulationLiveness(GroupSimulation sim) {
        this.sim = sim;
    }

    /** The quiet phase begins. */
    void begin() {
        quietStartMs = sim.nowMs();
        goneMembers = goneMembers();
        deadlineMs = quietStartMs + Math.max(maxSessionMs(), 2L * maxRebalanceMs()) + reactionMs() + SLACK_MS;
        sim.trace("quiet phase: " + goneMembers + " member(s) of consumers gone; next removal or settled by "
            + (deadlineMs - quietStartMs) + " ms");
    }

    boolean begun() {
        return quietStartMs >= 0;
    }

    /** How long after the start of the quiet phase the group settled, ms; -1 if it did not. */
    long settledAfterMs() {
        return settledAtMs < 0 ? -1 : settledAtMs - quietStartMs;
    }

    /**
     * Checks the group after a step of the quiet phase.
     *
     * @return whether the group settled and stayed so long enough: the run is over
     * @throws GroupSimulationInvariants.InvariantViolation when it does not settle in time, or changes after
     */
    boolean check(long stayStableMs) {
        boolean settled = settled();
        long now = sim.nowMs();
        if (settled && settledAtMs < 0) {
            settledAtMs = now;
            sim.trace("settled: " + sim.invariants.groupSummary());
        } else if (!settled && settledAtMs >= 0) {
            throw new GroupSimulationInvariants.InvariantViolation("the group settled " + settledAfterMs()
                + " ms into the quiet phase and then changed: " + sim.invariants.groupSummary());
        }
        if (settledAtMs >= 0) {
            return now >= settledAtMs + stayStableMs;
        }
        long gone = goneMembers();
        if (gone != goneMembers) {
            goneMembers = gone;
            deadlineMs = now + 2L * maxRebalanceMs() + reactionMs() + SLACK_MS;
        } else if (now > deadlineMs) {
            throw new GroupSimulationInvariants.InvariantViolation("the group did not become Stable with exactly the "
                + "running consumers, nor removed another member of a consumer gone, in time ("
                + (now - quietStartMs) + " ms into the quiet phase): " + sim.invariants.groupSummary() + "; consumers "
                + sim.runningConsumers());
        }
        return false;
    }

    /**
     * Whether the group is where the quiet phase must bring it: Stable with exactly the running
     * consumers as members, each Stable in its generation with nothing to rejoin for, owning every
     * partition between them (or Empty when none runs).
     */
    boolean settled() {
        ClassicGroup group = sim.coordinator.group(GroupSimulation.GROUP);
        if (group == null) {
            return false;
        }
        synchronized (group) {
            List<SimulatedConsumer> running = sim.runningConsumers();
            if (!group.pendingMembers().isEmpty()) {
                return false;
            }
            if (running.isEmpty()) {
                return group.is(GroupState.EMPTY);
            }
            if (!group.is(GroupState.STABLE) || group.size() != running.size()) {
                return false;
            }
            Set<Integer> owned = new HashSet<>();
            for (SimulatedConsumer c : running) {
                if (c.state() != SimulatedConsumer.State.STABLE || c.rejoinPending()
                        || c.generation().generationId() != group.generationId() || !group.has(c.generation().memberId())) {
                    return false;
                }
                owned.addAll(c.assignment());
            }
            return owned.size() == sim.partitions;
        }
    }

    /** Members and pending member ids of the group that no running consumer holds. */
    private long goneMembers() {
        ClassicGroup group = sim.coordinator.group(GroupSimulation.GROUP);
        if (group == null) {
            return 0;
        }
        synchronized (group) {
            Set<String> held = new HashSet<>();
            sim.runningConsumers().forEach(c -> held.add(c.generation().memberId()));
            Set<String> ids = new HashSet<>(group.pendingMembers());
            group.members().forEach(m -> ids.add(m.memberId()));
            ids.removeAll(held);
            return ids.size();
        }
    }

    private int maxRebalanceMs() {
        return sim.consumers.stream().mapToInt(c -> c.rebalanceTimeoutMs).max().orElse(0);
    }

    private int maxSessionMs() {
        return sim.consumers.stream().mapToInt(c -> c.sessionTimeoutMs).max().orElse(0);
    }

    /** How long the running consumers take to go through a rebalance once nothing holds it back, ms. */
    private long reactionMs() {
        int maxHeartbeatMs = sim.consumers.stream().mapToInt(c -> c.heartbeatIntervalMs).max().orElse(0);
        return maxHeartbeatMs + SimulatedConsumer.MAX_POLL_GAP_MS + SimulatedConsumer.RETRY_BACKOFF_MS
            + 6L * GroupSimulation.MAX_NETWORK_DELAY_MS + SimulatedCoordinatorLog.MAX_WRITE_DELAY_MS
            + (long) sim.initialRebalanceDelayMs * (sim.runningConsumers().size() + 1);
    }
}
