package io.tributary.broker.cluster;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cluster controller: exactly one broker holds the ephemeral {@code /controller} node and
 * acts. It creates the leadership of new partitions, elects leaders from the ISR when a leader's
 * registration disappears (keeping a partition offline rather than electing an out-of-sync
 * replica, unless {@code unclean.leader.election.enable}), removes dead brokers from ISRs, and
 * carries out topic deletions.
 *
 * <p>Its work is a reconciliation of the desired state (assignments, live brokers) with the
 * partition states, run on one thread ({@code controller-event-thread}) after each relevant
 * change. Fencing: becoming controller increments {@code /controller_epoch}; every write is a
 * ZooKeeper transaction that also checks that node's version, so a deposed controller's late
 * writes fail. On a SUSPENDED or LOST ZooKeeper connection it stops acting at once.
 *
 * <p>Thread-safe.
 */
public final class Controller implements MetadataListener, Closeable {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final int brokerId;
    private final KafkaZkClient zkClient;
    private final MetadataCache metadataCache;
    private final Predicate<String> uncleanLeaderElectionEnabled;
    private final Time time;
    private final ExecutorService eventThread;
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private final ConnectionStateListener connectionListener = this::onConnectionStateChanged;
    private volatile boolean active;
    private volatile boolean closed;
    private volatile int epoch;
    private volatile int epochZkVersion;

