package io.tributary.broker.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dynamic configs of one kind of entity in ZooKeeper, in the layout of Kafka's ZooKeeper mode
 * ({@code AdminZkClient.fetchEntityConfig / changeConfigs}):
 * <pre>
 * /config/{type}/{name}                {"version":1,"config":{...}}       type: users, brokers (name: an id or "&lt;default&gt;")
 * /config/changes/config_change_{seq}  {"version":2,"entity_path":"{type}/{name}"}   persistent sequential
 * </pre>
 * A change rewrites the whole node and is never deleted, only emptied, as Kafka leaves it; its
 * change notification is written in the same ZooKeeper transaction, for Kafka's brokers and tools
 * (these brokers watch the data nodes, and {@link ChangeNotificationPurger} deletes the
 * notifications once old). A change is a conditional write (the node's version as read), retried
 * on a concurrent change, so two brokers altering the same entity never lose each other's keys.
 *
 * <p>Blocking; thread-safe. Failures surface as {@link ZooKeeperClientException}.
 */
public final class EntityConfigs {

    /** How often a change is retried when another writer changed the node in between. */
    private static final int MAX_WRITE_ATTEMPTS = 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KafkaZkClient zkClient;
    private final String type;

    /**
     * @param type Kafka's {@code ConfigType} name: {@code users}, {@code brokers}
     */
    public EntityConfigs(KafkaZkClient zkClient, String type) {
        this.zkClient = zkClient;
        this.type = type;
    }

    /**
     * An entity's config as stored.
     *
     * @param config  every key of the node, in stored order
     * @param version the node's version, for a conditional write
     * @param mzxid   the zxid of the node's last change, to order views of it
     */
    public record EntityConfig(Map<String, String> config, int version, long mzxid) {
    }

    /** {@code /config/{type}}, the parent of every entity's node. */
    public String root() {
        return "/config/" + type;
    }

    /** The node of one entity (its name as it appears in the path). */
    public String path(String name) {
        return root() + "/" + name;
    }

    /** Creates {@code /config/{type}} and {@code /config/changes} when missing. */
    public void ensurePaths() {
        zkClient.ensurePaths(List.of(root(), ZkPaths.CONFIG_CHANGES));
    }

    /** The names of every entity with a config node. */
    public List<String> names() {
        return zkClient.getChildren(root());
    }

    /** An entity's config, or empty when it has no node. */
    public Optional<EntityConfig> read(String name) {
        String path = path(name);
        return call(() -> {
            try {
                Stat stat = new Stat();
                byte[] data = curator().getData().storingStatIn(stat).forPath(path);
                return Optional.of(new EntityConfig(parse(data, path), stat.getVersion(), stat.getMzxid()));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        }, "read " + path);
    }

    /**
     * Rewrites an entity's config and writes its change notification, in one transaction.
     *
     * @param change from the current config (empty when the entity has no node) to the new one; it
     *               may run more than once (after a concurrent change) and may throw to abandon the
     *               change, which then propagates unwrapped
     * @return the config as written
     * @throws ZooKeeperClientException when ZooKeeper fails, or the node keeps changing under us
     */
    public EntityConfig change(String name, UnaryOperator<Map<String, String>> change) {
        String path = path(name);
        for (int attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
            Optional<EntityConfig> current = read(name);
            Map<String, String> next = change.apply(new LinkedHashMap<>(current.map(EntityConfig::config).orElse(Map.of())));
            byte[] data = configJson(next);
            boolean written = call(() -> {
                CuratorOp write = current.isPresent()
                    ? curator().transactionOp().setData().withVersion(current.get().version()).forPath(path, data)
                    : curator().transactionOp().create().forPath(path, data);
                CuratorOp notification = curator().transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(ZkPaths.CONFIG_CHANGE_PREFIX, changeNotificationJson(type + "/" + name));
                try {
                    curator().transaction().forOperations(write, notification);
                    return true;
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    return false; // changed, created or deleted meanwhile: read again
                }
            }, "write " + path);
            if (written) {
                return read(name).orElseThrow(() -> new ZooKeeperClientException(path + " vanished after a write"));
            }
        }
        throw new ZooKeeperClientException("Could not write " + path + ": changed concurrently " + MAX_WRITE_ATTEMPTS
            + " times in a row");
    }

    /** {@code {"version":1,"config":{...}}}, Kafka's {@code ConfigEntityZNode.encode}. */
    static byte[] configJson(Map<String, String> config) {
        ObjectNode node = JSON.createObjectNode();
        node.put("version", 1);
        ObjectNode values = node.putObject("config");
        config.forEach(values::put);
        return JSON.writeValueAsBytes(node);
    }

    /** {@code {"version":2,"entity_path":"users/alice"}}, Kafka's {@code ConfigEntityChangeNotificationSequenceZNode.encode}. */
    static byte[] changeNotificationJson(String entityPath) {
        ObjectNode node = JSON.createObjectNode();
        node.put("version", 2);
        node.put("entity_path", entityPath);
        return JSON.writeValueAsBytes(node);
    }

    /**
     * The {@code config} object of an entity config node (all values as strings).
     *
     * @throws IllegalArgumentException when the data is not JSON
     */
    public static Map<String, String> parse(byte[] data, String path) {
        Map<String, String> config = new LinkedHashMap<>();
        if (data == null || data.length == 0) {
            return config;
        }
        JsonNode node;
        try {
            node = JSON.readTree(data);
        } catch (JacksonException e) {
            // The node's text is not logged: it may hold credentials.
            throw new IllegalArgumentException("Malformed JSON at " + path + " (" + data.length + " bytes)", e);
        }
        for (Map.Entry<String, JsonNode> e : node.path("config").properties()) {
            config.put(e.getKey(), e.getValue().asString());
        }
        return config;
    }

    private CuratorFramework curator() {
        return zkClient.curator();
    }

    private static <T> T call(KafkaZkClient.ZkCall<T> zkCall, String what) {
        return KafkaZkClient.run(zkCall, what);
    }
}
