package io.tributary.restproxy.consumer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.restproxy.config.KafkaConsumerFactory;
import io.tributary.restproxy.config.RestProxyProperties;
import io.tributary.restproxy.error.CapacityExceededException;
import io.tributary.restproxy.error.ConsumerInstanceAccessDeniedException;
import io.tributary.restproxy.error.ConsumerInstanceExistsException;
import io.tributary.restproxy.error.ConsumerInstanceNotFoundException;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
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
 * The consumer instances of this proxy, by group and instance id. Creates their Kafka consumers
 * with the creating caller's login, closes instances idle longer than
 * {@code rest-proxy.consumer-instance-timeout} (so no member is leaked in its group), and closes
 * all at shutdown. An instance belongs to the principal that created it: another principal gets a
 * {@link ConsumerInstanceAccessDeniedException} from {@link #get} and {@link #delete} and the
 * instance is left as it was. Knows nothing of HTTP. Thread-safe.
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
    private final Callers callers;
    private final Map<InstanceKey, ConsumerInstance> instances = new ConcurrentHashMap<>();
    /** The principal ({@link KafkaLogin#principal()}) that created each instance. */
    private final Map<InstanceKey, String> owners = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rest-consumer-timer");
        thread.setDaemon(true);
        return thread;
    });

    public ConsumerManager(KafkaConsumerFactory consumers, RestProxyProperties properties, Clock clock,
            MeterRegistry registry, Callers callers) {
        this.callers = callers;
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
     * @throws ConsumerInstanceExistsException when the group already has an instance of that name
     *         on this proxy
     * @throws CapacityExceededException when this proxy holds {@code rest-proxy.max-consumer-instances}
     */
    public ConsumerInstance create(String group, ConsumerInstanceConfig config) {
        // A generated id names this replica, so any other replica can forward requests for it here.
        String id = config.name() != null ? config.name()
            : "rest-consumer-" + properties.replicaId() + "-" + UUID.randomUUID();
        InstanceKey key = new InstanceKey(group, id);
        KafkaLogin login = callers.current();
        ConsumerInstance[] created = new ConsumerInstance[1];
        if (instances.size() >= properties.maxConsumerInstances() && !instances.containsKey(key)) {
            throw new CapacityExceededException("This proxy holds its most consumer instances ("
                + properties.maxConsumerInstances() + ", rest-proxy.max-consumer-instances); delete idle ones or retry");
        }
        instances.compute(key, (k, existing) -> {
            if (existing != null) {
                throw new ConsumerInstanceExistsException();
            }
            created[0] = new ConsumerInstance(group, id, config,
                consumers.member(login, group, "rest-proxy-" + id, config.autoOffsetReset(), config.isolationLevel()), clock,
                properties.consumerBufferMaxBytes().toBytes(), timer);
            owners.put(k, login.principal());
            return created[0];
        });
        log.info("Created consumer instance {} in group {} for {}", id, group, login);
        return created[0];
    }

    /**
     * The instance, marked as used.
     *
     * @throws ConsumerInstanceNotFoundException when there is none
     * @throws ConsumerInstanceAccessDeniedException when it belongs to another principal
     */
    public ConsumerInstance get(String group, String id) {
        InstanceKey key = new InstanceKey(group, id);
        ConsumerInstance instance = instances.get(key);
        if (instance == null) {
            throw new ConsumerInstanceNotFoundException("Consumer instance not found.");
        }
        checkOwner(key);
        instance.touch();
        return instance;
    }

    /**
     * Closes and forgets the instance; its consumer leaves the group.
     *
     * @throws ConsumerInstanceNotFoundException when there is none
     * @throws ConsumerInstanceAccessDeniedException when it belongs to another principal
     */
    public void delete(String group, String id) {
        InstanceKey key = new InstanceKey(group, id);
        ConsumerInstance[] removed = new ConsumerInstance[1];
        // Under the key's lock, as create's compute, so an instance and its owner go together and
        // the owner checked is the owner of the instance removed.
        instances.computeIfPresent(key, (k, instance) -> {
            checkOwner(k);
            owners.remove(k);
            removed[0] = instance;
            return null;
        });
        if (removed[0] == null) {
            throw new ConsumerInstanceNotFoundException("Consumer instance not found.");
        }
        ConsumerInstance instance = removed[0];
        instance.close();
        log.info("Deleted consumer instance {} of group {}", id, group);
    }

    private void checkOwner(InstanceKey key) {
        String owner = owners.get(key);
        String caller = callers.current().principal();
        if (!caller.equals(owner)) {
            throw new ConsumerInstanceAccessDeniedException("Consumer instance " + key.id() + " of group "
                + key.group() + " belongs to another principal; " + caller + " may not use it.");
        }
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
            if (now - instance.lastUsedMs() >= timeoutMs && expire(entry.getKey(), instance)) {
                log.info("Consumer instance {} of group {} idle for {} ms: closing it", instance.id(),
                    instance.group(), now - instance.lastUsedMs());
                Thread closer = new Thread(instance::close, "rest-consumer-close-" + instance.id());
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    /** Removes the instance and its owner if it is still the one held under {@code key}. */
    private boolean expire(InstanceKey key, ConsumerInstance instance) {
        boolean[] removed = new boolean[1];
        instances.computeIfPresent(key, (k, held) -> {
            if (held != instance) {
                return held;
            }
            owners.remove(k);
            removed[0] = true;
            return null;
        });
        return removed[0];
    }

    @PreDestroy
    void closeAll() {
        List<ConsumerInstance> open = List.copyOf(instances.values());
        instances.clear();
        owners.clear();
        open.parallelStream().forEach(ConsumerInstance::close);
        timer.shutdownNow();
    }

}
