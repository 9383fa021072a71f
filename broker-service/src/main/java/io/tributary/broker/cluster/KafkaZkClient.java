package io.tributary.broker.cluster;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes the cluster's state in ZooKeeper (Kafka's layout, {@link ZkPaths}) through
 * Apache Curator. Blocking: never call it on a network thread.
 *
 * <p>Errors: ZooKeeper failures surface as {@link ZooKeeperClientException}; a version conflict
 * as {@link KeeperException.BadVersionException} wrapped in it, so callers can retry.
 *
 * <p>Thread-safe.
 */
public final class KafkaZkClient implements Closeable {

    private final CuratorFramework curator;
    private final ExecutorService runSafeService;

    private KafkaZkClient(CuratorFramework curator, ExecutorService runSafeService) {
        this.curator = curator;
        this.runSafeService = runSafeService;
    }

    /**
     * Connects and waits for the session.
     *
     * @throws ZooKeeperClientException when no connection is made within {@code connectionTimeoutMs}
     */
    public static KafkaZkClient connect(String connectString, int sessionTimeoutMs, int connectionTimeoutMs) {
        return connect(connectString, sessionTimeoutMs, connectionTimeoutMs, null, false);
    }

    /**
     * Connects with ZooKeeper digest credentials and, with {@code setAcl} (Kafka's
     * {@code zookeeper.set.acl}), creates every znode so that only clients with the same
     * credentials may change it: {@link ZkAcls} (Kafka's rule: CREATOR_ALL plus WORLD_READ, and no
     * world read at all for SCRAM credentials under {@code /config/users}).
     *
     * @param digestCredentials {@code user:password} for ZooKeeper's {@code digest} scheme, or null
     * @throws IllegalArgumentException when {@code setAcl} is asked without credentials
     * @throws ZooKeeperClientException when no connection is made within {@code connectionTimeoutMs}
     */
    public static KafkaZkClient connect(String connectString, int sessionTimeoutMs, int connectionTimeoutMs,
                                        String digestCredentials, boolean setAcl) {
        boolean authenticated = digestCredentials != null && !digestCredentials.isBlank();
        if (setAcl && !authenticated) {
            throw new IllegalArgumentException("broker.zookeeper-set-acl needs broker.zookeeper-digest-credentials"
                + " (user:password): without an identity nobody could change the znodes afterwards");
        }
        // Curator's own default for this executor is never shut down by close(): one thread leaked per client.
        ExecutorService runSafeService = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "curator-safe-notify");
            t.setDaemon(true);
            return t;
        });
        // "host:port,host:port/chroot": the cluster lives under the chroot, created if missing (as Kafka does).
        int slash = connectString.indexOf('/');
        String hosts = slash < 0 ? connectString : connectString.substring(0, slash);
        String chroot = slash < 0 ? "" : connectString.substring(slash).replaceAll("^/+|/+$", "");
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
            .connectString(hosts)
            .sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(connectionTimeoutMs)
            .retryPolicy(new ExponentialBackoffRetry(100, 10, 2000))
            .runSafeService(runSafeService);
        if (!chroot.isEmpty()) {
            builder.namespace(chroot);
        }
        if (authenticated) {
            builder.authorization("digest", digestCredentials.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (setAcl) {
            builder.aclProvider(new ZkAcls());
        }
        CuratorFramework curator = builder.build();
        curator.start();
        try {
            if (!curator.blockUntilConnected(connectionTimeoutMs, TimeUnit.MILLISECONDS)) {
                curator.close();
                runSafeService.shutdownNow();
                throw new ZooKeeperClientException("Could not connect to ZooKeeper at " + connectString + " within "
                    + connectionTimeoutMs + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            curator.close();
            runSafeService.shutdownNow();
            throw new ZooKeeperClientException("Interrupted while connecting to ZooKeeper", e);
        }
        return new KafkaZkClient(curator, runSafeService);
    }

    public CuratorFramework curator() {
        return curator;
    }

    /** Whether the client is connected to a ZooKeeper server now (a session may outlive a disconnection). */
    public boolean isConnected() {
        return curator.getZookeeperClient().isConnected();
    }

    /** The current session id, or 0 when disconnected. */
    public long sessionId() {
        try {
            return curator.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }

    /** Creates the persistent paths of the layout when missing. */
    public void ensurePersistentPaths() {
        ensurePaths(List.of(ZkPaths.PERSISTENT));
    }

    /**
     * Creates each path (with its parents, empty) when missing; present ones are left as they are.
     *
     * @throws ZooKeeperClientException when ZooKeeper fails
     */
    public void ensurePaths(Iterable<String> paths) {
        for (String path : paths) {
            call(() -> {
                try {
                    curator.create().creatingParentsIfNeeded().forPath(path);
                } catch (KeeperException.NodeExistsException e) {
                    // already there
                }
                return null;
            }, "create " + path);
        }
    }

    /** The cluster id, created (a random base64 UUID, as Kafka) by the first broker. */
    public String getOrCreateClusterId() {
        return call(() -> {
            try {
                return parseClusterId(curator.getData().forPath(ZkPaths.CLUSTER_ID));
            } catch (KeeperException.NoNodeException e) {
                UUID uuid = UUID.randomUUID();
                java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(16);
                bb.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
                String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bb.array());
                ObjectNode node = ZkJson.object();
                node.put("version", "1");
                node.put("id", id);
                try {
                    curator.create().creatingParentsIfNeeded().forPath(ZkPaths.CLUSTER_ID, ZkJson.bytes(node));
                    return id;
                } catch (KeeperException.NodeExistsException race) {
                    return parseClusterId(curator.getData().forPath(ZkPaths.CLUSTER_ID));
                }
            }
        }, "read the cluster id");
    }

    private static String parseClusterId(byte[] data) {
        return ZkJson.parse(data, ZkPaths.CLUSTER_ID).path("id").asString();
    }

    /** Data and version of a node, or empty when it does not exist. */
    public Optional<Versioned> getDataAndVersion(String path) {
        return call(() -> {
            try {
                Stat stat = new Stat();
                byte[] data = curator.getData().storingStatIn(stat).forPath(path);
                return Optional.of(new Versioned(data, stat.getVersion(), stat.getCzxid(), stat.getMzxid(),
                    stat.getEphemeralOwner()));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        }, "read " + path);
    }

    /** Children of a node, or empty when it does not exist. */
    public List<String> getChildren(String path) {
        return call(() -> {
            try {
                return curator.getChildren().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                return List.of();
            }
        }, "list " + path);
    }

    /**
     * Creates an ephemeral node owned by this session.
     *
     * @return false when the node exists already
     */
    public boolean createEphemeral(String path, byte[] data) {
        return call(() -> {
            try {
                curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
                return true;
            } catch (KeeperException.NodeExistsException e) {
                return false;
            }
        }, "create " + path);
    }

    /** Deletes a node if it exists and, when {@code version >= 0}, has that version. */
    public void deleteIfExists(String path, int version) {
        call(() -> {
            try {
                curator.delete().withVersion(version).forPath(path);
            } catch (KeeperException.NoNodeException e) {
                // gone already
            }
            return null;
        }, "delete " + path);
    }

    /** Every registered topic. */
    public List<String> getAllTopics() {
        return getChildren(ZkPaths.TOPICS);
    }

    /** A topic's assignment, or empty when the topic does not exist. */
    public Optional<TopicAssignment> getTopicAssignment(String topic) {
        return getDataAndVersion(ZkPaths.topic(topic))
            .map(v -> TopicAssignment.fromJson(topic, v.data(), v.version()));
    }

    /**
     * Creates a topic: its config and its assignment, in one transaction (the controller then
     * creates the partition states).
     *
     * @throws TopicExistsException when the topic exists
     */
    public void createTopic(TopicAssignment assignment, Map<String, String> config) {
        call(() -> {
            try {
                curator.transaction().forOperations(
                    createOrSetConfigOp(assignment.topic(), config),
                    curator.transactionOp().create().forPath(ZkPaths.topic(assignment.topic()), assignment.toJson()));
            } catch (KeeperException.NodeExistsException e) {
                throw new TopicExistsException("Topic '" + assignment.topic() + "' already exists.");
            }
            return null;
        }, "create topic " + assignment.topic());
    }

    private CuratorOp createOrSetConfigOp(String topic, Map<String, String> config) throws Exception {
        byte[] data = topicConfigJson(config);
        if (curator.checkExists().forPath(ZkPaths.topicConfig(topic)) != null) {
            return curator.transactionOp().setData().forPath(ZkPaths.topicConfig(topic), data);
        }
        return curator.transactionOp().create().forPath(ZkPaths.topicConfig(topic), data);
    }

    /**
     * Replaces a topic's assignment if its node still has {@code assignment.zkVersion()}.
     *
     * @throws ZooKeeperClientException wrapping {@link KeeperException.BadVersionException} on a concurrent change
     */
    public void setTopicAssignment(TopicAssignment assignment) {
        call(() -> curator.setData().withVersion(assignment.zkVersion())
            .forPath(ZkPaths.topic(assignment.topic()), assignment.toJson()), "update topic " + assignment.topic());
    }

    /** A topic's config overrides with the node version (-1 when absent). */
    public VersionedConfig getTopicConfig(String topic) {
        return getDataAndVersion(ZkPaths.topicConfig(topic))
            .map(v -> new VersionedConfig(parseTopicConfig(topic, v.data()), v.version()))
            .orElse(new VersionedConfig(Map.of(), -1));
    }

    /**
     * Writes a topic's config overrides if the node has {@code expectedVersion} (-1: must not exist).
     *
     * @throws ZooKeeperClientException wrapping a version conflict
     */
    public void setTopicConfig(String topic, Map<String, String> config, int expectedVersion) {
        call(() -> {
            if (expectedVersion < 0) {
                curator.create().creatingParentsIfNeeded().forPath(ZkPaths.topicConfig(topic), topicConfigJson(config));
            } else {
                curator.setData().withVersion(expectedVersion).forPath(ZkPaths.topicConfig(topic), topicConfigJson(config));
            }
            return null;
        }, "write the config of topic " + topic);
    }

    static byte[] topicConfigJson(Map<String, String> config) {
        ObjectNode node = ZkJson.object();
        node.put("version", 1);
        ObjectNode values = node.putObject("config");
        config.forEach(values::put);
        return ZkJson.bytes(node);
    }

    static Map<String, String> parseTopicConfig(String topic, byte[] data) {
        JsonNode node = ZkJson.parse(data, ZkPaths.topicConfig(topic));
        Map<String, String> config = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : node.path("config").properties()) {
            config.put(e.getKey(), e.getValue().asString());
        }
        return config;
    }

    /** Asks the controller to delete a topic ({@code /admin/delete_topics/{topic}}). */
    public void markTopicForDeletion(String topic) {
        call(() -> {
            try {
                curator.create().creatingParentsIfNeeded().forPath(ZkPaths.deleteTopic(topic));
            } catch (KeeperException.NodeExistsException e) {
                // already marked
            }
            return null;
        }, "mark topic " + topic + " for deletion");
    }

    /** A partition's leadership, or empty when the controller has not created it yet. */
    public Optional<LeaderAndIsr> getPartitionState(String topic, int partition) {
        String path = ZkPaths.partitionState(topic, partition);
        return getDataAndVersion(path).map(v -> LeaderAndIsr.fromJson(path, v.data(), v.version(), v.mzxid()));
    }

    /**
     * Writes a partition's leadership if its node still has {@code state.zkVersion()}: the
     * leader's own ISR changes (shrink and expand), as Kafka's ZooKeeper-mode leaders did.
     *
     * @return the node's new version
     * @throws ZooKeeperClientException wrapping {@link KeeperException.BadVersionException} when the
     *                                  state changed meanwhile (a new leader epoch, or the controller's write)
     */
    public int updatePartitionState(String topic, int partition, LeaderAndIsr state) {
        return call(() -> curator.setData().withVersion(state.zkVersion())
            .forPath(ZkPaths.partitionState(topic, partition), state.toJson()).getVersion(),
            "update the state of " + topic + "-" + partition);
    }

    /**
     * Runs a transaction.
     *
     * @throws ZooKeeperClientException wrapping the failure (e.g. a version check that failed)
     */
    public void transaction(List<CuratorOp> ops, String what) {
        call(() -> curator.transaction().forOperations(ops), what);
    }

    /** Data of a node as UTF-8, for logs and tests. */
    public Optional<String> getString(String path) {
        return getDataAndVersion(path).map(v -> new String(v.data(), StandardCharsets.UTF_8));
    }

    /** Paths of a node and all its descendants, deepest first (for a recursive delete in a transaction). */
    public List<String> subtreeDeepestFirst(String path) {
        List<String> out = new ArrayList<>();
        for (String child : getChildren(path)) {
            out.addAll(subtreeDeepestFirst(path + "/" + child));
        }
        if (getDataAndVersion(path).isPresent()) {
            out.add(path);
        }
        return out;
    }

    @Override
    public void close() {
        curator.close();
        runSafeService.shutdown();
    }

    /** A ZooKeeper operation that may throw ZooKeeper's or Curator's checked exceptions. */
    @FunctionalInterface
    public interface ZkCall<T> {
        T call() throws Exception;
    }

    /**
     * Runs a ZooKeeper operation for a store outside this package: unchecked exceptions pass
     * unchanged; an interrupt (flag restored) or a checked ZooKeeper error becomes a
     * {@link ZooKeeperClientException} saying what could not be done.
     */
    public static <T> T run(ZkCall<T> zkCall, String what) {
        try {
            return zkCall.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while trying to " + what, e);
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not " + what + ": " + e, e);
        }
    }

    static <T> T call(ZkCall<T> zkCall, String what) {
        try {
            return zkCall.call();
        } catch (ZooKeeperClientException | TopicExistsException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while trying to " + what, e);
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not " + what + ": " + e, e);
        }
    }

    /**
     * A node's data with its version, creation and last-modification zxids, and ephemeral owner
     * (0 for persistent nodes).
     */
    public record Versioned(byte[] data, int version, long czxid, long mzxid, long ephemeralOwner) {
    }

    /** A topic's config overrides with the version of their node (-1 when it does not exist). */
    public record VersionedConfig(Map<String, String> config, int version) {
    }
}
