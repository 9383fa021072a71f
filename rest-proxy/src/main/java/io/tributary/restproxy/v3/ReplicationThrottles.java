package io.tributary.restproxy.v3;

import io.tributary.restproxy.config.KafkaClientPool;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.security.KafkaLogin;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Replication throttles for a reassignment, set and cleared as {@code kafka-reassign-partitions
 * --throttle} and {@code --verify} do (KIP-73): {@code leader.replication.throttled.rate} and
 * {@code follower.replication.throttled.rate} as dynamic configs of every broker involved; on the
 * topic, {@code leader.replication.throttled.replicas} naming the partitions' current replicas
 * ({@code partition:broker}) and {@code follower.replication.throttled.replicas} the replicas being
 * added. Topic throttles are cleared once no partition of the topic is being reassigned, broker
 * rates once no reassignment is left in the cluster: after a cancel at once, after a start by a
 * background check every {@value #CHECK_INTERVAL_MS} ms as the caller who started it (a proxy that
 * stops meanwhile leaves them, as the tool without {@code --verify} does). Thread-safe.
 */
@Component
public class ReplicationThrottles {

    static final String LEADER_RATE = "leader.replication.throttled.rate";
    static final String FOLLOWER_RATE = "follower.replication.throttled.rate";
    static final String LEADER_REPLICAS = "leader.replication.throttled.replicas";
    static final String FOLLOWER_REPLICAS = "follower.replication.throttled.replicas";
    private static final long CHECK_INTERVAL_MS = 1_000;
    private static final Logger log = LoggerFactory.getLogger(ReplicationThrottles.class);

    private final KafkaClientPool pool;
    /** Topics whose throttles wait for their reassignments to end, by the login that set them. */
    private final Map<KafkaLogin, Set<String>> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "reassignment-throttle-check");
        thread.setDaemon(true);
        return thread;
    });

    public ReplicationThrottles(KafkaClientPool pool) {
        this.pool = pool;
        checker.scheduleWithFixedDelay(this::checkPending, CHECK_INTERVAL_MS, CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Sets the throttles for moving partitions from their {@code current} replicas to {@code target} ones,
     * at {@code bytesPerSecond}, adding to throttled replicas the topics already name.
     */
    public void apply(Admin admin, Map<TopicPartition, List<Integer>> current, Map<TopicPartition, List<Integer>> target,
            long bytesPerSecond) {
        Map<String, Set<String>> leaders = new HashMap<>();
        Map<String, Set<String>> followers = new HashMap<>();
        Set<Integer> brokers = new HashSet<>();
        target.forEach((tp, replicas) -> {
            List<Integer> now = current.getOrDefault(tp, List.of());
            brokers.addAll(now);
            brokers.addAll(replicas);
            now.forEach(b -> leaders.computeIfAbsent(tp.topic(), t -> new LinkedHashSet<>()).add(tp.partition() + ":" + b));
            replicas.stream().filter(b -> !now.contains(b)).forEach(b ->
                followers.computeIfAbsent(tp.topic(), t -> new LinkedHashSet<>()).add(tp.partition() + ":" + b));
        });
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
        List<ConfigResource> topics = target.keySet().stream().map(TopicPartition::topic).distinct()
            .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Config> existing = KafkaFutures.get(admin.describeConfigs(topics).all());
        for (ConfigResource topic : topics) {
            List<AlterConfigOp> topicOps = new ArrayList<>();
            String leader = merged(existing.get(topic), LEADER_REPLICAS, leaders.get(topic.name()));
            String follower = merged(existing.get(topic), FOLLOWER_REPLICAS, followers.get(topic.name()));
            if (!leader.isEmpty()) {
                topicOps.add(set(LEADER_REPLICAS, leader));
            }
            if (!follower.isEmpty()) {
                topicOps.add(set(FOLLOWER_REPLICAS, follower));
            }
            ops.put(topic, topicOps);
        }
        for (int broker : brokers) {
            ops.put(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(broker)),
                List.of(set(LEADER_RATE, String.valueOf(bytesPerSecond)), set(FOLLOWER_RATE, String.valueOf(bytesPerSecond))));
        }
        KafkaFutures.get(admin.incrementalAlterConfigs(ops).all());
    }

    /** Clears the topics' throttles once their reassignments are over, in the background, as {@code login}. */
    public void clearWhenDone(KafkaLogin login, Collection<String> topics) {
        pending.computeIfAbsent(login, l -> ConcurrentHashMap.newKeySet()).addAll(topics);
    }

    /**
     * Clears the throttles of those of {@code topics} no longer being reassigned, and every broker's rates
     * when no reassignment is left; answers the topics still being reassigned.
     */
    public Set<String> clearFinished(Admin admin, Collection<String> topics) {
        Set<TopicPartition> ongoing = KafkaFutures.get(admin.listPartitionReassignments().reassignments()).keySet();
        Set<String> busy = new HashSet<>();
        ongoing.forEach(tp -> busy.add(tp.topic()));
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
        Set<String> still = new HashSet<>();
        for (String topic : topics) {
            if (busy.contains(topic)) {
                still.add(topic);
            } else {
                ops.put(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(delete(LEADER_REPLICAS), delete(FOLLOWER_REPLICAS)));
            }
        }
        if (ongoing.isEmpty()) {
            for (Node broker : KafkaFutures.get(admin.describeCluster().nodes())) {
                ops.put(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(broker.id())),
                    List.of(delete(LEADER_RATE), delete(FOLLOWER_RATE)));
            }
        }
        if (!ops.isEmpty()) {
            KafkaFutures.get(admin.incrementalAlterConfigs(ops).all());
        }
        return still;
    }

    private void checkPending() {
        for (Map.Entry<KafkaLogin, Set<String>> entry : pending.entrySet()) {
            try {
                Set<String> topics = new HashSet<>(entry.getValue());
                Set<String> still = pool.withAdmin(entry.getKey(), admin -> clearFinished(admin, topics));
                entry.getValue().removeIf(t -> topics.contains(t) && !still.contains(t));
                pending.computeIfPresent(entry.getKey(), (login, left) -> left.isEmpty() ? null : left);
            } catch (RuntimeException e) {
                log.warn("Could not check or clear replication throttles of {}: {}", entry.getValue(), e.toString());
            }
        }
    }

    private static String merged(Config config, String name, Set<String> add) {
        List<String> values = new ArrayList<>();
        ConfigEntry entry = config == null ? null : config.get(name);
        if (entry != null && entry.value() != null && !entry.value().isBlank() && !entry.isDefault()) {
            values.addAll(List.of(entry.value().split(",")));
        }
        if (add != null) {
            add.stream().filter(v -> !values.contains(v)).forEach(values::add);
        }
        return String.join(",", values);
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String name) {
        return new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE);
    }

    @PreDestroy
    void stop() {
        checker.shutdownNow();
    }
}
