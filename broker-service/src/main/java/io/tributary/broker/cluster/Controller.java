package io.tributary.broker.cluster;

import java.io.Closeable;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cluster controller: exactly one broker holds the ephemeral {@code /controller} node and
 * acts. It creates the leadership of new partitions, elects leaders from the ISR when a leader's
 * registration disappears (keeping a partition offline rather than electing an out-of-sync
 * replica, unless {@code unclean.leader.election.enable}), removes dead brokers from ISRs, and
 * carries out topic deletions. A broker that registered again since a partition's state was
 * written (a restart, a lost session) is handled as failed and started again, as Kafka's
 * controller handles a bounced broker: it loses the leadership and the ISR place that state
 * gave it, and is elected again, in a new leader epoch, only when no other in-sync replica lives.
 *
 * <p>Its work is a reconciliation of the desired state (assignments, live brokers) with the
 * partition states, run on one thread ({@code controller-event-thread}) after each relevant
 * change. Fencing: becoming controller increments {@code /controller_epoch}; every write is a
 * ZooKeeper transaction that also checks that node's version, so a deposed controller's late
 * writes fail ({@link ControllerWrites}). On a SUSPENDED or LOST ZooKeeper connection it stops
 * acting at once.
 *
 * <p>Also on that thread: controlled shutdown (a broker whose registration says it is shutting
 * down loses its leaderships to other in-sync replicas and leaves the ISRs), leader elections
 * asked for with ElectLeaders and the periodic move of leaders back to preferred replicas
 * ({@link LeaderElections}), partition reassignments ({@link PartitionReassignments}) and topic
 * deletions ({@link TopicDeletionManager}). The choices of a leader are
 * {@link PartitionLeaderElection}'s.
 *
 * <p>Thread-safe.
 */
public final class Controller implements MetadataListener, Closeable {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final int brokerId;
    private final KafkaZkClient zkClient;
    private final MetadataCache metadataCache;
    private final Predicate<String> uncleanLeaderElectionEnabled;
    private final Config config;
    private final Time time;
    private final ExecutorService eventThread;
    private final ControllerWrites writes;
    private final TopicDeletionManager deletions;
    private final PartitionReassignments reassignments;
    private final LeaderElections elections;
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private final ConnectionStateListener connectionListener = this::onConnectionStateChanged;
    private volatile boolean active;
    private volatile boolean closed;

    /**
     * Preferred-leader balancing.
     *
     * @param autoLeaderRebalanceEnable       {@code auto.leader.rebalance.enable}
     * @param leaderImbalanceCheckIntervalMs  {@code leader.imbalance.check.interval.seconds}, in ms
     * @param leaderImbalancePerBrokerPercentage {@code leader.imbalance.per.broker.percentage}
     */
    public record Config(boolean autoLeaderRebalanceEnable, long leaderImbalanceCheckIntervalMs,
                         int leaderImbalancePerBrokerPercentage) {
    }

