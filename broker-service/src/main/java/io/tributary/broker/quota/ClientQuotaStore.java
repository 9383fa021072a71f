package io.tributary.broker.quota;

import io.tributary.broker.cluster.ZkWatch;
import io.tributary.broker.cluster.EntityConfigs;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.utils.internals.Sanitizer;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client quotas in ZooKeeper, in Kafka's ZooKeeper-mode layout (KIP-55), kept in memory for
 * enforcement and followed by watches:
 * <pre>
 * /config/users/{user}                    {"version":1,"config":{"producer_byte_rate":"1024",...}}
 * /config/users/{user}/clients/{client}   the same, for one client id of one user
 * /config/clients/{client}                the same, for a client id of any user
 * </pre>
 * {@code {user}} and {@code {client}} are names encoded with kafka-clients' {@link Sanitizer}, or
 * {@code <default>}. A user's node also holds its SCRAM credentials, which this store leaves as
 * they are. Writes go through {@link EntityConfigs} (conditional, with a change notification).
 *
 * <p>Thread-safe; reads of the view never block, writes and {@link #describe} call ZooKeeper.
 */
public final class ClientQuotaStore implements ClientQuotaLookup, AutoCloseable {

    /** The quota keys of users and client ids, with whether their values are whole numbers (LONG). */
    public static final Map<String, Boolean> QUOTA_KEYS = Map.of(
        QuotaType.PRODUCE.key(), true, QuotaType.FETCH.key(), true,
        QuotaType.REQUEST.key(), false, QuotaType.CONTROLLER_MUTATION.key(), false);

    private static final Logger log = LoggerFactory.getLogger(ClientQuotaStore.class);
    private static final String USERS = "/config/users";
    private static final String CLIENTS = "/config/clients";

    private final KafkaZkClient zkClient;
    private final EntityConfigs users;
    private final EntityConfigs clients;
    private final Map<ClientQuotaEntity, Map<String, Double>> view = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<CuratorCache> watches = new ArrayList<>();

    public ClientQuotaStore(KafkaZkClient zkClient) {
        this.zkClient = zkClient;
        this.users = new EntityConfigs(zkClient, "users");
        this.clients = new EntityConfigs(zkClient, "clients");
    }

    /** Loads every quota and follows changes; returns once loaded. */
    public synchronized void start(long timeoutMs) {
        users.ensurePaths();
        clients.ensurePaths();
        CountDownLatch initialized = new CountDownLatch(2);
        for (String root : List.of(USERS, CLIENTS)) {
            CuratorCache watch = ZkWatch.of(zkClient.curator(), root, CuratorCacheListener.builder().forAll(this::onWatchEvent)
                .forInitialized(initialized::countDown).build());
            watches.add(watch);
            watch.start();
        }
        try {
            if (!initialized.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperClientException("Client quotas not loaded from ZooKeeper within " + timeoutMs + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while loading client quotas", e);
        }
        log.info("Client quotas loaded: {} entit(ies)", view.size());
    }

    /** Called after every change of the view. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /** Whether any quota is set (no lookups are needed otherwise). */
    @Override
    public boolean isEmpty() {
        return view.isEmpty();
    }

    /** The quota of {@code key} set on exactly {@code entity}, from memory. */
    @Override
    public OptionalDouble quota(ClientQuotaEntity entity, String key) {
        Map<String, Double> values = view.get(entity);
        Double value = values == null ? null : values.get(key);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    private void onWatchEvent(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
        ChildData node = data != null ? data : oldData;
        if (node == null) {
            return;
        }
        ClientQuotaEntity entity = entityOf(node.getPath());
        if (entity == null) {
            return;
        }
        Map<String, Double> quotas = type == CuratorCacheListener.Type.NODE_DELETED ? Map.of()
            : quotasOf(node.getData(), node.getPath());
        if (quotas.isEmpty()) {
            if (view.remove(entity) == null) {
                return;
            }
        } else if (quotas.equals(view.put(entity, quotas))) {
            return;
        }
        log.info("Client quotas of {} are now {}", entity, quotas);
        listeners.forEach(Runnable::run);
    }

    /** The entity a config node stands for, or null for a node that holds none (a {@code clients} parent). */
    static ClientQuotaEntity entityOf(String path) {
        String[] parts = path.split("/");
        // "", "config", "users"|"clients", name [, "clients", name]
        if (parts.length == 4 && parts[2].equals("users")) {
            return new ClientQuotaEntity(desanitize(parts[3]), null);
        }
        if (parts.length == 6 && parts[2].equals("users") && parts[4].equals("clients")) {
            return new ClientQuotaEntity(desanitize(parts[3]), desanitize(parts[5]));
        }
        if (parts.length == 4 && parts[2].equals("clients")) {
            return new ClientQuotaEntity(null, desanitize(parts[3]));
        }
        return null;
    }

    private static String desanitize(String segment) {
        return segment.equals(ClientQuotaEntity.ZK_DEFAULT) ? ClientQuotaEntity.DEFAULT : Sanitizer.desanitize(segment);
    }

    private static String sanitize(String name) {
        return name.equals(ClientQuotaEntity.DEFAULT) ? ClientQuotaEntity.ZK_DEFAULT : Sanitizer.sanitize(name);
    }

    private static Map<String, Double> quotasOf(byte[] data, String path) {
        Map<String, Double> quotas = new HashMap<>();
        try {
            EntityConfigs.parse(data, path).forEach((key, value) -> {
                if (QUOTA_KEYS.containsKey(key)) {
                    try {
                        quotas.put(key, Double.parseDouble(value));
                    } catch (NumberFormatException e) {
                        log.error("Ignoring the quota {}={} of {}: not a number", key, value, path);
                    }
                }
            });
        } catch (RuntimeException e) {
            log.error("Ignoring the config of {}: {}", path, e.getMessage());
        }
        return Map.copyOf(quotas);
    }

    /** The config node of an entity. */
    private static String pathOf(ClientQuotaEntity entity) {
        if (entity.user() != null && entity.clientId() != null) {
            return USERS + "/" + sanitize(entity.user()) + "/clients/" + sanitize(entity.clientId());
        }
        return entity.user() != null ? USERS + "/" + sanitize(entity.user()) : CLIENTS + "/" + sanitize(entity.clientId());
    }

    /**
     * Sets and removes quotas of one entity in one write (other keys of its node are kept);
     * {@code changes} maps a key to its new value, or to null to remove it. The view follows by watch.
     *
     * @throws ZooKeeperClientException when ZooKeeper fails
     */
    public void alter(ClientQuotaEntity entity, Map<String, Double> changes) {
        String path = pathOf(entity);
        String parent = path.substring(0, path.lastIndexOf('/'));
        if (entity.user() != null && entity.clientId() != null) {
            createIfMissing(parent.substring(0, parent.lastIndexOf('/')));
            createIfMissing(parent);
        }
        EntityConfigs configs = path.startsWith(USERS) ? users : clients;
        String name = path.substring(configs.root().length() + 1);
        configs.change(name, current -> {
            Map<String, String> next = new LinkedHashMap<>(current);
            changes.forEach((key, value) -> {
                if (value == null) {
                    next.remove(key);
                } else {
                    next.put(key, QUOTA_KEYS.get(key) ? Long.toString(value.longValue()) : Double.toString(value));
                }
            });
            return next;
        });
    }

    private void createIfMissing(String path) {
        try {
            zkClient.curator().create().creatingParentsIfNeeded().forPath(path, new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            // there already
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not create " + path, e);
        }
    }

    /** Every entity with a quota, read from ZooKeeper (as Kafka's ZooKeeper-mode DescribeClientQuotas reads it). */
    public Map<ClientQuotaEntity, Map<String, Double>> readAll() {
        Map<ClientQuotaEntity, Map<String, Double>> all = new LinkedHashMap<>();
        for (String user : users.names()) {
            readInto(all, USERS + "/" + user);
            String clientsPath = USERS + "/" + user + "/clients";
            for (String client : children(clientsPath)) {
                readInto(all, clientsPath + "/" + client);
            }
        }
        for (String client : clients.names()) {
            readInto(all, CLIENTS + "/" + client);
        }
        return all;
    }

    private List<String> children(String path) {
        try {
            return zkClient.curator().getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not list " + path, e);
        }
    }

    private void readInto(Map<ClientQuotaEntity, Map<String, Double>> all, String path) {
        try {
            byte[] data = zkClient.curator().getData().forPath(path);
            Map<String, Double> quotas = quotasOf(data, path);
            ClientQuotaEntity entity = entityOf(path);
            if (entity != null && !quotas.isEmpty()) {
                all.put(entity, quotas);
            }
        } catch (KeeperException.NoNodeException e) {
            // deleted meanwhile
        } catch (Exception e) {
            throw new ZooKeeperClientException("Could not read " + path, e);
        }
    }

    @Override
    public synchronized void close() {
        watches.forEach(CuratorCache::close);
        watches.clear();
    }
}
