package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * What Kafka's classic group coordinator guarantees, checked on the simulated group after every
 * step of a {@link GroupSimulation}:
 * <ul>
 *   <li>the generation never goes back, and every successful JoinGroup answer carries the group's
 *       generation;</li>
 *   <li>a member that left (LeaveGroup answered NONE) or was fenced (its static instance rejoined
 *       under a new member id) is no member, pending member or awaited SyncGroup any more;</li>
 *   <li>the coordinator counts a member as rejoined exactly while it holds a JoinGroup of it it
 *       will answer, and as synced likewise (no request is forgotten, no member counted without
 *       one);</li>
 *   <li>a join phase in which every remaining member has rejoined (and no member id handed out
 *       with MEMBER_ID_REQUIRED is outstanding) has completed, past a new group's initial delay;</li>
 *   <li>no JoinGroup waits longer than the rebalance timeout (plus the initial delay), no SyncGroup
 *       longer than the rebalance timeout plus a slow write;</li>
 *   <li>in a Stable group the stored assignments give every partition to exactly one member, each
 *       successful SyncGroup hands out the member's stored assignment, and the consumers Stable in
 *       the current generation own no partition twice.</li>
 * </ul>
 * The quiet phase's liveness is {@link GroupSimulationLiveness}'s. Not thread-safe; the simulation's thread calls it.
 */
final class GroupSimulationInvariants {

    /** A broken guarantee. */
    static final class InvariantViolation extends AssertionError {
        InvariantViolation(String message) {
            super(message);
        }
    }

    private record Parked(CompletableFuture<?> answer, long sinceMs, boolean onWrite) {
    }

    private static final int TIMER_SLACK_MS = 50;

    private final GroupSimulation sim;
    private final Map<String, String> departed = new LinkedHashMap<>();
    private final Map<String, Parked> parkedJoins = new HashMap<>();
    private final Map<byte[], List<Integer>> decoded = new IdentityHashMap<>();
    private final Map<String, Parked> parkedSyncs = new HashMap<>();
    /** When the coordinator last heard from each member id or answered it: its session counts from there. */
    private final Map<String, Long> lastHeardMs = new HashMap<>();
    /** Member ids handed out with MEMBER_ID_REQUIRED: when, and the session timeout of that JoinGroup. */
    private final Map<String, long[]> pendingSince = new HashMap<>();
    /** The generation of each member id's last SyncGroup the coordinator received in that generation. */
    private final Map<String, Integer> syncedGeneration = new HashMap<>();
    /** Members awaiting their JoinGroup or SyncGroup answer after the last step. */
    private Set<String> awaitingBefore = Set.of();
    private int lastGeneration;
    private GroupState lastState = GroupState.EMPTY;
    private int lastRebalanceTimeoutMs;
    /** The largest rebalance timeout of the members while the group prepares this rebalance, ms. */
    private int joinPhaseRebalanceTimeoutMs;
    private boolean initialJoinPhase;
    /** The sync phase's rebalance timeout, when the generation started, ms. */
    private int syncPhaseRebalanceTimeoutMs;
    /** When members of the generation that sent no SyncGroup must be gone, or -1. */
    private long syncDeadlineMs = -1;

    GroupSimulationInvariants(GroupSimulation sim) {
        this.sim = sim;
    }

    private ClassicGroup group() {
        return sim.coordinator.group(GroupSimulation.GROUP);
    }

    // --- what the simulation tells -------------------------------------------------------------

    /** A member id the group must forget: it left, or its static instance took a new one. */
    void departed(String memberId, String how) {
        departed.put(memberId, how);
    }

    /**
     * A JoinGroup the coordinator received for {@code memberId} and has not answered yet.
     *
     * @param onWrite a static member's rejoin into a Stable group, answered once its new member id
     *                is written (not counted as a rejoin)
     */
    void joinParked(String memberId, CompletableFuture<?> answer, boolean onWrite) {
        if (!answer.isDone()) {
            parkedJoins.put(memberId, new Parked(answer, sim.nowMs(), onWrite));
        }
    }

    void syncParked(String memberId, CompletableFuture<?> answer) {
        if (!answer.isDone()) {
            parkedSyncs.put(memberId, new Parked(answer, sim.nowMs(), false));
        }
    }

    /** The coordinator received a request of this member id: its session counts again. */
    void heard(String memberId) {
        if (memberId != null && !memberId.isEmpty()) {
            lastHeardMs.put(memberId, sim.nowMs());
        }
    }

    /** The coordinator received a SyncGroup of {@code memberId} for {@code generation}. */
    void syncReceived(String memberId, int generation) {
        ClassicGroup group = group();
        heard(memberId);
        if (group != null && group.generationId() == generation && group.has(memberId)) {
            syncedGeneration.put(memberId, generation);
        }
    }

