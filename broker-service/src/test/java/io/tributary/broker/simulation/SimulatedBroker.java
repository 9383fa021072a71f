package io.tributary.broker.simulation;

import io.tributary.broker.cluster.BrokerEpoch;
import io.tributary.broker.cluster.LeaderAndIsr;
import io.tributary.broker.log.EpochEntry;
import io.tributary.broker.log.LogAppendInfo;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.replica.FollowerRead;
import io.tributary.broker.replica.Partition;
import io.tributary.broker.replica.PartitionContext;
import io.tributary.broker.replica.ReplicaStats;
import io.tributary.broker.testing.MockScheduler;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Records;

/**
 * One broker of the simulation: a real {@link LogManager} over its own directory and a real
 * {@link Partition} per assigned partition, driven by simulated events instead of threads.
 * It registers {@code /brokers/ids/N} with its session, runs a {@link SimulatedController},
 * applies the partition states it watches as {@code ReplicaStateChanges} does (makeLeader or
 * makeFollower, a follower starting to fetch at its log end; a state naming it leader that was
 * written before its registration is not led), fetches as
 * {@code ReplicaFetcherThread} does (readForFollower then updateFollowerFetchState on the
 * leader; truncateToDivergence, appendRecordsToFollower or handleOffsetOutOfRange here), checks
 * its ISR for lagging followers, and serves acks=all produces.
 *
 * <p>A crash drops the Partition objects, the fetch states and every pending event of this
 * incarnation (each event checks the incarnation it was scheduled in), and closes the logs'
 * files without a flush or checkpoint ({@link LogManager#crash}); a restart reloads them.
 * Not thread-safe (one simulation thread).
 */
final class SimulatedBroker {

    /** A follower's fetch position for one partition, as {@code PartitionFetchState}; {@code requestId} 0 when idle. */
    private static final class FetchState {
        final int leader;
        final int leaderEpoch;
        long fetchOffset;
        long requestId;

        FetchState(int leader, int leaderEpoch, long fetchOffset) {
            this.leader = leader;
            this.leaderEpoch = leaderEpoch;
            this.fetchOffset = fetchOffset;
        }
    }

    /** A Fetch response for one partition. */
    record FetchResponse(Errors error, EpochEntry divergingEpoch, MemoryRecords records, long highWatermark,
                         long logStartOffset) {
    }

    /** An acks=all produce appended as leader and waiting for its followers. */
    private record PendingProduce(Partition partition, LogAppendInfo info, long deadlineMs,
                                  Consumer<ProduceResponse> reply) {
    }

    /** A Produce response: the error, and the offsets of the appended batch when NONE. */
    record ProduceResponse(Errors error, long baseOffset, long lastOffset) {
    }

    final int id;
    private final ReplicationSimulation sim;
    private final File dir;
    private int incarnation;
    /** The czxid of this broker's current registration. */
    private long brokerEpoch = BrokerEpoch.NOT_REGISTERED;
    private boolean running;
    private long session;
    private LogManager logManager;
    private SimulatedController controller;
    private final Map<TopicPartition, Partition> partitions = new LinkedHashMap<>();
    private final Map<TopicPartition, FetchState> fetchStates = new LinkedHashMap<>();
    private final Map<TopicPartition, Consumer<String>> stateWatchers = new LinkedHashMap<>();
    private final List<PendingProduce> pendingProduces = new ArrayList<>();
    private long nextRequestId;

    SimulatedBroker(int id, ReplicationSimulation sim, File dir) {
        this.id = id;
        this.sim = sim;
        this.dir = dir;
    }

    boolean isRunning() {
        return running;
    }

    int incarnation() {
        return incarnation;
    }

    Map<TopicPartition, Partition> partitions() {
        return partitions;
    }

    /** Schedules {@code action} for this incarnation only: it is dropped if the broker crashes first. */
    void later(long delayMs, String description, Runnable action) {
        int inc = incarnation;
        sim.queue.schedule(delayMs, "broker " + id + ": " + description, () -> {
            if (running && incarnation == inc) {
                action.run();
            }
        });
    }

