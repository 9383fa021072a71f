package io.tributary.restproxy.consumer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.RestError;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The consumer instances of this proxy, by group and instance id. Creates their Kafka consumers,
 * closes instances idle longer than {@code rest-proxy.consumer-instance-timeout} (so no member is
 * leaked in its group), and closes all at shutdown. Thread-safe.
 */
@Service
public class ConsumerManager {

    /** Identifies an instance: its group and its id (the name it was created with, or a generated one). */
    public record InstanceKey(String group, String id) {
    }

    private static final Logger log = LoggerFactory.getLogger(ConsumerManager.class);

    private final KafkaConsumerFactory consumers;
    private final RestProxyProperties properties;
    private final Clock clock;
    private final Map<InstanceKey, ConsumerInstance> instances = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rest-consumer-timer");
        thread.setDaemon(true);
        return thread;
    });

    public ConsumerManager(KafkaConsumerFactory consumers, RestProxyProperties properties, Clock clock,
            MeterRegistry registry) {
        this.consumers = consumers;
        this.properties = properties;
        this.clock = clock;
        long checkMs = Math.max(100, Math.min(10_000, properties.consumerInstanceTimeout().toMillis() / 4));
        timer.scheduleWithFixedDelay(this::expireIdle, checkMs, checkMs, TimeUnit.MILLISECONDS);
        Gauge.builder("restproxy.consumer.instances", instances, Map::size)
            .description("Consumer instances open on this proxy").register(registry);
    }

    /**
     * Creates an instance in {@code group}: a Kafka consumer with {@code group.id=group}, not yet
     * subscribed.
     *
     * @throws io.tributary.restproxy.error.RestException 40902 when the group already has an
     *         instance of that name on this proxy
     */
    public ConsumerInstance create(String group, ConsumerInstanceConfig config) {
        // A generated id names this replica, so any other replica can forward requests for it here.
        String id = config.name() != null ? config.name()
            : "rest-consumer-" + properties.replicaId() + "-" + UUID.randomUUID();
        InstanceKey key = new InstanceKey(group, id);
        ConsumerInstance[] created = new ConsumerInstance[1];
        if (instances.size() >= properties.maxConsumerInstances() && !instances.containsKey(key)) {
            throw RestError.SERVICE_UNAVAILABLE.exception("This proxy holds its most consumer instances ("
                + properties.maxConsumerInstances() + ", rest-proxy.max-consumer-instances); delete idle ones or retry");
        }
        instances.compute(key, (k, existing) -> {
            if (existing != null) {
                throw RestError.CONSUMER_ALREADY_EXISTS.exception("Consumer with specified consumer ID already "
                    + "exists in the specified consumer group.");
            }
            created[0] = new ConsumerInstance(group, id, config,
                consumers.member(group, "rest-proxy-" + id, config.autoOffsetReset()), clock,
                properties.consumerBufferMaxBytes().toBytes(), timer);
            return created[0];
        });
        log.info("Created consumer instance {} in group {}", id, group);
        return created[0];
    }

    /**
     * The instance, marked as used.
     *
     * @throws io.tributary.restproxy.error.RestException 40403 when there is none
     */
    public ConsumerInstance get(String group, String id) {
        ConsumerInstance instance = instances.get(new InstanceKey(group, id));
        if (instance == null) {
            throw RestError.CONSUMER_INSTANCE_NOT_FOUND.exception("Consumer instance not found.");
        }
        instance.touch();
        return instance;
    }

    /**
     * Closes and forgets the instance; its consumer leaves the group.
     *
     * @throws io.tributary.restproxy.error.RestException 40403 when there is none
     */
    public void delete(String group, String id) {
        ConsumerInstance instance = instances.remove(new InstanceKey(group, id));
        if (instance == null) {
            throw RestError.CONSUMER_INSTANCE_NOT_FOUND.exception("Consumer instance not found.");
        }
        instance.close();
        log.info("Deleted consumer instance {} of group {}", id, group);
    }

    /** Whether this proxy holds the instance. */
    public boolean contains(String group, String id) {
        return instances.containsKey(new InstanceKey(group, id));
    }

    /** Instances open now. */
    public int size() {
        return instances.size();
    }

    /** Closes instances not used for the instance timeout. Runs on the timer. */
    void expireIdle() {
        long now = clock.millis();
        long timeoutMs = properties.consumerInstanceTimeout().toMillis();
        for (Map.Entry<InstanceKey, ConsumerInstance> entry : List.copyOf(instances.entrySet())) {
            ConsumerInstance instance = entry.getValue();
            if (now - instance.lastUsedMs() >= timeoutMs && instances.remove(entry.getKey(), instance)) {
                log.info("Consumer instance {} of group {} idle for {} ms: closing it", instance.id(),
                    instance.group(), now - instance.lastUsedMs());
                Thread closer = new Thread(instance::close, "rest-consumer-close-" + instance.id());
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    @PreDestroy
    void closeAll() {
        List<ConsumerInstance> open = List.copyOf(instances.values());
        instances.clear();
        open.parallelStream().forEach(ConsumerInstance::close);
        timer.shutdownNow();
    }

}
