package io.tributary.broker.cluster;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's view of the cluster, fed by ZooKeeper watches (Curator {@link CuratorCache}) on
 * {@code /brokers}, {@code /controller}, {@code /config/topics} and {@code /admin/delete_topics}:
 * live brokers, the controller, topics with their ids and assignments, partition leadership,
 * topic config overrides and pending deletions.
 *
 * <p>Events are applied in order on one thread ({@code metadata-event-thread}), off the
 * ZooKeeper event thread, and then passed to {@link MetadataListener}s; a listener may do
 * blocking work (create a log) without stalling ZooKeeper.
 *
 * <p>Reads are thread-safe and never block; they see each change once it is applied, one node
 * at a time (a reader may see a new topic before its partition states).
 */
public final class MetadataCache implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(MetadataCache.class);

    private final KafkaZkClient zkClient;
    private final Map<Integer, BrokerInfo> brokers = new ConcurrentHashMap<>();
    private final Map<String, TopicAssignment> topics = new ConcurrentHashMap<>();
    private final Map<Uuid, String> topicNamesById = new ConcurrentHashMap<>();
    private final Map<TopicPartition, LeaderAndIsr> partitionStates = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> topicConfigs = new ConcurrentHashMap<>();
    private final Set<String> pendingDeletions = ConcurrentHashMap.newKeySet();
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private final List<Waiter> waiters = new CopyOnWriteArrayList<>();
    private final List<CuratorCache> caches = new ArrayList<>();
    private final ExecutorService eventThread;
    private volatile int controllerId = -1;
    private volatile FinalizedFeatures finalizedFeatures = FinalizedFeatures.NONE;
    private volatile String clusterId;

    private record Waiter(BooleanSupplier condition, CompletableFuture<Boolean> future) {
    }

    public MetadataCache(KafkaZkClient zkClient) {
        this.zkClient = zkClient;
        this.eventThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metadata-event-thread");
            t.setDaemon(true);
            return t;
        });
    }

    /** Adds a listener; call before {@link #start}. */
    public void addListener(MetadataListener listener) {
        listeners.add(listener);
    }

    /**
     * Starts the watches and returns once the current state has been loaded and delivered to
     * the listeners.
     *
     * @throws ZooKeeperClientException when the initial load does not finish within {@code timeoutMs}
     */
    public void start(String clusterId, long timeoutMs) {
        this.clusterId = clusterId;
        String[] paths = {ZkPaths.BROKERS, ZkPaths.CONTROLLER, ZkPaths.CONFIG_TOPICS, ZkPaths.CONFIG_BROKERS,
            ZkPaths.DELETE_TOPICS, FeatureZNode.PATH};
        CountDownLatch initialized = new CountDownLatch(paths.length);
        for (String path : paths) {
            CuratorCache cache = ZkWatch.of(zkClient.curator(), path, CuratorCacheListener.builder()
                .forAll((type, oldData, data) -> submit(() -> apply(type, oldData, data)))
                .forInitialized(initialized::countDown)
                .build());
            caches.add(cache);
            cache.start();
        }
        try {
            if (!initialized.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperClientException("Metadata not loaded from ZooKeeper within " + timeoutMs + " ms");
            }
            eventThread.submit(() -> { }).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while loading metadata", e);
        } catch (Exception e) {
            throw new ZooKeeperClientException("Metadata not loaded from ZooKeeper: " + e, e);
        }
        log.info("Metadata loaded: {} broker(s), {} topic(s), {} partition(s), controller {}",
            brokers.size(), topics.size(), partitionStates.size(), controllerId);
    }

    private void apply(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
        ChildData node = data != null ? data : oldData;
        if (node == null) {
            return;
        }
        boolean removed = type == CuratorCacheListener.Type.NODE_DELETED;
        try {
            applyNode(node, removed);
        } catch (RuntimeException e) {
            log.error("Could not apply the ZooKeeper change at {}", node.getPath(), e);
        }
        checkWaiters();
    }

    private void applyNode(ChildData node, boolean removed) {
        String path = node.getPath();
        String[] parts = path.split("/");
        if (path.equals(ZkPaths.CONTROLLER)) {
            int id = removed || node.getData() == null ? -1
                : ZkJson.parse(node.getData(), path).path("brokerid").asInt(-1);
            controllerId = id;
            listeners.forEach(l -> l.onControllerChanged(id));
        } else if (path.startsWith(ZkPaths.BROKER_IDS + "/") && parts.length == 4) {
            int id = Integer.parseInt(parts[3]);
            if (removed) {
                brokers.remove(id);
            } else {
                brokers.put(id, BrokerInfo.fromJson(id, node.getData(), node.getStat().getCzxid()));
            }
            listeners.forEach(MetadataListener::onBrokersChanged);
        } else if (path.startsWith(ZkPaths.TOPICS + "/") && parts.length == 4) {
            String topic = parts[3];
            if (removed) {
                TopicAssignment old = topics.remove(topic);
                if (old != null) {
                    topicNamesById.remove(old.topicId());
                }
                listeners.forEach(l -> l.onTopicRemoved(topic));
            } else {
                TopicAssignment assignment = TopicAssignment.fromJson(topic, node.getData(), node.getStat().getVersion());
                TopicAssignment previous = topics.put(topic, assignment);
                if (previous != null && !previous.topicId().equals(assignment.topicId())) {
                    // Deleted and created again while the watches were down: the old id is gone.
                    topicNamesById.remove(previous.topicId(), topic);
                }
                topicNamesById.put(assignment.topicId(), topic);
                listeners.forEach(l -> l.onTopicChanged(assignment));
            }
        } else if (path.startsWith(ZkPaths.TOPICS + "/") && parts.length == 7 && parts[6].equals("state")) {
            TopicPartition tp = new TopicPartition(parts[3], Integer.parseInt(parts[5]));
            if (removed) {
                partitionStates.remove(tp);
                listeners.forEach(l -> l.onPartitionRemoved(tp));
            } else {
                LeaderAndIsr state = LeaderAndIsr.fromJson(path, node.getData(), node.getStat().getVersion(),
                    node.getStat().getMzxid());
                partitionStates.put(tp, state);
                listeners.forEach(l -> l.onPartitionStateChanged(tp, state));
            }
        } else if (path.startsWith(ZkPaths.CONFIG_TOPICS + "/") && parts.length == 4) {
            String topic = parts[3];
            Map<String, String> config = removed ? Map.of() : KafkaZkClient.parseTopicConfig(topic, node.getData());
            if (removed) {
                topicConfigs.remove(topic);
            } else {
                topicConfigs.put(topic, Map.copyOf(config));
            }
            listeners.forEach(l -> l.onTopicConfigChanged(topic, config));
        } else if (path.startsWith(ZkPaths.CONFIG_BROKERS + "/") && parts.length == 4) {
            String entity = parts[3];
            Map<String, String> config;
            try {
                config = removed ? Map.of() : EntityConfigs.parse(node.getData(), path);
            } catch (IllegalArgumentException e) {
                log.error("Ignoring the dynamic configs of {}: {}", entity, e.getMessage());
                return;
            }
            listeners.forEach(l -> l.onBrokerConfigChanged(entity, config));
        } else if (path.equals(FeatureZNode.PATH)) {
            try {
                finalizedFeatures = removed ? FinalizedFeatures.NONE
                    : FeatureZNode.decode(node.getData(), node.getStat().getVersion());
            } catch (IllegalArgumentException e) {
                log.error("Keeping the finalized features of epoch {}: {}", finalizedFeatures.epoch(), e.getMessage());
            }
        } else if (path.startsWith(ZkPaths.DELETE_TOPICS + "/") && parts.length == 4) {
            if (removed) {
                pendingDeletions.remove(parts[3]);
            } else {
                pendingDeletions.add(parts[3]);
                listeners.forEach(l -> l.onTopicDeletionRequested(parts[3]));
            }
        }
    }

    private void checkWaiters() {
        for (Waiter waiter : waiters) {
            if (waiter.future().isDone()) {
                waiters.remove(waiter);
            } else if (waiter.condition().getAsBoolean()) {
                waiter.future().complete(true);
                waiters.remove(waiter);
            }
        }
    }

    /**
     * Completes with true once {@code condition} holds after some change (or at once if it
     * holds now), or with false after {@code timeoutMs}.
     */
    public CompletableFuture<Boolean> waitFor(BooleanSupplier condition, long timeoutMs) {
        CompletableFuture<Boolean> future = new CompletableFuture<>();
        if (condition.getAsBoolean()) {
            future.complete(true);
            return future;
        }
        future.completeOnTimeout(false, Math.max(0, timeoutMs), TimeUnit.MILLISECONDS);
        waiters.add(new Waiter(condition, future));
        submit(this::checkWaiters);
        return future;
    }

    public String clusterId() {
        return clusterId;
    }

    /** The cluster's finalized feature levels as last read from {@code /feature} (KIP-584). */
    public FinalizedFeatures finalizedFeatures() {
        return finalizedFeatures;
    }

    /** The active controller's id, or -1. */
    public int controllerId() {
        return controllerId;
    }

    public Collection<BrokerInfo> aliveBrokers() {
        return List.copyOf(brokers.values());
    }

    public Optional<BrokerInfo> broker(int id) {
        return Optional.ofNullable(brokers.get(id));
    }

    public boolean isAlive(int brokerId) {
        return brokers.containsKey(brokerId);
    }

    public Set<String> topicNames() {
        return Set.copyOf(topics.keySet());
    }

    public Optional<TopicAssignment> topic(String name) {
        return Optional.ofNullable(topics.get(name));
    }

    public Optional<String> topicName(Uuid topicId) {
        return Optional.ofNullable(topicNamesById.get(topicId));
    }

    public Optional<LeaderAndIsr> partitionState(TopicPartition tp) {
        return Optional.ofNullable(partitionStates.get(tp));
    }

    /** Whether every partition of the topic has a leader. */
    public boolean allPartitionsHaveLeaders(String topic) {
        TopicAssignment assignment = topics.get(topic);
        if (assignment == null) {
            return false;
        }
        for (int p : assignment.replicas().keySet()) {
            LeaderAndIsr state = partitionStates.get(new TopicPartition(topic, p));
            if (state == null || !state.hasLeader()) {
                return false;
            }
        }
        return true;
    }

    /** A topic's config overrides (empty when none). */
    public Map<String, String> topicConfig(String topic) {
        return topicConfigs.getOrDefault(topic, Map.of());
    }

    /**
     * The overrides of {@code topic} as last seen in its {@code /config/topics} node, or empty when
     * that node has not been seen (the watch of a new topic's config may deliver it after the topic's
     * partition states; callers then read ZooKeeper).
     */
    public Optional<Map<String, String>> knownTopicConfig(String topic) {
        return Optional.ofNullable(topicConfigs.get(topic));
    }

    public boolean isPendingDeletion(String topic) {
        return pendingDeletions.contains(topic);
    }

    public Set<String> pendingDeletions() {
        return Set.copyOf(pendingDeletions);
    }

    private void submit(Runnable task) {
        try {
            eventThread.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing: changes arriving now are not applied
        }
    }

    /** Runs a task on the metadata event thread, after the changes queued so far. */
    public CompletableFuture<Void> runOnEventThread(Runnable task) {
        return CompletableFuture.runAsync(task, eventThread);
    }

    /** Stops the watches and waits for the change being applied, if any, to finish. */
    @Override
    public void close() {
        caches.forEach(CuratorCache::close);
        eventThread.shutdown();
        try {
            if (!eventThread.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("The metadata event thread did not stop within 10 s");
                eventThread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            eventThread.shutdownNow();
        }
        waiters.forEach(w -> w.future().complete(false));
    }
}