    /**
     * @param uncleanLeaderElectionEnabled whether a topic allows electing an out-of-sync replica
     */
    public Controller(int brokerId, KafkaZkClient zkClient, MetadataCache metadataCache,
                      Predicate<String> uncleanLeaderElectionEnabled, Config config, Time time) {
        this.brokerId = brokerId;
        this.zkClient = zkClient;
        this.metadataCache = metadataCache;
        this.uncleanLeaderElectionEnabled = uncleanLeaderElectionEnabled;
        this.config = config;
        this.time = time;
        this.writes = new ControllerWrites(brokerId, zkClient, this::queueReconcile);
        this.deletions = new TopicDeletionManager(metadataCache, writes);
        this.reassignments = new PartitionReassignments(metadataCache, writes);
        this.elections = new LeaderElections(metadataCache, writes);
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

    /**
     * On the active controller, the partitions without a leader (Kafka's OfflinePartitionsCount);
     * 0 elsewhere, so the cluster's count is the sum over brokers.
     */
    public int offlinePartitionsCount() {
        if (!active) {
            return 0;
        }
        return (int) elections.allPartitions().stream()
            .filter(tp -> !deletions.isTopicQueuedUpForDeletion(tp.topic()))
            .filter(tp -> !metadataCache.partitionState(tp).map(LeaderAndIsr::hasLeader).orElse(false))
            .count();
    }

    /** The epoch of this controller while active. */
    public int epoch() {
        return writes.controllerEpoch();
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
        Optional<TopicAssignment> topic = metadataCache.topic(tp.topic());
        boolean unassignedInIsr = topic.map(t -> t.replicas().getOrDefault(tp.partition(), List.of()))
            .map(replicas -> !replicas.containsAll(state.isr())).orElse(false);
        if (!state.hasLeader() || unassignedInIsr || topic.map(t -> t.isReassigning(tp.partition())).orElse(false)) {
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
            writes.incrementEpoch();
            active = true;
            log.info("Broker {} is the controller, epoch {}", brokerId, epoch());
            reconcile();
            scheduleImbalanceCheck(epoch());
        } catch (RuntimeException e) {
            log.warn("Controller election by broker {} failed; retrying: {}", brokerId, e.toString());
            retryLater(this::elect);
        }
    }

    /** Another controller has written {@code /controller_epoch}: stop acting at once. */
    private void resign(FencedControllerException e) {
        log.warn("Broker {} was deposed as controller: {}", brokerId, e.getMessage());
        active = false;
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
        CompletableFuture.delayedExecutor(1000, TimeUnit.MILLISECONDS).execute(() -> submit(task));
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
            deletions.resumeDeletions();
            // One snapshot of the registrations: the live set, broker epochs and shutdowns agree.
            Collection<BrokerInfo> alive = metadataCache.aliveBrokers();
            Map<Integer, Long> brokerEpochs = alive.stream().collect(Collectors.toMap(BrokerInfo::id, BrokerInfo::epoch));
            Set<Integer> live = brokerEpochs.keySet();
            Set<Integer> shuttingDown = alive.stream().filter(BrokerInfo::shuttingDown)
                .map(BrokerInfo::id).collect(Collectors.toSet());
            Map<TopicPartition, Set<Integer>> offlineReplicas = new HashMap<>();
            alive.forEach(b -> b.offlineReplicas().forEach(tp ->
                offlineReplicas.computeIfAbsent(tp, k -> new java.util.HashSet<>()).add(b.id())));
            for (String topic : metadataCache.topicNames()) {
                if (deletions.isTopicQueuedUpForDeletion(topic)) {
                    continue;
                }
                TopicAssignment assignment = metadataCache.topic(topic).orElse(null);
                if (assignment == null) {
                    continue;
                }
                Map<TopicPartition, LeaderAndIsr> created = new java.util.LinkedHashMap<>();
                assignment.replicas().forEach((partition, replicas) -> {
                    TopicPartition tp = new TopicPartition(topic, partition);
                    reconcilePartition(tp, replicas, liveReplicasOf(live, offlineReplicas.get(tp)), shuttingDown,
                        brokerEpochs, created);
                });
                writes.createPartitionStates(topic, created);
                if (!assignment.addingReplicas().isEmpty() || !assignment.removingReplicas().isEmpty()) {
                    reassignments.reconcile(assignment);
                }
            }
        } catch (FencedControllerException e) {
            resign(e);
        } catch (RuntimeException e) {
            log.warn("Controller reconciliation failed; retrying: {}", e.toString());
            retryLater(this::queueReconcile);
        }
    }

    /**
     * The live brokers, less those whose replica of a partition is offline (a failed log directory, KIP-112).
     *
     * @param offline the brokers reporting the partition's replica offline, or null for none
     */
    private static Set<Integer> liveReplicasOf(Set<Integer> live, Set<Integer> offline) {
        if (offline == null) {
            return live;
        }
        Set<Integer> out = new java.util.HashSet<>(live);
        out.removeAll(offline);
        return out;
    }

