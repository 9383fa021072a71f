package io.tributary.broker.group;

import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.awaitility.Awaitility;

/**
 * One seeded run of a classic consumer group: a {@link GroupCoordinator} on a mock clock
 * ({@link MockTimer}) and 2 to 6 {@link SimulatedConsumer}s, some static, driven by one event
 * queue and one {@code Random(seed)} (no threads, no sleeps, no wall clock), so a seed always
 * runs the same events in the same order. The clock moves from event to event and stops at every
 * coordinator timer on the way, so timeouts fire when they are due.
 *
 * <p>For {@link Settings#chaosPhaseMs} membership changes at random: consumers start, crash,
 * restart (a static member with its instance id), close (a dynamic one leaves), stall past
 * {@code max.poll.interval.ms}, change their subscription; the leader rejoins; an admin removes a
 * static member; writes to the offsets topic are slow or fail. Then comes the quiet phase: the
 * consumers still running keep polling, heartbeating and rejoining as clients do, and nothing else
 * happens. {@link GroupSimulationInvariants} are checked after every step (an event, or the
 * coordinator timers due at one time), and the group must become Stable with exactly the running
 * consumers at the pace {@link GroupSimulationLiveness} derives from the timeouts, and stay so.
 *
 * <p>Not thread-safe; one run per instance.
 */
final class GroupSimulation {

    static final String GROUP = "sim-group";
    static final String TOPIC = "events";
    static final String PROTOCOL_TYPE = "consumer";
    static final String PROTOCOL = "roundrobin-sim";
    static final int MAX_NETWORK_DELAY_MS = 20;
    private static final int RECENT_EVENTS = 60;

    /**
     * @param chaosPhaseMs simulated time with membership changes
     * @param stayStableMs how long the group must stay Stable once it settled in the quiet phase
     */
    record Settings(long chaosPhaseMs, long stayStableMs) {
        static Settings standard() {
            return new Settings(60_000, 20_000);
        }
    }

    /** A run that kept every invariant: how long the quiet phase took to settle, and the trace's digest. */
    record Result(long seed, long steps, int generation, long settledAfterMs, String traceDigest) {
    }

    /** A run that broke an invariant (or met an unexpected exception), with what is needed to replay it. */
    static final class SimulationFailure extends RuntimeException {
        final long seed;

        SimulationFailure(long seed, long step, String event, Throwable cause, List<String> recent) {
            super("seed " + seed + " failed at step " + step + " in '" + event + "': " + cause.getMessage()
                + "\n  replay: GroupSimulationTest#replaysSeed with -Dgroup.simulation.seed=" + seed
                + " -Dgroup.simulation.trace=true"
                + "\n  last events:\n    " + String.join("\n    ", recent), cause);
            this.seed = seed;
        }
    }

    private record Event(long timeMs, long sequence, String description, Runnable action) {
    }

