package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;

/**
 * One consumer of the group simulation, behaving as kafka-clients' classic group membership
 * ({@code AbstractCoordinator} and {@code ConsumerCoordinator}, 3.x) behaves:
 * <ul>
 *   <li>It joins without a member id, takes the one MEMBER_ID_REQUIRED hands it (KIP-394) and joins
 *       again (an older client, JoinGroup v3, is given its id with the answer); a static member
 *       ({@code group.instance.id}, v5+) joins without an id after every start.</li>
 *   <li>On its JoinGroup answer it moves to COMPLETING_REBALANCE and sends SyncGroup; the leader with
 *       a round-robin assignment of the topic's partitions over the members the answer lists
 *       (none when told to skip the assignment, KIP-814).</li>
 *   <li>Its heartbeat thread heartbeats every {@code heartbeat.interval.ms} in COMPLETING_REBALANCE
 *       and STABLE; REBALANCE_IN_PROGRESS in STABLE makes the next poll rejoin; UNKNOWN_MEMBER_ID,
 *       ILLEGAL_GENERATION and FENCED_INSTANCE_ID for the generation it still has reset it (the member
 *       id too, except for ILLEGAL_GENERATION); FENCED_INSTANCE_ID is fatal.</li>
 *   <li>Errors of JoinGroup and SyncGroup are handled as {@code joinGroupIfNeeded} does: rejoin at
 *       once after UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS and MEMBER_ID_REQUIRED,
 *       after {@code retry.backoff.ms} otherwise; COORDINATOR_NOT_AVAILABLE also drops the connection
 *       and looks the coordinator up again.</li>
 *   <li>Its application polls every so often; a poll starts a rejoin that is needed. When it has not
 *       polled for {@code max.poll.interval.ms} (the rebalance timeout) the consumer leaves the group
 *       as on close: a dynamic member sends LeaveGroup, any member forgets its member id.</li>
 *   <li>Requests go over one {@link SimulatedConnection}, one at a time at the broker; a request not
 *       answered within its timeout ({@code rebalance.timeout.ms} + 5 s for JoinGroup) drops the
 *       connection, and the consumer looks the coordinator up again.</li>
 * </ul>
 * Responses are handled when they arrive (kafka-clients' heartbeat thread handles them while the
 * application does not poll). A crash makes it silent: requests already sent still reach the
 * broker, nothing after. Not thread-safe: the simulation's one thread drives it.
 */
final class SimulatedConsumer {

    enum State { UNJOINED, PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE }

    enum Life { RUNNING, CLOSING, CRASHED, CLOSED }

    /** kafka-clients' Generation: what the member sends with its requests. */
    record Generation(int generationId, String memberId, String protocolName) {
        static final Generation NO_GENERATION = new Generation(-1, "", null);
    }

    static final int RETRY_BACKOFF_MS = 100;
    static final int REQUEST_TIMEOUT_MS = 30_000;
    static final int JOIN_GROUP_TIMEOUT_LAPSE_MS = 5_000;
    static final int MAX_POLL_GAP_MS = 1000;

    final String name;
    final String groupInstanceId;
    final int sessionTimeoutMs;
    final int rebalanceTimeoutMs;
    final int heartbeatIntervalMs;
    /** The JoinGroup version its client sends: v4+ need a member id first (KIP-394), v9+ may skip the assignment (KIP-814). */
    final int joinGroupVersion;
    private final GroupSimulation sim;

    private State state = State.UNJOINED;
    private Generation generation = Generation.NO_GENERATION;
    private Life life = Life.RUNNING;
    private boolean rejoinNeeded = true;
    /** A JoinGroup and its SyncGroup are under way (kafka-clients' joinFuture). */
    private boolean joinInProgress;
    private boolean coordinatorKnown = true;
    private boolean lookingUpCoordinator;
    private SimulatedConnection connection;
    private int connections;
    private boolean heartbeatInFlight;
    private int heartbeatEpoch;
    private int pollEpoch;
    private long lastPollMs;
    private long retryAtMs;
    private int subscriptionVersion;
    private int highestGeneration = -1;
    private List<Integer> assignment = List.of();

    SimulatedConsumer(GroupSimulation sim, String name, String groupInstanceId, int sessionTimeoutMs,
                      int rebalanceTimeoutMs, int joinGroupVersion) {
        this.sim = sim;
        this.name = name;
        this.groupInstanceId = groupInstanceId;
        this.joinGroupVersion = joinGroupVersion;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.heartbeatIntervalMs = Math.min(sessionTimeoutMs / 3, 3000);
        this.connection = newConnection();
    }