    /** @param created receives the first state of a partition that has none yet, written with its topic's others */
    private void reconcilePartition(TopicPartition tp, List<Integer> replicas, Set<Integer> live,
                                    Set<Integer> shuttingDown, Map<Integer, Long> brokerEpochs,
                                    Map<TopicPartition, LeaderAndIsr> created) {
        Optional<LeaderAndIsr> current = metadataCache.partitionState(tp);
        List<Integer> liveReplicas = replicas.stream().filter(live::contains).toList();
        if (current.isEmpty()) {
            if (!liveReplicas.isEmpty()) {
                int leader = PartitionLeaderElection.fromIsr(replicas, liveReplicas, live, shuttingDown, -1)
                    .orElse(liveReplicas.get(0));
                created.put(tp, new LeaderAndIsr(leader, 0, liveReplicas, epoch(), -1));
            }
            return;
        }
        LeaderAndIsr state = current.get();
        Set<Integer> notRestarted = registeredBefore(state, live, brokerEpochs);
        if (state.hasLeader() && notRestarted.contains(state.leader())) {
            if (shuttingDown.contains(state.leader())) {
                // Controlled shutdown: hand leadership to another in-sync replica, if there is one.
                Optional<Integer> next = PartitionLeaderElection.fromIsr(replicas, state.isr(), notRestarted,
                    shuttingDown, state.leader()).filter(r -> !shuttingDown.contains(r));
                if (next.isPresent()) {
                    List<Integer> newIsr = state.isr().stream()
                        .filter(r -> notRestarted.contains(r) && !shuttingDown.contains(r)).toList();
                    writes.writePartitionState(tp, state.newLeader(next.get(), newIsr, epoch()),
                        "controlled shutdown of broker " + state.leader() + ": move leadership");
                }
                return;
            }
            List<Integer> keptIsr = state.isr().stream()
                .filter(r -> r == state.leader() || notRestarted.contains(r) && !shuttingDown.contains(r)
                    && replicas.contains(r))
                .toList();
            if (keptIsr.size() < state.isr().size()) {
                writes.writePartitionState(tp, state.newLeader(state.leader(), keptIsr, epoch()),
                    "remove dead, restarted, shutting-down or unassigned replicas from the ISR");
            }
            return;
        }
        // A restarted in-sync replica is elected only when no other is live: in a new leader epoch.
        Optional<Integer> candidate = PartitionLeaderElection.fromIsr(replicas, state.isr(), notRestarted, shuttingDown, -1)
            .or(() -> PartitionLeaderElection.fromIsr(replicas, state.isr(), live, shuttingDown, -1));
        if (candidate.isPresent()) {
            int leader = candidate.get();
            List<Integer> newIsr = state.isr().stream().filter(r -> r == leader || notRestarted.contains(r)).toList();
            boolean bounced = state.hasLeader() && live.contains(state.leader());
            writes.writePartitionState(tp, state.newLeader(leader, newIsr, epoch()), bounced
                ? "broker " + state.leader() + " registered again since it was elected: elect a leader from the ISR"
                : "elect a leader from the ISR");
        } else if (!liveReplicas.isEmpty() && uncleanLeaderElectionEnabled.test(tp.topic())) {
            int leader = PartitionLeaderElection.unclean(replicas, live, shuttingDown).orElseThrow();
            log.warn("Unclean leader election for {}: replica {} is not in the ISR {} and may have lost data",
                tp, leader, state.isr());
            writes.writePartitionState(tp, state.newLeader(leader, List.of(leader), epoch()), "unclean leader election");
        } else if (state.hasLeader()) {
            log.warn("{} is offline: no live replica in its ISR {}", tp, state.isr());
            writes.writePartitionState(tp, state.newLeader(LeaderAndIsr.NO_LEADER, state.isr(), epoch()), "mark offline");
        }
    }