    void start() {
        incarnation++;
        running = true;
        int inc = incarnation;
        logManager = new LogManager(List.of(dir), new LogManager.Settings(1, 300_000, Long.MAX_VALUE / 4, 60_000, 5000,
            86_400_000, 600_000), new MockScheduler(sim.time), sim.time);
        try {
            logManager.loadLogs(topic -> sim.logConfig);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        FakeIsrUpdater isrUpdater = sim.plantedIsrBug
            ? FakeIsrUpdater.withoutVersionCheck(sim.zk, sim.queue, sim.random, id, () -> session,
                () -> running && incarnation == inc, ReplicationSimulation.MAX_ISR_WRITE_DELAY_MS)
            : FakeIsrUpdater.conditional(sim.zk, sim.queue, sim.random, id, () -> session,
                () -> running && incarnation == inc, ReplicationSimulation.MAX_ISR_WRITE_DELAY_MS);
        PartitionContext context = new PartitionContext(id, isrUpdater, sim.time,
            ReplicationSimulation.REPLICA_LAG_TIME_MAX_MS, tp -> {
                if (running && incarnation == inc) {
                    completePendingProduces(tp);
                }
            },
            (tp, broker) -> sim.zk.peek(SimulatedController.BROKER_IDS + "/" + broker).isPresent(), new ReplicaStats());
        stateWatchers.clear();
        for (TopicPartition tp : sim.assignments.keySet()) {
            partitions.put(tp, new Partition(tp, context));
            stateWatchers.put(tp, path -> later(0, "reads state of " + tp, () -> readState(tp)));
        }
        controller = new SimulatedController(id, sim.zk, sim.queue, sim.assignments);
        connect();
        heartbeat();
        later(sim.random.nextInt((int) ReplicationSimulation.ISR_CHECK_INTERVAL_MS), "ISR expiration check",
            this::isrExpiration);
        later(ReplicationSimulation.PRODUCE_POLL_MS, "produce expiration", this::expirePendingProduces);
    }

    /** A new ZooKeeper session: registers, joins the controller election, reads every partition state. */
    private void connect() {
        session = sim.zk.createSession(ReplicationSimulation.SESSION_TIMEOUT_MS, expired -> later(0, "session expired",
            () -> {
                if (session == expired) {
                    controller.resign();
                    connect();
                }
            }));
        register();
    }

    private void register() {
        if (!sim.zk.isAlive(session)) {
            return;
        }
        try {
            String path = SimulatedController.BROKER_IDS + "/" + id;
            sim.zk.create(session, path, "broker-" + id, true);
            brokerEpoch = sim.zk.exists(session, path, null).orElseThrow().czxid();
        } catch (FakeZooKeeper.ZkException e) {
            // The previous incarnation's registration lives until its session expires.
            later(ReplicationSimulation.SESSION_TIMEOUT_MS / 4, "retries registration", this::register);
            return;
        }
        controller.start(session);
        sim.assignments.keySet().forEach(this::readState);
    }

    private void heartbeat() {
        sim.zk.heartbeat(session);
        later(ReplicationSimulation.SESSION_TIMEOUT_MS / 3, "heartbeat", this::heartbeat);
    }

    /** A crash: no flush, no checkpoint; Partition objects and fetch states are dropped; the session is left to expire. */
    void crash() {
        running = false;
        brokerEpoch = BrokerEpoch.NOT_REGISTERED;
        controller.resign();
        partitions.clear();
        fetchStates.clear();
        pendingProduces.clear();
        logManager.crash();
    }

    /** Expires this broker's session now (a long GC pause, a network cut to ZooKeeper) without a crash. */
    void expireSession() {
        sim.zk.expire(session);
    }

    private void readState(TopicPartition tp) {
        if (!sim.zk.isAlive(session)) {
            return;
        }
        LeaderAndIsr state;
        try {
            state = SimulatedController.withVersion(sim.zk.getData(session, SimulatedController.statePath(tp),
                stateWatchers.get(tp)));
        } catch (FakeZooKeeper.ZkException e) {
            return;
        }
        applyState(tp, state);
    }

    /** As {@code ReplicaStateChanges}: leader or follower of the state's leader and epoch. */
    private void applyState(TopicPartition tp, LeaderAndIsr state) {
        List<Integer> replicas = sim.assignments.get(tp);
        PartitionLog log = logManager.getLog(tp).orElseGet(() -> logManager.getOrCreateLog(tp,
            ReplicationSimulation.TOPIC_ID, sim.logConfig));
        Partition partition = partitions.get(tp);
        boolean leadsThisEpoch = partition.isLeader() && partition.leaderEpoch() == state.leaderEpoch();
        if (state.leader() == id && !leadsThisEpoch && BrokerEpoch.precedes(brokerEpoch, state)) {
            // Decided for an earlier run of this broker: wait, without a leader, for the controller's new election.
            fetchStates.remove(tp);
            partition.makeFollower(state.withoutLeader(), replicas, ReplicationSimulation.TOPIC_ID, log);
            sim.trace("broker " + id + " does not lead " + tp + " in epoch " + state.leaderEpoch()
                + ": written before its registration");
        } else if (state.leader() == id) {
            fetchStates.remove(tp);
            if (partition.makeLeader(state, replicas, ReplicationSimulation.TOPIC_ID, log)) {
                sim.trace("broker " + id + " leads " + tp + " in epoch " + state.leaderEpoch() + " (log end "
                    + log.logEndOffset() + ", high watermark " + log.highWatermark() + ")");
                sim.invariants.becameLeader(this, tp, partition);
            }
        } else if (partition.makeFollower(state, replicas, ReplicationSimulation.TOPIC_ID, log)) {
            fetchStates.remove(tp);
            if (state.hasLeader()) {
                FetchState fetch = new FetchState(state.leader(), state.leaderEpoch(), log.logEndOffset());
                fetchStates.put(tp, fetch);
                fetch(tp, fetch);
            }
        }
        completePendingProduces(tp);
    }

    private void isrExpiration() {
        partitions.values().forEach(Partition::maybeShrinkIsr);
        later(ReplicationSimulation.ISR_CHECK_INTERVAL_MS, "ISR expiration check", this::isrExpiration);
    }

    /** Sends one fetch to the leader, with a timeout that sends it again when the request or answer is lost. */
    private void fetch(TopicPartition tp, FetchState fetch) {
        if (fetchStates.get(tp) != fetch) {
            return;
        }
        PartitionLog log = partitions.get(tp).log().orElseThrow();
        long requestId = ++nextRequestId;
        fetch.requestId = requestId;
        long offset = fetch.fetchOffset;
        int lastFetchedEpoch = log.leaderEpochCache().latestEpoch().orElse(-1);
        sim.network.<FetchResponse>send(id, fetch.leader, "fetch " + tp + " at " + offset + " epoch "
            + fetch.leaderEpoch + " last fetched epoch " + lastFetchedEpoch,
            (leader, reply) -> reply.accept(leader.answerFetch(id, tp, offset, fetch.leaderEpoch, lastFetchedEpoch)),
            response -> fetchAnswered(tp, fetch, requestId, response));
        later(ReplicationSimulation.REQUEST_TIMEOUT_MS, "fetch timeout " + tp, () -> {
            if (fetch.requestId == requestId) {
                fetch(tp, fetch);
            }
        });
    }

    /** As leader: the Fetch handling of {@code ReplicaManager.readFromLog} for a follower. */
    FetchResponse answerFetch(int follower, TopicPartition tp, long fetchOffset, int leaderEpoch, int lastFetchedEpoch) {
        Partition partition = partitions.get(tp);
        try {
            FollowerRead read = partition.readForFollower(fetchOffset, leaderEpoch, lastFetchedEpoch,
                ReplicationSimulation.FETCH_MAX_BYTES, true);
            PartitionLog log = partition.log().orElseThrow();
            if (read.divergingEpoch() != null) {
                return new FetchResponse(Errors.NONE, read.divergingEpoch(), MemoryRecords.EMPTY, log.highWatermark(),
                    log.logStartOffset());
            }
            if (partition.updateFollowerFetchState(follower, read.data().fetchOffsetMetadata(), -1,
                    sim.time.milliseconds(), read.leaderLogEndOffset())) {
                completePendingProduces(tp);
            }
            return new FetchResponse(Errors.NONE, null, copy(read.data().records()), log.highWatermark(),
                log.logStartOffset());
        } catch (OffsetOutOfRangeException e) {
            PartitionLog log = partition.log().orElseThrow();
            return new FetchResponse(Errors.OFFSET_OUT_OF_RANGE, null, MemoryRecords.EMPTY, log.highWatermark(),
                log.logStartOffset());
        } catch (ApiException e) {
            return new FetchResponse(Errors.forException(e), null, MemoryRecords.EMPTY, -1, -1);
        }
    }

    /** The bytes as a response carries them: a copy, since the leader's file may be truncated later. */
    private static MemoryRecords copy(Records records) {
        ByteBuffer buffer = ByteBuffer.allocate(records.sizeInBytes());
        try {
            if (records instanceof FileRecords file) {
                file.readInto(buffer, 0);
            } else {
                buffer.put(((MemoryRecords) records).buffer().duplicate());
                buffer.flip();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return MemoryRecords.readableRecords(buffer);
    }

    /** As {@code ReplicaFetcherThread.processPartitionData}. */
    private void fetchAnswered(TopicPartition tp, FetchState fetch, long requestId, FetchResponse response) {
        if (fetchStates.get(tp) != fetch || fetch.requestId != requestId) {
            return; // restarted or removed while the request was out
        }
        fetch.requestId = 0;
        Partition partition = partitions.get(tp);
        long backoffMs = ReplicationSimulation.FETCH_BACKOFF_MS;
        Optional<Long> newEnd = Optional.of(fetch.fetchOffset);
        try {
            switch (response.error()) {
                case NONE -> {
                    if (response.divergingEpoch() != null) {
                        newEnd = partition.truncateToDivergence(fetch.leaderEpoch, response.divergingEpoch().epoch(),
                            response.divergingEpoch().startOffset());
                        backoffMs = 0;
                    } else {
                        newEnd = partition.appendRecordsToFollower(response.records(), fetch.leaderEpoch,
                            response.highWatermark(), response.logStartOffset())
                            .map(info -> partition.log().orElseThrow().logEndOffset());
                        backoffMs = response.records().sizeInBytes() > 0 ? 0 : ReplicationSimulation.FETCH_IDLE_MS;
                    }
                }
                case OFFSET_OUT_OF_RANGE -> newEnd = partition.handleOffsetOutOfRange(fetch.leaderEpoch,
                    fetch.fetchOffset, response.logStartOffset(), response.highWatermark());
                default -> {
                }
            }
        } catch (RuntimeException e) {
            sim.trace("broker " + id + " could not apply the fetch of " + tp + ": " + e);
        }
        if (newEnd.isEmpty()) {
            fetchStates.remove(tp);
            return;
        }
        fetch.fetchOffset = newEnd.get();
        later(backoffMs, "next fetch " + tp, () -> fetch(tp, fetch));
    }

    /**
     * As leader: appends an acks=all batch, which then waits, as in the produce purgatory, until
     * {@code checkEnoughReplicasReachOffset} answers: checked when a follower's fetch or an ISR
     * write moved the partition, and by the expiration timer.
     */
    void produce(TopicPartition tp, MemoryRecords records, Consumer<ProduceResponse> reply) {
        Partition partition = partitions.get(tp);
        LogAppendInfo info;
        try {
            info = partition.appendRecordsToLeader(records, (short) -1, ReplicationSimulation.MIN_INSYNC_REPLICAS);
        } catch (ApiException e) {
            reply.accept(new ProduceResponse(Errors.forException(e), -1, -1));
            return;
        }
        pendingProduces.add(new PendingProduce(partition, info, sim.time.milliseconds()
            + ReplicationSimulation.REQUEST_TIMEOUT_MS, reply));
        completePendingProduces(tp);
    }

    /** Answers the waiting produces of {@code tp} (of every partition when null) that are done or expired. */
    private void completePendingProduces(TopicPartition tp) {
        long now = sim.time.milliseconds();
        Iterator<PendingProduce> it = pendingProduces.iterator();
        while (it.hasNext()) {
            PendingProduce p = it.next();
            if (tp != null && !p.partition.topicPartition().equals(tp)) {
                continue;
            }
            Errors result = p.partition.checkEnoughReplicasReachOffset(p.info.lastOffset() + 1,
                ReplicationSimulation.MIN_INSYNC_REPLICAS);
            if (result == null && now >= p.deadlineMs) {
                result = Errors.REQUEST_TIMED_OUT;
            }
            if (result != null) {
                it.remove();
                p.reply.accept(new ProduceResponse(result, p.info.firstOffset(), p.info.lastOffset()));
            }
        }
    }

    private void expirePendingProduces() {
        completePendingProduces(null);
        later(ReplicationSimulation.PRODUCE_POLL_MS, "produce expiration", this::expirePendingProduces);
    }
}