    State state() {
        return state;
    }

    Generation generation() {
        return generation;
    }

    boolean isRunning() {
        return life == Life.RUNNING;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    /** Whether it will rejoin at its next poll, or is rejoining. */
    boolean rejoinPending() {
        return rejoinNeeded || joinInProgress;
    }

    /** The partitions its last SyncGroup gave it, for {@link #generation()} when STABLE. */
    List<Integer> assignment() {
        return assignment;
    }

    @Override
    public String toString() {
        return name + "(" + state + ", generation " + generation.generationId + ", "
            + sim.alias(generation.memberId) + ")";
    }

    private SimulatedConnection newConnection() {
        return new SimulatedConnection(sim, name, ++connections,
            () -> life != Life.CRASHED && life != Life.CLOSED, what -> {
                if (isRunning()) {
                    markCoordinatorUnknown(what + " timed out");
                }
            });
    }

    // --- the application ---------------------------------------------------------------------

    /** The consumer starts: its application polls from now on. */
    void start() {
        lastPollMs = sim.nowMs();
        schedulePoll(0);
    }

    private void schedulePoll(long delayMs) {
        int epoch = ++pollEpoch;
        sim.schedule(delayMs, name + ": poll", () -> poll(epoch));
    }

    private void poll(int epoch) {
        if (epoch != pollEpoch || !isRunning()) {
            return;
        }
        lastPollMs = sim.nowMs();
        ensureActiveGroup();
        schedulePoll(1 + sim.random.nextInt(MAX_POLL_GAP_MS));
    }

    /** The application spends {@code stallMs} on its records before it polls again. */
    void stall(long stallMs) {
        schedulePoll(stallMs);
    }

    /** The application polls now and as usual from then on (the quiet phase: a stall ends). */
    void resumePolling() {
        if (isRunning()) {
            schedulePoll(0);
        }
    }

    /** Its subscription's user data changes: the consumer rejoins with the new metadata. */
    void changeSubscription() {
        if (state == State.STABLE) {
            subscriptionVersion++;
            requestRejoin();
        }
    }

    /** The leader saw the topic metadata change: it rejoins so that the group assigns again. */
    void leaderSawMetadataChange() {
        requestRejoin();
    }

    /** The process dies: nothing more is sent, nothing is received. */
    void crash() {
        life = Life.CRASHED;
        connection.close(false);
    }

    /** {@code consumer.close()}: a dynamic member leaves the group first (waiting at most {@code closeTimeoutMs}). */
    void close(long closeTimeoutMs) {
        life = Life.CLOSING;
        if (isStatic() || !maybeLeaveGroup("the consumer is being closed")) {
            finishClose();
        } else {
            sim.schedule(closeTimeoutMs, name + ": close timeout", this::finishClose);
        }
    }

    private void finishClose() {
        if (life == Life.CLOSING) {
            life = Life.CLOSED;
            connection.close(false);
        }
    }

    // --- membership (AbstractCoordinator) ----------------------------------------------------

    private void ensureActiveGroup() {
        if (!isRunning()) {
            return;
        }
        if (!coordinatorKnown) {
            lookUpCoordinator();
            return;
        }
        if (rejoinNeeded && !joinInProgress && sim.nowMs() >= retryAtMs) {
            initiateJoinGroup();
        }
    }

    private void lookUpCoordinator() {
        if (lookingUpCoordinator) {
            return;
        }
        lookingUpCoordinator = true;
        sim.schedule(RETRY_BACKOFF_MS + 2L * sim.networkDelayMs(), name + ": FindCoordinator answered", () -> {
            lookingUpCoordinator = false;
            if (isRunning()) {
                connection = newConnection();
                coordinatorKnown = true;
                ensureActiveGroup();
            }
        });
    }

    private void markCoordinatorUnknown(String cause) {
        if (coordinatorKnown) {
            sim.trace(name + ": coordinator unknown (" + cause + "), disconnecting");
            coordinatorKnown = false;
            connection.close(true);
        }
    }

    private void requestRejoin() {
        rejoinNeeded = true;
    }

    private void resetStateAndRejoin(boolean resetMemberId) {
        state = State.UNJOINED;
        generation = resetMemberId ? Generation.NO_GENERATION
            : new Generation(Generation.NO_GENERATION.generationId, generation.memberId, null);
        requestRejoin();
    }

    private void initiateJoinGroup() {
        joinInProgress = true;
        state = State.PREPARING_REBALANCE;
        Generation sent = generation;
        Subscription subscription = new Subscription(List.of(GroupSimulation.TOPIC),
            ByteBuffer.wrap(new byte[]{(byte) subscriptionVersion}));
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName(GroupSimulation.PROTOCOL)
            .setMetadata(Utils.toArray(ConsumerProtocol.serializeSubscription(subscription))));
        JoinGroupRequestData request = new JoinGroupRequestData().setGroupId(GroupSimulation.GROUP)
            .setMemberId(sent.memberId).setGroupInstanceId(groupInstanceId).setSessionTimeoutMs(sessionTimeoutMs)
            .setRebalanceTimeoutMs(rebalanceTimeoutMs).setProtocolType(GroupSimulation.PROTOCOL_TYPE)
            .setProtocols(protocols);
        int timeoutMs = Math.max(REQUEST_TIMEOUT_MS, rebalanceTimeoutMs + JOIN_GROUP_TIMEOUT_LAPSE_MS);
        connection.send("JoinGroup(" + sim.alias(sent.memberId) + ")", timeoutMs,
            () -> sim.deliverJoin(this, request), response -> onJoinResponse(sent, response),
            () -> joinFailed(false));
    }