    /**
     * The live brokers that registered before {@code state} was written. One that registered
     * since has restarted, or lost its ZooKeeper session, after the state named it: its place
     * as leader or in the ISR belongs to an earlier run of it. Kafka's ZooKeeper-mode controller
     * handles such a "bounced" broker (a new broker epoch under the same id) as failed and started
     * again; comparing the state's mzxid with the registration's czxid (the broker epoch) finds it
     * also when the controller missed the moment (the broker came back before the watch fired, or
     * a new controller was elected meanwhile).
     */
    private static Set<Integer> registeredBefore(LeaderAndIsr state, Set<Integer> live, Map<Integer, Long> brokerEpochs) {
        Set<Integer> out = new java.util.HashSet<>(live);
        out.removeIf(id -> state.writtenBefore(brokerEpochs.getOrDefault(id, -1L)));
        return out;
    }

    /**
     * Elects leaders on request (the ElectLeaders API, KIP-460): PREFERRED moves leadership to
     * the preferred replica when it is alive and in sync; UNCLEAN elects any live replica for a
     * partition without a live leader.
     *
     * @param partitions the partitions, or null for every partition (PREFERRED only)
     * @return per partition: NONE, ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE,
     *         ELIGIBLE_LEADERS_NOT_AVAILABLE or UNKNOWN_TOPIC_OR_PARTITION; fails with
     *         {@link org.apache.kafka.common.errors.NotControllerException} on a broker that is not the controller
     */
    public CompletableFuture<Map<TopicPartition, Errors>>
            electLeaders(ElectionType type, Collection<TopicPartition> partitions) {
        var future = new CompletableFuture<Map<TopicPartition,
            Errors>>();
        Runnable task = () -> {
            if (!active) {
                future.completeExceptionally(new NotControllerException(
                    "Broker " + brokerId + " is not the controller"));
                return;
            }
            try {
                future.complete(elections.elect(type, partitions == null ? elections.allPartitions() : partitions));
            } catch (FencedControllerException e) {
                resign(e);
                future.completeExceptionally(new NotControllerException(e.getMessage()));
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
            }
        };
        if (closed) {
            future.completeExceptionally(new NotControllerException("Controller closed"));
        } else {
            submit(task);
        }
        return future;
    }

    /**
     * Starts or cancels partition reassignments (AlterPartitionReassignments, KIP-455).
     *
     * @param targets per partition the target replicas, or empty to cancel
     * @return per partition the outcome; fails with {@link NotControllerException} on a broker
     *         that is not the controller
     */
    public CompletableFuture<Map<TopicPartition, org.apache.kafka.common.requests.ApiError>> alterPartitionReassignments(
            Map<TopicPartition, Optional<List<Integer>>> targets, boolean allowReplicationFactorChange) {
        CompletableFuture<Map<TopicPartition, org.apache.kafka.common.requests.ApiError>> future = new CompletableFuture<>();
        if (closed) {
            future.completeExceptionally(new NotControllerException("Controller closed"));
            return future;
        }
        submit(() -> {
            if (!active) {
                future.completeExceptionally(new NotControllerException("Broker " + brokerId + " is not the controller"));
                return;
            }
            try {
                future.complete(reassignments.alter(targets, allowReplicationFactorChange));
                queueReconcile();
            } catch (FencedControllerException e) {
                resign(e);
                future.completeExceptionally(new NotControllerException(e.getMessage()));
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
            }
        });
        return future;
    }

    /** Every {@code leader.imbalance.check.interval.seconds}, moves leaders back to preferred replicas. */
    private void scheduleImbalanceCheck(int forEpoch) {
        if (!config.autoLeaderRebalanceEnable()) {
            return;
        }
        CompletableFuture.delayedExecutor(config.leaderImbalanceCheckIntervalMs(), TimeUnit.MILLISECONDS)
            .execute(() -> submit(() -> {
                if (!active || closed || epoch() != forEpoch) {
                    return;
                }
                try {
                    elections.moveLeadersToPreferredReplicas(config.leaderImbalancePerBrokerPercentage());
                } catch (FencedControllerException e) {
                    resign(e);
                    return;
                } catch (RuntimeException e) {
                    log.warn("Leader imbalance check failed: {}", e.toString());
                }
                scheduleImbalanceCheck(forEpoch);
            }));
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
