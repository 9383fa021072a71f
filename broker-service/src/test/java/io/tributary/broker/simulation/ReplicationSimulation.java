package io.tributary.broker.simulation;

import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * One seeded run of replication: three brokers with real {@code Partition}s and logs on disk,
 * a controller, a {@link FakeZooKeeper}, a {@link SimulatedNetwork} and an acks=all producer,
 * all driven by one {@link SimulatedEventQueue} and one {@code Random(seed)} (no threads, no
 * sleeps, no wall clock), so a seed always runs the same events in the same order. For
 * {@link Settings#faultPhaseMs} of simulated time faults come at random (broker crashes and
 * restarts, session expiries without a crash, slow brokers, lost and delayed messages); then
 * everything heals for {@link Settings#healPhaseMs}, and every acknowledged batch must be in
 * each partition's final leader. {@link SimulationInvariants} are checked after every event.
 *
 * <p>The trace (every event's time and description) is digested, so two runs of a seed can be
 * compared. Not thread-safe; one run per instance.
 */
final class ReplicationSimulation {

    static final Uuid TOPIC_ID = new Uuid(16, 5);
    static final String TOPIC = "events";
    static final int BROKERS = 3;
    static final int PARTITIONS = 2;
    static final int MIN_INSYNC_REPLICAS = 2;
    static final long REPLICA_LAG_TIME_MAX_MS = 1000;
    static final long SESSION_TIMEOUT_MS = 1000;
    static final long ISR_CHECK_INTERVAL_MS = 250;
    static final long REQUEST_TIMEOUT_MS = 500;
    static final long FETCH_BACKOFF_MS = 50;
    static final long FETCH_IDLE_MS = 100;
    static final long PRODUCE_POLL_MS = 100;
    static final int FETCH_MAX_BYTES = 16 * 1024;
    static final long MAX_ISR_WRITE_DELAY_MS = 100;
    static final long ZK_TICK_MS = 50;
    private static final int MAX_MESSAGE_DELAY_MS = 20;
    private static final double MESSAGE_LOSS = 0.02;
    private static final int RECENT_EVENTS = 40;

    /**
     * @param faultPhaseMs  simulated time with faults and produces
     * @param healPhaseMs   simulated time after, with every broker up and no faults
     * @param plantedIsrBug whether the ISR writes skip their version check (the planted bug)
     */
    record Settings(long faultPhaseMs, long healPhaseMs, boolean plantedIsrBug) {
        static Settings standard() {
            return new Settings(4_000, 2_000, false);
        }
    }

    /** A run that kept every invariant. */
    record Result(long seed, long steps, int acknowledged, String traceDigest) {
    }

    /** A run that broke an invariant (or met an unexpected exception), with what is needed to replay it. */
    static final class SimulationFailure extends RuntimeException {
        final long seed;
        final long step;
        final boolean invariantViolation;

        SimulationFailure(long seed, long step, String event, Throwable cause, List<String> recent) {
            super("seed " + seed + " failed at step " + step + " in event '" + event + "': " + cause.getMessage()
                + "\n  replay: ReplicationSimulationTest#replaysSeed with -Dsimulation.seed=" + seed
                + "\n  last events:\n    " + String.join("\n    ", recent), cause);
            this.seed = seed;
            this.step = step;
            this.invariantViolation = cause instanceof SimulationInvariants.InvariantViolation;
        }
    }

    final long seed;
    final boolean plantedIsrBug;
    final MockTime time = new MockTime(0);
    final SimulatedEventQueue queue = new SimulatedEventQueue(time);
    final Random random;
    final FakeZooKeeper zk;
    final SimulatedNetwork network;
    final SimulationInvariants invariants = new SimulationInvariants(this);
    final Map<TopicPartition, List<Integer>> assignments = new LinkedHashMap<>();
    final LogConfig logConfig = LogConfig.create(LogConfig.brokerDefaults(BrokerProperties.bind(Map.of())), Map.of());
    private final Settings settings;
    private final List<SimulatedBroker> brokers = new ArrayList<>();
    private final Set<Integer> slow = new TreeSet<>();
    private final MessageDigest digest;
    private final Deque<String> recent = new ArrayDeque<>();
    /** Every trace line, when {@code -Dsimulation.trace=true} asks for it (to read a replayed seed). */
    private final List<String> fullTrace = Boolean.getBoolean("simulation.trace") ? new ArrayList<>() : null;
    private boolean healing;
    private long step;
    private int produced;

    ReplicationSimulation(long seed, Settings settings, File dir) {
        this.seed = seed;
        this.settings = settings;
        this.plantedIsrBug = settings.plantedIsrBug();
        this.random = new Random(seed);
        this.zk = new FakeZooKeeper(queue, random, 10);
        this.network = new SimulatedNetwork(this, random, MAX_MESSAGE_DELAY_MS, MESSAGE_LOSS);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (int p = 0; p < PARTITIONS; p++) {
            List<Integer> replicas = new ArrayList<>();
            for (int r = 0; r < BROKERS; r++) {
                replicas.add((p + r) % BROKERS);
            }
            assignments.put(new TopicPartition(TOPIC, p), List.copyOf(replicas));
        }
        for (int b = 0; b < BROKERS; b++) {
            brokers.add(new SimulatedBroker(b, this, new File(dir, "broker-" + b)));
        }
    }

    SimulatedBroker broker(int id) {
        return brokers.get(id);
    }

    List<SimulatedBroker> brokers() {
        return brokers;
    }

    boolean isSlow(int brokerId) {
        return slow.contains(brokerId);
    }

    boolean isHealing() {
        return healing;
    }

    /** Adds a line to the trace (digested, and kept among the recent events for a failure message). */
    void trace(String line) {
        String entry = time.milliseconds() + " " + line;
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

    /**
     * Runs the seed to the end.
     *
     * @throws SimulationFailure naming the seed, the step and the event, when an invariant breaks
     */
    Result run() {
        long setupSession = zk.createSession(Long.MAX_VALUE, expired -> { });
        zk.create(setupSession, SimulatedController.CONTROLLER_EPOCH, 0, false);
        assignments.forEach((tp, replicas) -> zk.create(setupSession, SimulatedController.statePath(tp),
            new LeaderAndIsr(LeaderAndIsr.NO_LEADER, 0, replicas, 0, -1), false));
        brokers.forEach(b -> queue.schedule(random.nextInt(50), "start broker " + b.id, b::start));
        queue.schedule(ZK_TICK_MS, "zookeeper tick", this::zkTick);
        queue.schedule(200, "produce", this::produce);
        queue.schedule(500 + random.nextInt(1000), "fault", this::fault);
        queue.schedule(settings.faultPhaseMs(), "heal", this::heal);
        long endMs = settings.faultPhaseMs() + settings.healPhaseMs();
        try {
            while (!queue.isEmpty() && queue.nowMs() < endMs) {
                SimulatedEventQueue.Event event = queue.next();
                step++;
                trace(event.description());
                try {
                    event.action().run();
                    invariants.checkAfterEvent();
                } catch (RuntimeException e) {
                    throw new SimulationFailure(seed, step, event.description(), e, List.copyOf(recent));
                }
            }
            try {
                invariants.checkAcknowledgedInLeaders();
            } catch (RuntimeException e) {
                throw new SimulationFailure(seed, step, "end of run", e, List.copyOf(recent));
            }
            return new Result(seed, step, invariants.acknowledgedCount(), HexFormat.of().formatHex(digest.digest()));
        } finally {
            brokers.stream().filter(SimulatedBroker::isRunning).forEach(SimulatedBroker::crash);
        }
    }

    /** The whole trace when {@code -Dsimulation.trace=true}, else empty. */
    List<String> fullTrace() {
        return fullTrace == null ? List.of() : fullTrace;
    }

    private void zkTick() {
        zk.tick();
        queue.schedule(ZK_TICK_MS, "zookeeper tick", this::zkTick);
    }

    /** One acks=all batch of one to three records to the leader the producer's metadata (the stored state) names. */
    private void produce() {
        if (!healing) {
            queue.schedule(10 + random.nextInt(50), "produce", this::produce);
        }
        TopicPartition tp = new TopicPartition(TOPIC, random.nextInt(PARTITIONS));
        LeaderAndIsr state = (LeaderAndIsr) zk.peek(SimulatedController.statePath(tp)).orElseThrow().data();
        if (!state.hasLeader()) {
            return;
        }
        int id = ++produced;
        int count = 1 + random.nextInt(3);
        List<String> values = new ArrayList<>();
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            values.add("batch-" + id + "-" + i);
            records[i] = new SimpleRecord(values.get(i).getBytes(StandardCharsets.UTF_8));
        }
        MemoryRecords batch = MemoryRecords.withRecords(Compression.NONE, records);
        network.<SimulatedBroker.ProduceResponse>send(SimulatedNetwork.PRODUCER, state.leader(),
            "produce batch-" + id + " to " + tp, (broker, reply) -> broker.produce(tp, batch, reply), response -> {
                trace("producer: batch-" + id + " " + response);
                if (response.error() == Errors.NONE) {
                    invariants.acknowledged(new SimulationInvariants.Acked(tp, response.baseOffset(),
                        response.lastOffset(), values));
                }
            });
    }

    /** A random fault: a crash (restarted later), a session expiry without a crash, a slow broker, or none. */
    private void fault() {
        if (healing) {
            return;
        }
        queue.schedule(200 + random.nextInt(1500), "fault", this::fault);
        List<SimulatedBroker> running = brokers.stream().filter(SimulatedBroker::isRunning).toList();
        SimulatedBroker target = running.get(random.nextInt(running.size()));
        int kind = random.nextInt(10);
        if (kind < 3 && running.size() > 1) {
            trace("fault: crash broker " + target.id);
            target.crash();
            queue.schedule(300 + random.nextInt(4000), "restart broker " + target.id, () -> restart(target));
        } else if (kind < 6) {
            trace("fault: expire the session of broker " + target.id);
            target.expireSession();
        } else if (kind < 8) {
            trace("fault: broker " + target.id + " is slow");
            slow.add(target.id);
            queue.schedule(200 + random.nextInt(2000), "broker " + target.id + " is fast again",
                () -> slow.remove(target.id));
        }
    }

    private void restart(SimulatedBroker broker) {
        if (!broker.isRunning()) {
            broker.start();
        }
    }

    /** The end of the faults: every broker restarts, nothing is slow or lost any more, the producer stops. */
    private void heal() {
        healing = true;
        slow.clear();
        brokers.forEach(this::restart);
    }
}