    private void joinFailed(boolean retryNow) {
        joinInProgress = false;
        requestRejoin();
        if (retryNow) {
            ensureActiveGroup();
        } else {
            retryAtMs = sim.nowMs() + RETRY_BACKOFF_MS;
            sim.schedule(RETRY_BACKOFF_MS, name + ": retry the rebalance", this::ensureActiveGroup);
        }
    }

    private void onJoinResponse(Generation sent, JoinGroupResponseData response) {
        Errors error = Errors.forCode(response.errorCode());
        switch (error) {
            case NONE -> {
                if (response.generationId() < highestGeneration) {
                    throw new GroupSimulationInvariants.InvariantViolation(name + " joined generation "
                        + response.generationId() + " after generation " + highestGeneration);
                }
                highestGeneration = response.generationId();
                if (state != State.PREPARING_REBALANCE) {
                    joinFailed(false); // UnjoinedGroupException, retriable
                    return;
                }
                state = State.COMPLETING_REBALANCE;
                generation = new Generation(response.generationId(), response.memberId(), response.protocolName());
                enableHeartbeat();
                boolean leader = response.leader().equals(response.memberId());
                sendSyncGroup(leader ? assign(response) : List.of());
            }
            case MEMBER_ID_REQUIRED -> {
                generation = new Generation(Generation.NO_GENERATION.generationId, response.memberId(), null);
                joinFailed(true);
            }
            case UNKNOWN_MEMBER_ID -> {
                if (generation.equals(sent)) {
                    resetStateAndRejoin(true);
                }
                joinFailed(true);
            }
            case COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR -> {
                markCoordinatorUnknown("JoinGroup " + error);
                joinFailed(false);
            }
            case COORDINATOR_LOAD_IN_PROGRESS, REBALANCE_IN_PROGRESS -> joinFailed(false);
            default -> fatal("JoinGroup", error);
        }
    }

