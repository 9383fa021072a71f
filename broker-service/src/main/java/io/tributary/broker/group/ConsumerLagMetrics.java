package io.tributary.broker.group;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer group lag per group, topic and partition, in the form of the Kafka exporter that
 * Kafka dashboards and alerts read: {@code kafka_consumergroup_lag{consumergroup,topic,partition}}
 * (records between the partition's high watermark and the group's committed offset, never
 * negative) and {@code kafka_consumergroup_current_offset{consumergroup,topic,partition}} (the
 * committed offset).
 *
 * <p>Each broker reports the groups it coordinates (whose {@code __consumer_offsets} partition it
 * leads), so every group is reported once in the cluster and moves with its coordinator. Every
 * {@code intervalMs} it reads the committed offsets from the {@link GroupCoordinator} and the
 * partitions' end offsets (ListOffsets LATEST, i.e. the high watermark) from their leaders through
 * a kafka-clients {@link Admin} connected to this broker. A partition whose end offset cannot be
 * read keeps its last values; a series goes when its committed offset goes (group deleted,
 * offsets expired or deleted, coordinator moved) or its topic is deleted (committed offsets of
 * topics that no longer exist are not reported, and their end offsets not asked for). While the
 * coordinator is still loading groups, no series is removed, so none flaps during a move.
 *
 * <p>Thread-safe: refreshes run on one thread of their own; gauges read volatile values.
 */
public final class ConsumerLagMetrics implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConsumerLagMetrics.class);

    private final GroupCoordinator coordinator;
    private final Supplier<Admin> adminFactory;
    private final Predicate<String> topicExists;
    private final MeterRegistry registry;
    private final long intervalMs;
    private final long requestTimeoutMs;
    private final Map<Key, Series> series = new ConcurrentHashMap<>();
    private final ScheduledExecutorService executor;
    private Admin admin;

    /** One reported partition of a group. */
    private record Key(String group, TopicPartition tp) {
    }

    /** The values and meters of one key. */
    private static final class Series {
        volatile long lag;
        volatile long committed;
        Gauge lagGauge;
        Gauge offsetGauge;
    }

    /**
     * @param coordinator      the groups coordinated here and their committed offsets
     * @param adminFactory     creates the Admin that reads end offsets (called once, on the first refresh that needs it)
     * @param topicExists      whether a topic exists (the broker's metadata)
     * @param registry         where the gauges are registered
     * @param intervalMs       time between refreshes, ms
     * @param requestTimeoutMs how long one refresh waits for end offsets, ms
     */
    public ConsumerLagMetrics(GroupCoordinator coordinator, Supplier<Admin> adminFactory, Predicate<String> topicExists,
                              MeterRegistry registry, long intervalMs, long requestTimeoutMs) {
        this.coordinator = coordinator;
        this.adminFactory = adminFactory;
        this.topicExists = topicExists;
        this.registry = registry;
        this.intervalMs = intervalMs;
        this.requestTimeoutMs = requestTimeoutMs;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "consumer-lag-metrics");
            t.setDaemon(true);
            return t;
        });
    }

    /** Admin settings for a broker's own lag reader: connects to {@code bootstrapServers}. */
    public static Properties adminConfig(String bootstrapServers, String clientId, long requestTimeoutMs,
                                         java.util.Map<String, Object> securityConfigs) {
        Properties props = new Properties();
        securityConfigs.forEach((key, value) -> {
            if (value != null) {
                props.put(key, value);
            }
        });
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) requestTimeoutMs);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) requestTimeoutMs);
        return props;
    }

    /** Starts the periodic refresh. */
    public void start() {
        executor.scheduleWithFixedDelay(this::refreshQuietly, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Could not refresh consumer group lag: {}", e.toString());
        }
    }

    /** One refresh: reads committed and end offsets and updates the series. Called on the refresh thread. */
    void refresh() throws InterruptedException {
        Map<Key, Long> committed = new HashMap<>();
        Map.Entry<Errors, List<GroupCoordinator.ListedGroup>> listed = coordinator.listGroups(List.of(), List.of());
        for (GroupCoordinator.ListedGroup group : listed.getValue()) {
            GroupCoordinator.FetchedOffsets fetched = coordinator.fetchOffsets(group.groupId(), null);
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : fetched.offsets().entrySet()) {
                if (e.getValue() != null && e.getValue().offset() >= 0 && topicExists.test(e.getKey().topic())) {
                    committed.put(new Key(group.groupId(), e.getKey()), e.getValue().offset());
                }
            }
        }
        Map<TopicPartition, Long> endOffsets = committed.isEmpty() ? Map.of() : endOffsets(committed);
        for (Map.Entry<Key, Long> e : committed.entrySet()) {
            Long end = endOffsets.get(e.getKey().tp());
            Series s = series.get(e.getKey());
            if (s == null) {
                if (end == null) {
                    continue;
                }
                s = register(e.getKey());
            }
            s.committed = e.getValue();
            if (end != null) {
                s.lag = Math.max(0, end - e.getValue());
            }
        }
        boolean loading = listed.getKey() != Errors.NONE;
        for (Key key : Set.copyOf(series.keySet())) {
            boolean topicGone = !topicExists.test(key.tp().topic());
            if (topicGone || (!loading && !committed.containsKey(key))) {
                Series gone = series.remove(key);
                registry.remove(gone.lagGauge);
                registry.remove(gone.offsetGauge);
            }
        }
    }

    private Map<TopicPartition, Long> endOffsets(Map<Key, Long> committed) throws InterruptedException {
        if (admin == null) {
            admin = adminFactory.get();
        }
        Set<TopicPartition> tps = new HashSet<>();
        committed.keySet().forEach(k -> tps.add(k.tp()));
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        tps.forEach(tp -> request.put(tp, OffsetSpec.latest()));
        ListOffsetsResult result = admin.listOffsets(request);
        try {
            result.all().get(requestTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.debug("Some end offsets could not be read: {}", e.toString());
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        for (TopicPartition tp : tps) {
            KafkaFuture<ListOffsetsResult.ListOffsetsResultInfo> f = result.partitionResult(tp);
            if (f.isDone() && !f.isCompletedExceptionally()) {
                try {
                    out.put(tp, f.get().offset());
                } catch (ExecutionException e) {
                    // not reached: checked above
                }
            }
        }
        return out;
    }

    private Series register(Key key) {
        Series s = new Series();
        Tags tags = Tags.of("consumergroup", key.group(), "topic", key.tp().topic(), "partition",
            Integer.toString(key.tp().partition()));
        s.lagGauge = Gauge.builder("kafka.consumergroup.lag", s, x -> x.lag).tags(tags)
            .description("Records between the partition's high watermark and the group's committed offset")
            .register(registry);
        s.offsetGauge = Gauge.builder("kafka.consumergroup.current.offset", s, x -> x.committed).tags(tags)
            .description("The group's committed offset").register(registry);
        series.put(key, s);
        return s;
    }

    /** Stops refreshing, closes the Admin and removes the series. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(2));
        }
        series.values().forEach(s -> {
            registry.remove(s.lagGauge);
            registry.remove(s.offsetGauge);
        });
        series.clear();
    }
}