    final long seed;
    final Random random;
    final MockTime time = new MockTime();
    final MockTimer timer = new MockTimer(time);
    final SimulatedCoordinatorLog log = new SimulatedCoordinatorLog();
    final GroupCoordinator coordinator;
    final int partitions;
    final int initialRebalanceDelayMs;
    final List<SimulatedConsumer> consumers = new ArrayList<>();
    final GroupSimulationInvariants invariants;
    private final GroupSimulationLiveness liveness = new GroupSimulationLiveness(this);
    private final Settings settings;
    private final long startMs = time.milliseconds();
    private final int targetConsumers;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.timeMs != b.timeMs
        ? Long.compare(a.timeMs, b.timeMs) : Long.compare(a.sequence, b.sequence));
    private long sequence;
    private final Map<String, String> aliases = new HashMap<>();
    private final Map<String, Integer> incarnations = new HashMap<>();
    private final MessageDigest digest;
    private final Deque<String> recent = new ArrayDeque<>();
    private final List<String> fullTrace = Boolean.getBoolean("group.simulation.trace") ? new ArrayList<>() : null;
    private int nextDynamic;
    private int nextStatic;
    private boolean quiet;
    private long step;

    GroupSimulation(long seed, Settings settings) {
        this.seed = seed;
        this.settings = settings;
        this.random = new Random(seed);
        this.partitions = 1 + random.nextInt(12);
        this.targetConsumers = 2 + random.nextInt(5);
        this.initialRebalanceDelayMs = List.of(0, 100, 3000).get(random.nextInt(3));
        this.coordinator = new GroupCoordinator(log, new GroupCoordinator.Config(1, 1000, 300_000,
            initialRebalanceDelayMs, 100, 5000, 4096, 24 * 3600 * 1000L, 600_000), time, timer);
        this.invariants = new GroupSimulationInvariants(this);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    long nowMs() {
        return time.milliseconds();
    }

    /** Schedules {@code action} {@code delayMs} (at least 0) from now. */
    void schedule(long delayMs, String description, Runnable action) {
        events.add(new Event(nowMs() + Math.max(0, delayMs), sequence++, description, action));
    }

    int networkDelayMs() {
        return random.nextInt(MAX_NETWORK_DELAY_MS + 1);
    }

    /** A short, stable name for a member id in the trace (member ids hold random UUIDs). */
    String alias(String memberId) {
        if (memberId == null || memberId.isEmpty()) {
            return "-";
        }
        return aliases.computeIfAbsent(memberId, id -> {
            // A member id is the client id, a dash and a UUID (36 characters).
            String client = id.length() > 37 ? id.substring(0, id.length() - 37) : "";
            return "m" + (aliases.size() + 1) + (client.isEmpty() ? "" : "(" + client + ")");
        });
    }

    /** Adds a line to the trace (digested, and kept among the recent events for a failure message). */
    void trace(String line) {
        String entry = (nowMs() - startMs) + " " + line;
        digest.update(entry.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
        recent.addLast("step " + step + " @" + entry);
        if (fullTrace != null) {
            fullTrace.add("step " + step + " @" + entry);
        }
        if (recent.size() > RECENT_EVENTS) {
            recent.removeFirst();
        }
    }

    /** The whole trace when {@code -Dgroup.simulation.trace=true}, else empty. */
    List<String> fullTrace() {
        return fullTrace == null ? List.of() : fullTrace;
    }

    /** Short text of a response for the trace. */
    static String describe(Object response) {
        if (response instanceof JoinGroupResponseData r) {
            Errors error = Errors.forCode(r.errorCode());
            return error == Errors.NONE ? "generation " + r.generationId() + (r.leader().equals(r.memberId())
                ? ", leader of " + r.members().size() + (r.skipAssignment() ? ", skip assignment" : "") : "") : error.name();
        }
        if (response instanceof SyncGroupResponseData r) {
            return Errors.forCode(r.errorCode()).name();
        }
        if (response instanceof Map.Entry<?, ?> leave) {
            return leave.getKey() + " " + leave.getValue();
        }
        return String.valueOf(response);
    }

    // --- the coordinator's side of requests, watched by the invariants ------------------------

    CompletableFuture<JoinGroupResponseData> deliverJoin(SimulatedConsumer consumer, JoinGroupRequestData request) {
        String before = invariants.staticMemberId(consumer.groupInstanceId);
        GroupState stateBefore = invariants.state();
        Set<String> membersBefore = invariants.memberIds();
        CompletableFuture<JoinGroupResponseData> answer = coordinator.joinGroup(request, consumer.joinGroupVersion >= 4,
            consumer.joinGroupVersion >= 9, consumer.name, "/10.0.0." + consumers.indexOf(consumer));
        String parkedAs = request.memberId();
        if (!consumer.isStatic() && request.memberId().isEmpty()) {
            // A client before KIP-394 is added at once, under the id the coordinator gave it.
            Set<String> added = new HashSet<>(invariants.memberIds());
            added.removeAll(membersBefore);
            parkedAs = added.isEmpty() ? null : added.iterator().next();
        }
        if (consumer.isStatic() && request.memberId().isEmpty()) {
            parkedAs = invariants.staticMemberId(consumer.groupInstanceId);
            if (before != null && !before.equals(parkedAs)) {
                invariants.departed(before, "fenced by " + consumer.name + "'s new member id " + alias(parkedAs));
            }
        }
        if (before != null && parkedAs != null && !before.equals(parkedAs)) {
            invariants.replaced(before, parkedAs);
        }
        invariants.heard(parkedAs);
        if (parkedAs != null && !parkedAs.isEmpty()) {
            alias(parkedAs);
            // A static member taking over its place in a Stable group is answered once the new id is written.
            invariants.joinParked(parkedAs, answer, stateBefore == GroupState.STABLE && before != null
                && request.memberId().isEmpty());
        }
        answer.thenAccept(response -> invariants.joinAnswered(request, response));
        return answer;
    }

    CompletableFuture<SyncGroupResponseData> deliverSync(SyncGroupRequestData request) {
        invariants.syncReceived(request.memberId(), request.generationId());
        CompletableFuture<SyncGroupResponseData> answer = coordinator.syncGroup(request);
        invariants.syncParked(request.memberId(), answer);
        answer.thenAccept(r -> invariants.syncAnswered(request, r));
        return answer;
    }

    CompletableFuture<Errors> deliverHeartbeat(SimulatedConsumer consumer, String memberId, int generationId) {
        invariants.heard(memberId);
        return CompletableFuture.completedFuture(coordinator.heartbeat(GROUP, memberId, consumer.groupInstanceId,
            generationId));
    }

    /** A LeaveGroup, of a member (by member id) or by an admin (by instance id). */
    CompletableFuture<Map.Entry<Errors, List<Errors>>> deliverLeave(String memberId, String groupInstanceId,
                                                                   String reason) {
        String target = groupInstanceId == null ? memberId : invariants.staticMemberId(groupInstanceId);
        Map.Entry<Errors, List<Errors>> answer = coordinator.leaveGroup(GROUP,
            List.of(new GroupCoordinator.Leaving(groupInstanceId == null ? memberId : "", groupInstanceId, reason)));
        if (answer.getKey() == Errors.NONE && answer.getValue().get(0) == Errors.NONE && target != null) {
            invariants.departed(target, "left the group (" + reason + ")");
        }
        return CompletableFuture.completedFuture(answer);
    }

    // --- the run -----------------------------------------------------------------------------

    /**
     * Runs the seed to the end.
     *
     * @throws SimulationFailure naming the seed, the step and the event, when an invariant breaks
     */
    Result run() {
        loadOffsetsPartition();
        log.attach(this);
        try {
            for (int i = 0; i < targetConsumers; i++) {
                SimulatedConsumer c = newConsumer(random.nextInt(10) < 4);
                schedule(random.nextInt(2000), "start " + c.name, () -> startConsumer(c));
            }
            schedule(1000 + random.nextInt(2000), "chaos", this::chaos);
            schedule(settings.chaosPhaseMs(), "quiet phase", this::beginQuietPhase);
            while (!events.isEmpty()) {
                Event next = events.peek();
                OptionalLong due = timer.nextDueMs();
                step++;
                if (due.isPresent() && due.getAsLong() <= next.timeMs) {
                    String before = invariants.groupSummary();
                    time.advance(Math.max(0, due.getAsLong() - nowMs()));
                    String after = invariants.groupSummary();
                    trace("coordinator timers" + (before.equals(after) ? "" : ": " + after));
                } else {
                    events.poll();
                    if (next.timeMs > nowMs()) {
                        time.advance(next.timeMs - nowMs());
                    }
                    trace(next.description);
                    next.action.run();
                }
                invariants.checkAfterStep();
                if (liveness.begun() && liveness.check(settings.stayStableMs())) {
                    break;
                }
            }
            return new Result(seed, step, invariants.generation(), liveness.settledAfterMs(),
                HexFormat.of().formatHex(digest.digest()));
        } catch (RuntimeException | AssertionError e) {
            throw new SimulationFailure(seed, step, currentEvent(), e, List.copyOf(recent));
        } finally {
            coordinator.shutdown();
        }
    }

    /**
     * Makes the coordinator the leader of the one offsets partition and waits for the load, which
     * runs on the coordinator's loader thread (the only other thread; nothing happens meanwhile).
     */
    private void loadOffsetsPartition() {
        coordinator.onBecomeLeader(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, 0), 0);
        Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(10))
            .until(() -> coordinator.fetchOffsets(GROUP, null).error() == Errors.NONE);
    }

    private String currentEvent() {
        return recent.isEmpty() ? "start" : recent.getLast();
    }

    List<SimulatedConsumer> runningConsumers() {
        return consumers.stream().filter(SimulatedConsumer::isRunning).toList();
    }

    private SimulatedConsumer newConsumer(boolean isStatic) {
        int sessionMs = 6000 + 1000 * random.nextInt(40);
        int rebalanceMs = 5000 + 1000 * random.nextInt(21);
        String name = isStatic ? "s" + (++nextStatic) : "c" + (++nextDynamic);
        // Mostly current clients; some older ones: v3 (no KIP-394) for a dynamic member, v5 (no KIP-814) for a static one.
        int version = random.nextInt(5) > 0 ? 9 : isStatic ? 5 : 3;
        return new SimulatedConsumer(this, name, isStatic ? "instance-" + name : null, sessionMs, rebalanceMs, version);
    }

    private void startConsumer(SimulatedConsumer consumer) {
        consumers.add(consumer);
        consumer.start();
    }

    /** The same static member started again: a new process with the same group.instance.id and settings. */
    private SimulatedConsumer restarted(SimulatedConsumer old) {
        int incarnation = incarnations.merge(old.groupInstanceId, 1, Integer::sum) + 1;
        String base = old.name.contains("#") ? old.name.substring(0, old.name.indexOf('#')) : old.name;
        return new SimulatedConsumer(this, base + "#" + incarnation, old.groupInstanceId, old.sessionTimeoutMs,
            old.rebalanceTimeoutMs, old.joinGroupVersion);
    }

    /** One random change of membership or of the offsets topic, then the next one a little later. */
    private void chaos() {
        if (quiet) {
            return;
        }
        schedule(100 + random.nextInt(4000), "chaos", this::chaos);
        List<SimulatedConsumer> running = runningConsumers();
        SimulatedConsumer target = running.isEmpty() ? null : running.get(random.nextInt(running.size()));
        int kind = random.nextInt(100);
        if (target == null || running.size() < targetConsumers && kind < 10) {
            SimulatedConsumer c = newConsumer(random.nextInt(10) < 4);
            trace("chaos: a new consumer " + c.name);
            startConsumer(c);
        } else if (kind < 22) {
            trace("chaos: crash " + target);
            target.crash();
            replaceLater(target);
        } else if (kind < 32) {
            trace("chaos: close " + target);
            target.close(random.nextInt(3) == 0 ? 30_000 : random.nextInt(2000));
            replaceLater(target);
        } else if (kind < 46) {
            long stall = 100 + random.nextInt(target.rebalanceTimeoutMs * 3 / 2);
            trace("chaos: " + target.name + "'s application stalls " + stall + " ms");
            target.stall(stall);
        } else if (kind < 54) {
            trace("chaos: " + target.name + " changes its subscription");
            target.changeSubscription();
        } else if (kind < 60) {
            SimulatedConsumer leader = invariants.leaderConsumer();
            if (leader != null) {
                trace("chaos: the leader " + leader.name + " sees the topic metadata change");
                leader.leaderSawMetadataChange();
            }
        } else if (kind < 64) {
            List<SimulatedConsumer> statics = running.stream().filter(SimulatedConsumer::isStatic).toList();
            if (!statics.isEmpty()) {
                SimulatedConsumer s = statics.get(random.nextInt(statics.size()));
                trace("chaos: an admin removes static member " + s.groupInstanceId);
                deliverLeave("", s.groupInstanceId, "removed by an admin");
            }
        } else if (kind < 70) {
            trace("chaos: writes to the offsets topic are slow");
            log.slow(true);
            schedule(500 + random.nextInt(5000), "offsets writes fast again", () -> log.slow(false));
        } else if (kind < 73) {
            trace("chaos: the next write to the offsets topic fails");
            log.failNext(1);
        }
    }

    /** A crashed or closed consumer comes back later, maybe: a static one with its instance id, a dynamic one as a new consumer. */
    private void replaceLater(SimulatedConsumer gone) {
        if (random.nextInt(10) >= 7) {
            return;
        }
        SimulatedConsumer next = gone.isStatic() ? restarted(gone) : newConsumer(false);
        schedule(100 + random.nextInt(20_000), (gone.isStatic() ? "restart " : "start ") + next.name
            + " in place of " + gone.name, () -> {
                if (!quiet) {
                    startConsumer(next);
                }
            });
    }

    private void beginQuietPhase() {
        quiet = true;
        log.slow(false);
        log.failNext(0);
        runningConsumers().forEach(SimulatedConsumer::resumePolling);
        trace("quiet phase: running " + runningConsumers() + "; group " + invariants.groupSummary());
        liveness.begin();
    }
}
