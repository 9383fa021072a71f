package io.tributary.broker.group;

import io.tributary.broker.cluster.ZkWatch;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.cluster.ConfigChanges;
import io.tributary.broker.cluster.EntityConfigs;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.utils.internals.Sanitizer;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-group configs (KIP-848 group configs, and KIP-932's {@code share.*}): Kafka's
 * {@link GroupConfig} keys set with IncrementalAlterConfigs or AlterConfigs on GROUP resources,
 * validated as Kafka's controller validates them ({@link GroupConfig#validate} against the
 * broker's bounds), stored in ZooKeeper and followed by every broker with a watch:
 * <pre>
 * /config/groups/{group}                {"version":1,"config":{"consumer.session.timeout.ms":"50000",...}}
 * /config/changes/config_change_{seq}   {"version":2,"entity_path":"groups/{group}"}
 * </pre>
 * Kafka keeps group configs only in KRaft's metadata log; this node under {@code /config} is
 * Tributary's, in the layout of the other entity configs ({@link EntityConfigs}), with the group id
 * encoded by kafka-clients' {@link Sanitizer} (a group id may hold {@code /}).
 *
 * <p>Thread-safe. {@link #groupConfig} reads memory and never blocks; {@link #alter},
 * {@link #replace} and {@link #overrides} call ZooKeeper (request handler threads only).
 */
public final class GroupConfigManager implements GroupConfigLookup, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupConfigManager.class);

    private final KafkaZkClient zkClient;
    private final EntityConfigs groups;
    private final GroupConfigDefaults defaults;
    private final Map<String, GroupConfig> view = new ConcurrentHashMap<>();
    private CuratorCache watch;

    public GroupConfigManager(KafkaZkClient zkClient, GroupConfigDefaults defaults) {
        this.zkClient = zkClient;
        this.groups = new EntityConfigs(zkClient, "groups");
        this.defaults = defaults;
    }

    /** The broker's values and bounds that group configs fall back to and are checked against. */
    public GroupConfigDefaults defaults() {
        return defaults;
    }

    /** Loads every group's configs and follows changes; returns once loaded. */
    public synchronized void start(long timeoutMs) {
        groups.ensurePaths();
        CountDownLatch initialized = new CountDownLatch(1);
        watch = ZkWatch.of(zkClient.curator(), groups.root(), CuratorCacheListener.builder().forAll(this::onWatchEvent)
            .forInitialized(initialized::countDown).build());
        watch.start();
        try {
            if (!initialized.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperClientException("Group configs not loaded from ZooKeeper within " + timeoutMs + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while loading group configs", e);
        }
        log.info("Group configs loaded: {} group(s) with configs of their own", view.size());
    }

    @Override
    public Optional<GroupConfig> groupConfig(String groupId) {
        return Optional.ofNullable(view.get(groupId));
    }

    /** The overrides stored for a group, read from ZooKeeper (so a change just made is seen); empty when none. */
    public Map<String, String> overrides(String groupId) {
        return groups.read(Sanitizer.sanitize(groupId)).map(EntityConfigs.EntityConfig::config).orElse(Map.of());
    }

    /**
     * IncrementalAlterConfigs (KIP-339) of a GROUP resource.
     *
     * @return NONE; INVALID_REQUEST (an empty group name, a key twice); INVALID_CONFIG (an unknown
     *         key, a value out of the broker's bounds, a list operation on a key that is not a list)
     */
    public ApiError alter(String groupId, List<AdminManager.ConfigChange> changes, boolean validateOnly) {
        return update(groupId, current -> ConfigChanges.apply(current, changes, GroupConfig.CONFIG_DEF, "group"),
            validateOnly);
    }

    /** AlterConfigs of a GROUP resource: the given set replaces every override of the group. */
    public ApiError replace(String groupId, Map<String, String> configs, boolean validateOnly) {
        return update(groupId, current -> new LinkedHashMap<>(configs), validateOnly);
    }

    private ApiError update(String groupId, UnaryOperator<Map<String, String>> change, boolean validateOnly) {
        if (groupId == null || groupId.isEmpty()) {
            return new ApiError(Errors.INVALID_REQUEST, "Group name must not be empty");
        }
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, groupId);
        UnaryOperator<Map<String, String>> validated = current -> {
            Map<String, String> next = change.apply(current);
            for (Map.Entry<String, String> entry : next.entrySet()) {
                if (entry.getValue() == null) {
                    throw new InvalidConfigurationException("Null value not supported for group configs: " + entry.getKey());
                }
            }
            defaults.validate(next);
            return next;
        };
        try {
            if (validateOnly) {
                validated.apply(new LinkedHashMap<>(overrides(groupId)));
            } else {
                Map<String, String> written = groups.change(Sanitizer.sanitize(groupId), validated).config();
                log.info("Updating group {} with new configuration: {}", groupId, new TreeMap<>(written));
            }
            return ApiError.NONE;
        } catch (InvalidConfigurationException | ConfigException e) {
            return new ApiError(Errors.INVALID_CONFIG, "Invalid config value for resource " + resource + ": "
                + e.getMessage());
        } catch (ApiException e) {
            return ApiError.fromThrowable(e);
        }
    }

    private void onWatchEvent(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
        ChildData node = data != null ? data : oldData;
        String root = groups.root() + "/";
        if (node == null || !node.getPath().startsWith(root) || node.getPath().indexOf('/', root.length()) >= 0) {
            return;
        }
        String groupId = Sanitizer.desanitize(node.getPath().substring(root.length()));
        Map<String, String> overrides = Map.of();
        try {
            overrides = type == CuratorCacheListener.Type.NODE_DELETED ? Map.of()
                : EntityConfigs.parse(node.getData(), node.getPath());
            if (overrides.isEmpty()) {
                if (view.remove(groupId) != null) {
                    log.info("Group {} follows the broker's group settings again", groupId);
                }
                return;
            }
            view.put(groupId, defaults.groupConfig(overrides));
            log.info("Group {} has configs {}", groupId, new TreeMap<>(overrides));
        } catch (RuntimeException e) {
            log.warn("Ignoring the stored configs of group {} ({}): {}", groupId, overrides, e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (watch != null) {
            watch.close();
            watch = null;
        }
    }
}