    /** The leader's assignment: the topic's partitions round robin over the members the JoinGroup answer lists. */
    private List<SyncGroupRequestData.SyncGroupRequestAssignment> assign(JoinGroupResponseData response) {
        List<SyncGroupRequestData.SyncGroupRequestAssignment> out = new ArrayList<>();
        if (response.skipAssignment()) {
            return out;
        }
        List<JoinGroupResponseData.JoinGroupResponseMember> members = response.members();
        List<List<TopicPartition>> partitions = new ArrayList<>();
        members.forEach(m -> partitions.add(new ArrayList<>()));
        for (int p = 0; p < sim.partitions; p++) {
            partitions.get(p % members.size()).add(new TopicPartition(GroupSimulation.TOPIC, p));
        }
        for (int i = 0; i < members.size(); i++) {
            out.add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(members.get(i).memberId())
                .setAssignment(Utils.toArray(ConsumerProtocol.serializeAssignment(new Assignment(partitions.get(i))))));
        }
        return out;
    }

    private void sendSyncGroup(List<SyncGroupRequestData.SyncGroupRequestAssignment> assignments) {
        Generation sent = generation;
        SyncGroupRequestData request = new SyncGroupRequestData().setGroupId(GroupSimulation.GROUP)
            .setMemberId(sent.memberId).setGroupInstanceId(groupInstanceId).setGenerationId(sent.generationId)
            .setProtocolType(GroupSimulation.PROTOCOL_TYPE).setProtocolName(sent.protocolName).setAssignments(assignments);
        connection.send("SyncGroup(" + sim.alias(sent.memberId) + ", generation " + sent.generationId
                + (assignments.isEmpty() ? "" : ", assignment") + ")", REQUEST_TIMEOUT_MS,
            () -> sim.deliverSync(request), response -> onSyncResponse(sent, response), () -> joinFailed(false));
    }

    private void onSyncResponse(Generation sent, SyncGroupResponseData response) {
        Errors error = Errors.forCode(response.errorCode());
        switch (error) {
            case NONE -> {
                boolean reset = generation.generationId == Generation.NO_GENERATION.generationId
                    && generation.protocolName == null;
                if (reset || state != State.COMPLETING_REBALANCE) {
                    joinFailed(true); // raised as ILLEGAL_GENERATION: rejoin at once
                    return;
                }
                state = State.STABLE;
                rejoinNeeded = false;
                joinInProgress = false;
                List<Integer> partitions = new ArrayList<>();
                if (response.assignment().length > 0) {
                    ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(response.assignment())).partitions()
                        .forEach(tp -> partitions.add(tp.partition()));
                }
                assignment = List.copyOf(partitions);
                sim.trace(name + ": stable in generation " + generation.generationId + " with partitions " + assignment);
            }
            case REBALANCE_IN_PROGRESS -> joinFailed(true);
            case UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION -> {
                if (generation.equals(sent)) {
                    resetStateAndRejoin(error != Errors.ILLEGAL_GENERATION);
                }
                joinFailed(true);
            }
            case COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR -> {
                markCoordinatorUnknown("SyncGroup " + error);
                joinFailed(false);
            }
            default -> fatal("SyncGroup", error);
        }
    }

    // --- the heartbeat thread ------------------------------------------------------------------

    /** The heartbeat thread is enabled on the JoinGroup answer: the first heartbeat is an interval later. */
    private void enableHeartbeat() {
        int epoch = ++heartbeatEpoch;
        sim.schedule(heartbeatIntervalMs, name + ": heartbeat", () -> heartbeatTick(epoch));
    }

    private void heartbeatTick(int epoch) {
        if (epoch != heartbeatEpoch || !isRunning()
                || (state != State.COMPLETING_REBALANCE && state != State.STABLE)) {
            return;
        }
        if (sim.nowMs() - lastPollMs > rebalanceTimeoutMs) {
            sim.trace(name + ": poll timeout expired (max.poll.interval.ms " + rebalanceTimeoutMs + ")");
            maybeLeaveGroup("consumer poll timeout has expired.");
            return;
        }
        if (coordinatorKnown && !heartbeatInFlight) {
            heartbeatInFlight = true;
            Generation sent = generation;
            connection.send("Heartbeat(" + sim.alias(sent.memberId) + ", generation " + sent.generationId + ")",
                REQUEST_TIMEOUT_MS, () -> sim.deliverHeartbeat(this, sent.memberId, sent.generationId),
                error -> onHeartbeatResponse(sent, error), () -> heartbeatInFlight = false);
        }
        sim.schedule(heartbeatIntervalMs, name + ": heartbeat", () -> heartbeatTick(epoch));
    }

    private void onHeartbeatResponse(Generation sent, Errors error) {
        heartbeatInFlight = false;
        switch (error) {
            case NONE -> { }
            case COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR -> markCoordinatorUnknown("Heartbeat " + error);
            case REBALANCE_IN_PROGRESS -> {
                if (state == State.STABLE) {
                    requestRejoin();
                }
            }
            case ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID -> {
                if (generation.equals(sent)) {
                    resetStateAndRejoin(error != Errors.ILLEGAL_GENERATION);
                    if (error == Errors.FENCED_INSTANCE_ID) {
                        fatal("Heartbeat", error);
                    }
                }
            }
            default -> fatal("Heartbeat", error);
        }
    }

    /**
     * kafka-clients' maybeLeaveGroup: a dynamic member that has joined sends LeaveGroup; every member
     * forgets its generation and member id.
     *
     * @return whether a LeaveGroup was sent
     */
    private boolean maybeLeaveGroup(String reason) {
        boolean send = !isStatic() && coordinatorKnown && state != State.UNJOINED && !generation.memberId.isEmpty();
        if (send) {
            String memberId = generation.memberId;
            connection.send("LeaveGroup(" + sim.alias(memberId) + ")", REQUEST_TIMEOUT_MS,
                () -> sim.deliverLeave(memberId, null, reason), error -> finishClose(), this::finishClose);
        }
        resetStateAndRejoin(true);
        return send;
    }

    private void fatal(String api, Errors error) {
        throw new GroupSimulationInvariants.InvariantViolation(name + " failed: " + api + " answered " + error
            + ", fatal for a kafka-clients consumer");
    }
}