    /** A static member's new member id takes over the old one's place, with its SyncGroup if it sent one. */
    void replaced(String oldMemberId, String newMemberId) {
        Integer synced = syncedGeneration.get(oldMemberId);
        if (synced != null) {
            syncedGeneration.put(newMemberId, synced);
        }
    }

    /** A JoinGroup answer, as the coordinator gives it. */
    void joinAnswered(JoinGroupRequestData request, JoinGroupResponseData response) {
        if (response.errorCode() == Errors.MEMBER_ID_REQUIRED.code()) {
            pendingSince.put(response.memberId(), new long[] {sim.nowMs(), request.sessionTimeoutMs()});
        }
        ClassicGroup group = group();
        if (response.errorCode() == Errors.NONE.code() && group != null
                && response.generationId() != group.generationId()) {
            throw new InvariantViolation("JoinGroup of " + sim.alias(response.memberId()) + " answered generation "
                + response.generationId() + " while the group is at " + group.generationId());
        }
    }

    /** A SyncGroup answer, as the coordinator gives it: a successful one hands out the stored assignment. */
    void syncAnswered(SyncGroupRequestData request, SyncGroupResponseData response) {
        if (response.errorCode() != Errors.NONE.code()) {
            return;
        }
        ClassicGroup group = group();
        GroupMember member = group.get(request.memberId());
        if (!group.is(GroupState.STABLE) || group.generationId() != request.generationId() || member == null
                || !Arrays.equals(member.assignment(), response.assignment())) {
            throw new InvariantViolation("SyncGroup of " + sim.alias(request.memberId()) + " for generation "
                + request.generationId() + " succeeded but the group is " + group.state() + " in generation "
                + group.generationId() + (member == null ? " without it" : " with another assignment for it"));
        }
    }

    // --- reading the group ---------------------------------------------------------------------

    String staticMemberId(String groupInstanceId) {
        ClassicGroup group = group();
        if (group == null || groupInstanceId == null) {
            return null;
        }
        synchronized (group) {
            return group.staticMemberId(groupInstanceId).orElse(null);
        }
    }

    /** The ids of the group's members now. */
    Set<String> memberIds() {
        ClassicGroup group = group();
        if (group == null) {
            return Set.of();
        }
        synchronized (group) {
            Set<String> ids = new HashSet<>();
            group.members().forEach(m -> ids.add(m.memberId()));
            return ids;
        }
    }

    GroupState state() {
        ClassicGroup group = group();
        return group == null ? null : group.state();
    }

    int generation() {
        ClassicGroup group = group();
        return group == null ? 0 : group.generationId();
    }

    /** The running consumer the group has as leader, if any. */
    SimulatedConsumer leaderConsumer() {
        ClassicGroup group = group();
        if (group == null || group.leaderId() == null) {
            return null;
        }
        return sim.runningConsumers().stream().filter(c -> group.leaderId().equals(c.generation().memberId()))
            .findFirst().orElse(null);
    }

    String groupSummary() {
        ClassicGroup group = group();
        if (group == null) {
            return "no group";
        }
        synchronized (group) {
            List<String> members = new ArrayList<>();
            for (GroupMember m : group.members()) {
                members.add(sim.alias(m.memberId()) + (group.isLeader(m.memberId()) ? "*" : "")
                    + (m.isAwaitingJoin() ? "[joined]" : "") + (m.isAwaitingSync() ? "[synced]" : ""));
            }
            Set<String> pending = group.pendingMembers();
            return group.state().protocolName() + " generation " + group.generationId() + " members " + members
                + (pending.isEmpty() ? "" : " pending " + pending.stream().map(sim::alias).sorted().toList());
        }
    }

    // --- the checks ----------------------------------------------------------------------------

    void checkAfterStep() {
        ClassicGroup group = group();
        if (group == null) {
            return;
        }
        synchronized (group) {
            if (group.generationId() < lastGeneration) {
                throw new InvariantViolation("the generation went back from " + lastGeneration + " to "
                    + group.generationId());
            }
            boolean newGeneration = group.generationId() != lastGeneration;
            followPhases(group, newGeneration);
            lastGeneration = group.generationId();
            lastState = group.state();
            lastRebalanceTimeoutMs = group.rebalanceTimeoutMs();
            checkDepartedAreForgotten(group);
            parkedJoins.values().removeIf(p -> p.answer.isDone());
            parkedSyncs.values().removeIf(p -> p.answer.isDone());
            checkWaitingRequests(group);
            checkJoinPhaseCompletes(group);
            checkSyncDeadline(group);
            checkSessions(group);
            if (group.is(GroupState.STABLE)) {
                checkStableAssignment(group);
            }
            Set<String> awaiting = new HashSet<>();
            group.members().stream().filter(m -> m.isAwaitingJoin() || m.isAwaitingSync())
                .forEach(m -> awaiting.add(m.memberId()));
            awaitingBefore = awaiting;
        }
    }

