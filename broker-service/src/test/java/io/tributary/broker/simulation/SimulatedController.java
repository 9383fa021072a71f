package io.tributary.broker.simulation;

import io.tributary.broker.cluster.LeaderAndIsr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The controller as one broker runs it over the {@link FakeZooKeeper}, as Kafka's ZooKeeper-mode
 * controller: it wins by creating the ephemeral {@code /controller} node, bumps
 * {@code /controller_epoch}, watches the broker registrations ({@code /brokers/ids/N}), and when
 * the registrations change re-elects the leader of every partition whose leader is gone, from
 * the ISR (clean elections only), removing gone brokers from the ISR. Every write is a multi-op
 * that checks the version of {@code /controller_epoch} it wrote, so a deposed controller's late
 * writes fail, and the partition state's version, so a leader's ISR write in between is not
 * overwritten. Every write bumps the leader epoch.
 *
 * <p>As {@code io.tributary.broker.cluster.Controller#reconcile}, a live broker that registered
 * after a partition's state was written (its registration's czxid above the state's mzxid) has
 * restarted or lost its session since the state named it, and counts as failed and started
 * again (Kafka's "bounced" broker): it loses that leadership and its ISR place, and is elected
 * again, in a new epoch, only when no other in-sync replica lives. Without this rule, seed 104
 * showed a restarted leader leading its old epoch again from the high watermark it recovered.
 *
 * <p>It stops acting when its session expires ({@link #resign}). Not thread-safe (one
 * simulation thread).
 */
final class SimulatedController {

    static final String CONTROLLER = "/controller";
    static final String CONTROLLER_EPOCH = "/controller_epoch";
    static final String BROKER_IDS = "/brokers/ids";

    private final int brokerId;
    private final FakeZooKeeper zk;
    private final SimulatedEventQueue queue;
    private final Map<TopicPartition, List<Integer>> assignments;
    private final Consumer<String> controllerWatcher = path -> tryElect();
    private final Consumer<String> brokersWatcher = path -> onBrokerChange();
    private long session;
    private boolean active;
    private int controllerEpoch;
    private int controllerEpochZkVersion;

    SimulatedController(int brokerId, FakeZooKeeper zk, SimulatedEventQueue queue,
                        Map<TopicPartition, List<Integer>> assignments) {
        this.brokerId = brokerId;
        this.zk = zk;
        this.queue = queue;
        this.assignments = assignments;
    }

    static String statePath(TopicPartition tp) {
        return "/brokers/topics/" + tp.topic() + "/partitions/" + tp.partition() + "/state";
    }

    /** Reads a partition state with its node version as {@code zkVersion}. */
    static LeaderAndIsr withVersion(FakeZooKeeper.Versioned v) {
        LeaderAndIsr s = (LeaderAndIsr) v.data();
        return new LeaderAndIsr(s.leader(), s.leaderEpoch(), s.isr(), s.controllerEpoch(), v.version(), v.mzxid());
    }

    boolean isActive() {
        return active;
    }

    /** Takes part in the controller election with this (new) session. */
    void start(long newSession) {
        session = newSession;
        active = false;
        tryElect();
    }

    /** The session was lost: stops acting at once. */
    void resign() {
        active = false;
    }

    private void tryElect() {
        if (active || !zk.isAlive(session)) {
            return;
        }
        try {
            if (zk.exists(session, CONTROLLER, controllerWatcher).isPresent()) {
                return;
            }
            zk.create(session, CONTROLLER, brokerId, true);
            FakeZooKeeper.Versioned epoch = zk.getData(session, CONTROLLER_EPOCH, null);
            controllerEpoch = (Integer) epoch.data() + 1;
            controllerEpochZkVersion = zk.setData(session, CONTROLLER_EPOCH, controllerEpoch, epoch.version());
            active = true;
            zk.exists(session, CONTROLLER, controllerWatcher);
            onBrokerChange();
        } catch (FakeZooKeeper.ZkException e) {
            // Another broker won the race, or this session is gone: the watch on /controller tells.
        }
    }

    /** The registrations changed (or this controller just started): elects where leaders are gone. */
    private void onBrokerChange() {
        if (!active || !zk.isAlive(session)) {
            return;
        }
        Map<Integer, Long> live = new TreeMap<>();
        try {
            for (String id : zk.getChildren(session, BROKER_IDS, brokersWatcher)) {
                zk.exists(session, BROKER_IDS + "/" + id, null)
                    .ifPresent(registration -> live.put(Integer.parseInt(id), registration.czxid()));
            }
            for (Map.Entry<TopicPartition, List<Integer>> e : assignments.entrySet()) {
                if (!electIfNeeded(e.getKey(), e.getValue(), live)) {
                    queue.schedule(10, "controller " + brokerId + " retries " + e.getKey(), this::onBrokerChange);
                }
            }
        } catch (FakeZooKeeper.ZkException e) {
            active = false;
        }
    }

    /**
     * @param live the live brokers and their registrations' czxids
     * @return false when the write lost a race on the partition state's version (to be retried)
     */
    private boolean electIfNeeded(TopicPartition tp, List<Integer> replicas, Map<Integer, Long> live) {
        LeaderAndIsr state = withVersion(zk.getData(session, statePath(tp), null));
        Set<Integer> notRestarted = new TreeSet<>();
        live.forEach((id, czxid) -> {
            if (!state.writtenBefore(czxid)) {
                notRestarted.add(id);
            }
        });
        LeaderAndIsr next;
        if (state.hasLeader() && notRestarted.contains(state.leader())) {
            List<Integer> keptIsr = state.isr().stream().filter(r -> r == state.leader() || notRestarted.contains(r))
                .toList();
            if (keptIsr.size() == state.isr().size()) {
                return true;
            }
            next = state.newLeader(state.leader(), keptIsr, controllerEpoch);
        } else {
            Optional<Integer> leader = fromIsr(replicas, state.isr(), notRestarted)
                .or(() -> fromIsr(replicas, state.isr(), live.keySet()));
            if (leader.isPresent()) {
                int chosen = leader.get();
                next = state.newLeader(chosen, state.isr().stream().filter(r -> r == chosen || notRestarted.contains(r))
                    .toList(), controllerEpoch);
            } else if (state.hasLeader()) {
                // No live replica in the ISR: offline, keeping the last ISR (never empty) for its return.
                next = state.newLeader(LeaderAndIsr.NO_LEADER, state.isr(), controllerEpoch);
            } else {
                return true;
            }
        }
        try {
            zk.multi(session, List.of(new FakeZooKeeper.Check(CONTROLLER_EPOCH, controllerEpochZkVersion),
                new FakeZooKeeper.SetData(statePath(tp), next, state.zkVersion())));
            return true;
        } catch (FakeZooKeeper.ZkException e) {
            if (e.code == FakeZooKeeper.Code.BAD_VERSION
                    && zk.getData(session, CONTROLLER_EPOCH, null).version() == controllerEpochZkVersion) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The first assigned replica that is in the ISR and alive: the rule of
     * {@code io.tributary.broker.cluster.PartitionLeaderElection.fromIsr} (package-private there),
     * with no broker shutting down or excluded.
     */
    static Optional<Integer> fromIsr(List<Integer> replicas, List<Integer> isr, Set<Integer> live) {
        return replicas.stream().filter(r -> isr.contains(r) && live.contains(r)).findFirst();
    }
}