    /**
     * @param uncleanLeaderElectionEnabled whether a topic allows electing an out-of-sync replica
     */
    public Controller(int brokerId, KafkaZkClient zkClient, MetadataCache metadataCache,
                      Predicate<String> uncleanLeaderElectionEnabled, Time time) {
        this.brokerId = brokerId;
        this.zkClient = zkClient;
        this.metadataCache = metadataCache;
        this.uncleanLeaderElectionEnabled = uncleanLeaderElectionEnabled;
        this.time = time;
        this.eventThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "controller-event-thread");
            t.setDaemon(true);
            return t;
        });
    }

    /** Joins the controller election. */
    public void startup() {
        zkClient.curator().getConnectionStateListenable().addListener(connectionListener);
        submit(this::elect);
    }

    public boolean isActive() {
        return active;
    }

    /** The epoch of this controller while active. */
    public int epoch() {
        return epoch;
    }

    private void onConnectionStateChanged(org.apache.curator.framework.CuratorFramework client, ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
            if (active) {
                log.warn("ZooKeeper connection {}: broker {} stops acting as controller", state, brokerId);
            }
            active = false;
        } else if (state == ConnectionState.RECONNECTED) {
            submit(this::elect);
        }
    }

    @Override
    public void onControllerChanged(int controllerId) {
        if (controllerId == -1) {
            submit(this::elect);
        } else if (controllerId != brokerId && active) {
            log.warn("Broker {} sees controller {} and resigns", brokerId, controllerId);
            active = false;
        }
    }

    @Override
    public void onBrokersChanged() {
        queueReconcile();
    }

    @Override
    public void onTopicChanged(TopicAssignment assignment) {
        queueReconcile();
    }

    @Override
    public void onPartitionStateChanged(TopicPartition tp, LeaderAndIsr state) {
        if (!state.hasLeader()) {
            queueReconcile();
        }
    }

    @Override
    public void onTopicDeletionRequested(String topic) {
        queueReconcile();
    }

    private void elect() {
        if (active || closed) {
            return;
        }
        try {
            ObjectNode node = ZkJson.object();
            node.put("version", 2);
            node.put("brokerid", brokerId);
            node.put("timestamp", Long.toString(time.milliseconds()));
            node.put("kraftControllerEpoch", -1);
            boolean won = zkClient.createEphemeral(ZkPaths.CONTROLLER, ZkJson.bytes(node));
            if (!won) {
                Optional<KafkaZkClient.Versioned> existing = zkClient.getDataAndVersion(ZkPaths.CONTROLLER);
                won = existing.isPresent() && existing.get().ephemeralOwner() == zkClient.sessionId()
                    && zkClient.sessionId() != 0;
            }
            if (!won) {
                return;
            }
            incrementEpoch();
            active = true;
            log.info("Broker {} is the controller, epoch {}", brokerId, epoch);
            reconcile();
        } catch (RuntimeException e) {
            log.warn("Controller election by broker {} failed; retrying: {}", brokerId, e.toString());
            retryLater(this::elect);
        }
    }

    private void incrementEpoch() {
        while (true) {
            Optional<KafkaZkClient.Versioned> current = zkClient.getDataAndVersion(ZkPaths.CONTROLLER_EPOCH);
            try {
                if (current.isEmpty()) {
                    zkClient.curator().create().forPath(ZkPaths.CONTROLLER_EPOCH, "1".getBytes(StandardCharsets.UTF_8));
                    epoch = 1;
                    epochZkVersion = 0;
                } else {
                    int next = Integer.parseInt(new String(current.get().data(), StandardCharsets.UTF_8).trim()) + 1;
                    var stat = zkClient.curator().setData().withVersion(current.get().version())
                        .forPath(ZkPaths.CONTROLLER_EPOCH, Integer.toString(next).getBytes(StandardCharsets.UTF_8));
                    epoch = next;
                    epochZkVersion = stat.getVersion();
                }
                return;
            } catch (org.apache.zookeeper.KeeperException.NodeExistsException
                     | org.apache.zookeeper.KeeperException.BadVersionException e) {
                // another controller raced us between read and write: read again
            } catch (Exception e) {
                throw new ZooKeeperClientException("Could not increment the controller epoch: " + e, e);
            }
        }
    }

    private void queueReconcile() {
        if (active && reconcileQueued.compareAndSet(false, true)) {
            submit(() -> {
                reconcileQueued.set(false);
                reconcile();
            });
        }
    }

    private void retryLater(Runnable task) {
        java.util.concurrent.CompletableFuture.delayedExecutor(1000, TimeUnit.MILLISECONDS).execute(() -> submit(task));
    }

    /** Runs a task on the controller's event thread unless the controller is closed. */
    private void submit(Runnable task) {
        if (closed) {
            return;
        }
        try {
            eventThread.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed concurrently
        }
    }

    private void reconcile() {
        if (!active || closed) {
            return;
        }
        try {
            processDeletions();
            Set<Integer> live = metadataCache.aliveBrokers().stream().map(BrokerInfo::id).collect(Collectors.toSet());
            for (String topic : metadataCache.topicNames()) {
                if (metadataCache.isPendingDeletion(topic)) {
                    continue;
                }
                TopicAssignment assignment = metadataCache.topic(topic).orElse(null);
                if (assignment == null) {
                    continue;
                }
                assignment.replicas().forEach((partition, replicas) ->
                    reconcilePartition(new TopicPartition(topic, partition), replicas, live));
            }
        } catch (FencedControllerException e) {
            log.warn("Broker {} was deposed as controller: {}", brokerId, e.getMessage());
            active = false;
        } catch (RuntimeException e) {
            log.warn("Controller reconciliation failed; retrying: {}", e.toString());
            retryLater(this::queueReconcile);
        }
    }

    private void reconcilePartition(TopicPartition tp, List<Integer> replicas, Set<Integer> live) {
        Optional<LeaderAndIsr> current = metadataCache.partitionState(tp);
        List<Integer> liveReplicas = replicas.stream().filter(live::contains).toList();
        if (current.isEmpty()) {
            if (!liveReplicas.isEmpty()) {
                createPartitionState(tp, new LeaderAndIsr(liveReplicas.get(0), 0, liveReplicas, epoch, -1));
            }
            return;
        }
        LeaderAndIsr state = current.get();
        if (state.hasLeader() && live.contains(state.leader())) {
            List<Integer> liveIsr = state.isr().stream().filter(live::contains).toList();
            if (liveIsr.size() < state.isr().size()) {
                writePartitionState(tp, state.newLeader(state.leader(), liveIsr, epoch), "remove dead replicas from the ISR");
            }
            return;
        }
        List<Integer> candidates = replicas.stream().filter(r -> state.isr().contains(r) && live.contains(r)).toList();
        if (!candidates.isEmpty()) {
            List<Integer> newIsr = state.isr().stream().filter(live::contains).toList();
            writePartitionState(tp, state.newLeader(candidates.get(0), newIsr, epoch), "elect a leader from the ISR");
        } else if (!liveReplicas.isEmpty() && uncleanLeaderElectionEnabled.test(tp.topic())) {
            log.warn("Unclean leader election for {}: replica {} is not in the ISR {} and may have lost data",
                tp, liveReplicas.get(0), state.isr());
            writePartitionState(tp, state.newLeader(liveReplicas.get(0), List.of(liveReplicas.get(0)), epoch),
                "unclean leader election");
        } else if (state.hasLeader()) {
            log.warn("{} is offline: no live replica in its ISR {}", tp, state.isr());
            writePartitionState(tp, state.newLeader(LeaderAndIsr.NO_LEADER, state.isr(), epoch), "mark offline");
        }
    }

    private void createPartitionState(TopicPartition tp, LeaderAndIsr state) {
        List<CuratorOp> ops = new ArrayList<>();
        try {
            ops.add(epochCheck());
            if (zkClient.getDataAndVersion(ZkPaths.partitions(tp.topic())).isEmpty()) {
                ops.add(zkClient.curator().transactionOp().create().forPath(ZkPaths.partitions(tp.topic())));
            }
            if (zkClient.getDataAndVersion(ZkPaths.partition(tp.topic(), tp.partition())).isEmpty()) {
                ops.add(zkClient.curator().transactionOp().create().forPath(ZkPaths.partition(tp.topic(), tp.partition())));
            }
            ops.add(zkClient.curator().transactionOp().create()
                .forPath(ZkPaths.partitionState(tp.topic(), tp.partition()), state.toJson()));
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not prepare the state of " + tp, e);
        }
        fencedWrite(ops, tp, "create leadership (leader " + state.leader() + ", ISR " + state.isr() + ")");
    }

    private void writePartitionState(TopicPartition tp, LeaderAndIsr state, String why) {
        try {
            List<CuratorOp> ops = List.of(epochCheck(), zkClient.curator().transactionOp().setData()
                .withVersion(state.zkVersion()).forPath(ZkPaths.partitionState(tp.topic(), tp.partition()), state.toJson()));
            fencedWrite(ops, tp, why + ": leader " + state.leader() + ", leader epoch " + state.leaderEpoch()
                + ", ISR " + state.isr());
        } catch (FencedControllerException | ZooKeeperClientException e) {
            throw e;
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not prepare the state of " + tp, e);
        }
    }

    private CuratorOp epochCheck() throws Exception {
        return zkClient.curator().transactionOp().check().withVersion(epochZkVersion).forPath(ZkPaths.CONTROLLER_EPOCH);
    }

    private void fencedWrite(List<CuratorOp> ops, TopicPartition tp, String what) {
        try {
            zkClient.curator().transaction().forOperations(ops);
            log.info("Controller {} (epoch {}): {} for {}", brokerId, epoch, what, tp);
        } catch (org.apache.zookeeper.KeeperException.BadVersionException | org.apache.zookeeper.KeeperException.NodeExistsException
                 | org.apache.zookeeper.KeeperException.NoNodeException e) {
            if (!stillController()) {
                throw new FencedControllerException("the controller epoch moved on while writing " + tp);
            }
            // The partition's node changed under us (e.g. its leader changed the ISR): the watch brings
            // the new state and a new reconciliation.
            queueReconcileLater();
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not " + what + " for " + tp + ": " + e, e);
        }
    }

    private void queueReconcileLater() {
        java.util.concurrent.CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(this::queueReconcile);
    }

    private boolean stillController() {
        return zkClient.getDataAndVersion(ZkPaths.CONTROLLER_EPOCH).map(v -> v.version() == epochZkVersion).orElse(false);
    }

    private void processDeletions() {
        for (String topic : metadataCache.pendingDeletions()) {
            List<CuratorOp> ops = new ArrayList<>();
            try {
                ops.add(epochCheck());
                for (String path : zkClient.subtreeDeepestFirst(ZkPaths.topic(topic))) {
                    ops.add(zkClient.curator().transactionOp().delete().forPath(path));
                }
                if (zkClient.getDataAndVersion(ZkPaths.topicConfig(topic)).isPresent()) {
                    ops.add(zkClient.curator().transactionOp().delete().forPath(ZkPaths.topicConfig(topic)));
                }
                ops.add(zkClient.curator().transactionOp().delete().forPath(ZkPaths.deleteTopic(topic)));
            } catch (Exception e) {
                throw new ZooKeeperClientException("Could not prepare the deletion of " + topic, e);
            }
            fencedWrite(ops, new TopicPartition(topic, -1), "delete topic " + topic);
        }
    }

    /** Leaves the election; the ephemeral node goes with the session or is deleted here. */
    @Override
    public void close() {
        closed = true;
        zkClient.curator().getConnectionStateListenable().removeListener(connectionListener);
        eventThread.shutdownNow();
        try {
            eventThread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (active) {
            active = false;
            try {
                zkClient.getDataAndVersion(ZkPaths.CONTROLLER)
                    .filter(v -> v.ephemeralOwner() == zkClient.sessionId())
                    .ifPresent(v -> zkClient.deleteIfExists(ZkPaths.CONTROLLER, v.version()));
            } catch (RuntimeException e) {
                log.debug("Could not delete /controller on shutdown: {}", e.toString());
            }
        }
    }

    /** This controller's epoch is no longer current. */
    static final class FencedControllerException extends RuntimeException {
        FencedControllerException(String message) {
            super(message);
        }
    }
}