    /**
     * Follows the join and sync phases: the rebalance timeout each is bounded by (the timer is armed
     * with the members' largest one when the phase starts, so the larger of before and after the
     * step), and the sessions that count again from a join phase's end or an answer.
     */
    private void followPhases(ClassicGroup group, boolean newGeneration) {
        long now = sim.nowMs();
        int timeoutMs = Math.max(lastRebalanceTimeoutMs, group.rebalanceTimeoutMs());
        if (group.is(GroupState.PREPARING_REBALANCE)) {
            if (lastState != GroupState.PREPARING_REBALANCE || newGeneration) {
                joinPhaseRebalanceTimeoutMs = timeoutMs;
                initialJoinPhase = lastState == GroupState.EMPTY && !newGeneration;
            } else {
                joinPhaseRebalanceTimeoutMs = Math.max(joinPhaseRebalanceTimeoutMs, group.rebalanceTimeoutMs());
            }
            syncDeadlineMs = -1;
        } else if (group.is(GroupState.EMPTY)) {
            syncDeadlineMs = -1;
        } else if (newGeneration) {
            syncPhaseRebalanceTimeoutMs = timeoutMs;
            syncDeadlineMs = now + timeoutMs;
        }
        for (GroupMember m : group.members()) {
            if (newGeneration || (awaitingBefore.contains(m.memberId()) && !m.isAwaitingJoin() && !m.isAwaitingSync())) {
                heard(m.memberId());
            }
        }
        pendingSince.keySet().retainAll(group.pendingMembers());
    }

    /**
     * Members of a generation that sent no SyncGroup within the rebalance timeout are removed (Kafka's
     * expirePendingSync, in CompletingRebalance and in Stable), unless a rebalance began first.
     */
    private void checkSyncDeadline(ClassicGroup group) {
        if (syncDeadlineMs < 0 || sim.nowMs() <= syncDeadlineMs + TIMER_SLACK_MS) {
            return;
        }
        syncDeadlineMs = -1;
        for (GroupMember m : group.members()) {
            Integer synced = syncedGeneration.get(m.memberId());
            if (synced == null || synced != group.generationId()) {
                throw new InvariantViolation(sim.alias(m.memberId()) + " sent no SyncGroup within the rebalance timeout "
                    + syncPhaseRebalanceTimeoutMs + " ms of generation " + group.generationId()
                    + " but is still a member: " + groupSummary());
            }
        }
    }

    /**
     * A member not heard from for its session timeout (and not awaiting an answer, nor new) is
     * removed; so is a member id handed out with MEMBER_ID_REQUIRED that did not join in time.
     */
    private void checkSessions(ClassicGroup group) {
        long now = sim.nowMs();
        for (GroupMember m : group.members()) {
            Long heardMs = lastHeardMs.get(m.memberId());
            if (heardMs != null && !m.isNew() && !m.isAwaitingJoin() && !m.isAwaitingSync()
                    && now > heardMs + m.sessionTimeoutMs() + TIMER_SLACK_MS) {
                throw new InvariantViolation(sim.alias(m.memberId()) + " was last heard from " + (now - heardMs)
                    + " ms ago, its session timeout is " + m.sessionTimeoutMs() + " ms, but it is still a member: "
                    + groupSummary());
            }
        }
        pendingSince.forEach((id, since) -> {
            if (now > since[0] + since[1] + TIMER_SLACK_MS) {
                throw new InvariantViolation("pending member " + sim.alias(id) + " got its id " + (now - since[0])
                    + " ms ago, its session timeout is " + since[1] + " ms, but it is still pending: " + groupSummary());
            }
        });
    }

    private void checkDepartedAreForgotten(ClassicGroup group) {
        Set<String> pending = group.pendingMembers();
        Set<String> pendingSync = group.pendingSyncMembers();
        departed.forEach((id, how) -> {
            String where = group.has(id) ? "a member" : pending.contains(id) ? "a pending member"
                : pendingSync.contains(id) ? "awaited in SyncGroup" : null;
            if (where != null) {
                throw new InvariantViolation(sim.alias(id) + " " + how + " but is still " + where + ": "
                    + groupSummary());
            }
        });
    }

