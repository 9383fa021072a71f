package io.tributary.broker.security;

import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.kafka.common.utils.internals.Sanitizer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dynamic configs of users in ZooKeeper, in the layout of Kafka's ZooKeeper mode
 * ({@code AdminZkClient.fetchEntityConfig / changeConfigs} for {@code ConfigType.User}):
 * <pre>
 * /config/users/{sanitized user}       {"version":1,"config":{"SCRAM-SHA-512":"salt=...,...","producer_byte_rate":"1024"}}
 * /config/changes/config_change_{seq}  {"version":2,"entity_path":"users/{sanitized user}"}   persistent sequential
 * </pre>
 * User names in paths are encoded with kafka-clients' {@link Sanitizer}, as Kafka does. A user's
 * node holds every config of the user (SCRAM credentials and quotas alike); a change rewrites the
 * whole node and is never deleted, only emptied, as Kafka leaves it. Change notifications are
 * deleted once older than 15 minutes by {@link io.tributary.broker.cluster.ChangeNotificationPurger}
 * (started by {@link ScramCredentialStore}), as Kafka's brokers deleted them.
 *
 * <p>A change is a conditional write (the node's version as read) and its change notification
 * in one ZooKeeper transaction, retried on a concurrent change, so two brokers altering the same
 * user never lose each other's keys (Kafka's own read-modify-write was not conditional).
 *
 * <p>Blocking; thread-safe. Failures surface as {@link ZooKeeperClientException}.
 */
final class UserEntityConfigs {

    /** How often a change is retried when another writer changed the node in between. */
    private static final int MAX_WRITE_ATTEMPTS = 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KafkaZkClient zkClient;

    UserEntityConfigs(KafkaZkClient zkClient) {
        this.zkClient = zkClient;
    }

    /**
     * A user's config as stored.
     *
     * @param config every key of the user's node, in stored order
     * @param version the node's version, for a conditional write
     * @param mzxid   the zxid of the node's last change, to order views of it
     */
    record UserConfig(Map<String, String> config, int version, long mzxid) {
    }

    /** Creates {@code /config/users} and {@code /config/changes} when missing. */
    void ensurePaths() {
        zkClient.ensurePaths(List.of(ZkPaths.CONFIG_USERS, ZkPaths.CONFIG_CHANGES));
    }

    /** The sanitized names of every user with a config node. */
    List<String> sanitizedUsers() {
        return zkClient.getChildren(ZkPaths.CONFIG_USERS);
    }

    /** A user's config, or empty when the user has no node. */
    Optional<UserConfig> read(String sanitizedUser) {
        String path = ZkPaths.userConfig(sanitizedUser);
        return call(() -> {
            try {
                Stat stat = new Stat();
                byte[] data = curator().getData().storingStatIn(stat).forPath(path);
                return Optional.of(new UserConfig(parse(data, path), stat.getVersion(), stat.getMzxid()));
            } catch (KeeperException.NoNodeException e) {
                return Optional.empty();
            }
        }, "read " + path);
    }

    /**
     * Rewrites a user's config and writes its change notification, in one transaction.
     *
     * @param change from the current config (empty when the user has no node) to the new one; it
     *               may run more than once (after a concurrent change) and may throw to abandon
     *               the change, which then propagates unwrapped
     * @return the config as written
     * @throws ZooKeeperClientException when ZooKeeper fails, or the node keeps changing under us
     */
    UserConfig change(String sanitizedUser, UnaryOperator<Map<String, String>> change) {
        String path = ZkPaths.userConfig(sanitizedUser);
        for (int attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
            Optional<UserConfig> current = read(sanitizedUser);
            Map<String, String> next = change.apply(new LinkedHashMap<>(current.map(UserConfig::config).orElse(Map.of())));
            byte[] data = configJson(next);
            boolean written = call(() -> {
                CuratorOp write = current.isPresent()
                    ? curator().transactionOp().setData().withVersion(current.get().version()).forPath(path, data)
                    : curator().transactionOp().create().forPath(path, data);
                CuratorOp notification = curator().transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(ZkPaths.CONFIG_CHANGE_PREFIX, changeNotificationJson("users/" + sanitizedUser));
                try {
                    curator().transaction().forOperations(write, notification);
                    return true;
                } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                         | KeeperException.NoNodeException e) {
                    return false; // changed, created or deleted meanwhile: read again
                }
            }, "write " + path);
            if (written) {
                return read(sanitizedUser).orElseThrow(() -> new ZooKeeperClientException(path + " vanished after a write"));
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
    static Map<String, String> parse(byte[] data, String path) {
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

    /** The user name a config node stands for. */
    static String desanitize(String sanitizedUser) {
        return Sanitizer.desanitize(sanitizedUser);
    }

    static String sanitize(String user) {
        return Sanitizer.sanitize(user);
    }

    private CuratorFramework curator() {
        return zkClient.curator();
    }

    private static <T> T call(KafkaZkClient.ZkCall<T> zkCall, String what) {
        return KafkaZkClient.run(zkCall, what);
    }
}