    private void checkWaitingRequests(ClassicGroup group) {
        for (GroupMember m : group.members()) {
            Parked join = parkedJoins.get(m.memberId());
            boolean joinHeld = join != null && !join.onWrite;
            if (m.isAwaitingJoin() != joinHeld) {
                throw new InvariantViolation(m.isAwaitingJoin()
                    ? "the coordinator counts " + sim.alias(m.memberId()) + " as rejoined without a JoinGroup of it"
                    : "the coordinator holds a JoinGroup of " + sim.alias(m.memberId()) + " but does not count it: "
                        + groupSummary());
            }
            if (m.isAwaitingSync() != parkedSyncs.containsKey(m.memberId())) {
                throw new InvariantViolation(m.isAwaitingSync()
                    ? "the coordinator awaits no SyncGroup of " + sim.alias(m.memberId()) + " but counts one"
                    : "the coordinator holds a SyncGroup of " + sim.alias(m.memberId()) + " it no longer answers: "
                        + groupSummary());
            }
        }
        parkedJoins.forEach((id, p) -> {
            if (!group.has(id) && !p.onWrite) {
                throw new InvariantViolation("a JoinGroup of " + sim.alias(id) + ", no member any more, is never answered");
            }
        });
        parkedSyncs.forEach((id, p) -> {
            if (!group.has(id)) {
                throw new InvariantViolation("a SyncGroup of " + sim.alias(id) + ", no member any more, is never answered");
            }
        });
        long now = sim.nowMs();
        long joinBoundMs = joinPhaseRebalanceTimeoutMs + (initialJoinPhase ? sim.initialRebalanceDelayMs : 0);
        parkedJoins.forEach((id, p) -> {
            if (!p.onWrite && !group.is(GroupState.PREPARING_REBALANCE)) {
                throw new InvariantViolation("a JoinGroup of " + sim.alias(id) + " waits in " + group.state());
            }
            long boundMs = p.onWrite ? SimulatedCoordinatorLog.MAX_WRITE_DELAY_MS : joinBoundMs;
            if (now - p.sinceMs > boundMs + TIMER_SLACK_MS) {
                throw new InvariantViolation("the JoinGroup of " + sim.alias(id) + " has waited " + (now - p.sinceMs)
                    + " ms, more than " + boundMs + " ms (the rebalance timeout"
                    + (initialJoinPhase ? " of a new group's first join" : "") + "): " + groupSummary());
            }
        });
        parkedSyncs.forEach((id, p) -> {
            long boundMs = syncPhaseRebalanceTimeoutMs + SimulatedCoordinatorLog.MAX_WRITE_DELAY_MS;
            if (now - p.sinceMs > boundMs + TIMER_SLACK_MS) {
                throw new InvariantViolation("the SyncGroup of " + sim.alias(id) + " has waited " + (now - p.sinceMs)
                    + " ms, more than the rebalance timeout " + syncPhaseRebalanceTimeoutMs + " ms and a write: "
                    + groupSummary());
            }
        });
    }

    private void checkJoinPhaseCompletes(ClassicGroup group) {
        if (group.is(GroupState.PREPARING_REBALANCE) && !group.inInitialJoinDelay() && !group.isEmptyOfMembers()
                && group.pendingMembers().isEmpty() && group.members().stream().allMatch(GroupMember::isAwaitingJoin)) {
            throw new InvariantViolation("every remaining member has rejoined but the join phase goes on: "
                + groupSummary());
        }
    }

    private void checkStableAssignment(ClassicGroup group) {
        Map<Integer, List<String>> owners = new TreeMap<>();
        for (GroupMember m : group.members()) {
            for (int p : partitions(m.assignment())) {
                owners.computeIfAbsent(p, k -> new ArrayList<>()).add(sim.alias(m.memberId()));
            }
        }
        for (int p = 0; p < sim.partitions; p++) {
            List<String> o = owners.getOrDefault(p, List.of());
            if (o.size() != 1) {
                throw new InvariantViolation("Stable generation " + group.generationId() + " gives partition " + p
                    + " to " + o + " (" + owners + "): " + groupSummary());
            }
        }
        Map<Integer, String> received = new HashMap<>();
        for (SimulatedConsumer c : sim.runningConsumers()) {
            GroupMember m = group.get(c.generation().memberId());
            if (c.state() != SimulatedConsumer.State.STABLE || c.generation().generationId() != group.generationId()
                    || m == null) {
                continue;
            }
            if (!c.assignment().equals(partitions(m.assignment()))) {
                throw new InvariantViolation(c.name + " owns " + c.assignment() + " in generation "
                    + group.generationId() + " but the group gives it " + partitions(m.assignment()));
            }
            for (int p : c.assignment()) {
                String other = received.put(p, c.name);
                if (other != null) {
                    throw new InvariantViolation("partition " + p + " is owned by " + other + " and " + c.name
                        + " in generation " + group.generationId());
                }
            }
        }
    }

    /** The partitions of a serialized assignment; decoded once per array (the group keeps the leader's arrays). */
    private List<Integer> partitions(byte[] assignment) {
        if (assignment == null || assignment.length == 0) {
            return List.of();
        }
        return decoded.computeIfAbsent(assignment, bytes -> {
            List<Integer> out = new ArrayList<>();
            ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(bytes)).partitions()
                .forEach(tp -> out.add(tp.partition()));
            return List.copyOf(out);
        });
    }
}
