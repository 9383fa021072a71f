package io.tributary.restproxy.share;

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
 * The share consumer instances of this proxy (KIP-932 queues over HTTP), by share group and
 * instance id. Creates their Kafka share consumers with the creating caller's login, closes
 * instances idle longer than {@code rest-proxy.consumer-instance-timeout} (their records go back to
 * the group), and closes all at shutdown. At most {@code rest-proxy.max-consumer-instances} share
 * instances (counted apart from the v2 consumer instances). An instance belongs to the principal
 * that created it: another principal gets a {@link ConsumerInstanceAccessDeniedException}. Knows
 * nothing of HTTP. Thread-safe.
 */
@Service
public class ShareInstanceManager {

    /** Prefix of generated instance ids, {@code rest-share-<replica id>-<uuid>}, so peers can route to the replica. */
    public static final String GENERATED_PREFIX = "rest-share-";

    private record InstanceKey(String group, String id) {
    }

    /** An instance and the principal ({@link KafkaLogin#principal()}) that created it. */
    private record Owned(ShareInstance instance, String owner) {
    }

    private static final Logger log = LoggerFactory.getLogger(ShareInstanceManager.class);

    private final KafkaConsumerFactory consumers;
    private final RestProxyProperties properties;
    private final Clock clock;
    private final Callers callers;
    private final Map<InstanceKey, Owned> instances = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rest-share-timer");
        thread.setDaemon(true);
        return thread;
    });

    public ShareInstanceManager(KafkaConsumerFactory consumers, RestProxyProperties properties, Clock clock,
            MeterRegistry registry, Callers callers) {
        this.consumers = consumers;
        this.properties = properties;
        this.clock = clock;
        this.callers = callers;
        long checkMs = Math.max(100, Math.min(10_000, properties.consumerInstanceTimeout().toMillis() / 4));
        timer.scheduleWithFixedDelay(this::expireIdle, checkMs, checkMs, TimeUnit.MILLISECONDS);
        Gauge.builder("restproxy.share.instances", instances, Map::size)
            .description("Share consumer instances open on this proxy").register(registry);
    }

    /**
     * Creates an instance in share group {@code group}, not yet subscribed.
     *
     * @throws ConsumerInstanceExistsException when the group already has an instance of that name here
     * @throws CapacityExceededException when this proxy holds its most share instances
     */
    public ShareInstance create(String group, ShareInstanceConfig config) {
        String id = config.name() != null ? config.name()
            : GENERATED_PREFIX + properties.replicaId() + "-" + UUID.randomUUID();
        InstanceKey key = new InstanceKey(group, id);
        KafkaLogin login = callers.current();
        if (instances.size() >= properties.maxConsumerInstances() && !instances.containsKey(key)) {
            throw new CapacityExceededException("This proxy holds its most share consumer instances ("
                + properties.maxConsumerInstances() + ", rest-proxy.max-consumer-instances); delete idle ones or retry");
        }
        Owned created = instances.compute(key, (k, existing) -> {
            if (existing != null) {
                throw new ConsumerInstanceExistsException();
            }
            return new Owned(new ShareInstance(group, id, config,
                consumers.shareMember(login, group, "rest-proxy-" + id, config.maxPollRecords()), clock),
                login.principal());
        });
        log.info("Created share consumer instance {} in share group {} for {}", id, group, login);
        return created.instance();
    }

    /**
     * The instance, marked as used.
     *
     * @throws ConsumerInstanceNotFoundException when there is none
     * @throws ConsumerInstanceAccessDeniedException when it belongs to another principal
     */
    public ShareInstance get(String group, String id) {
        Owned owned = instances.get(new InstanceKey(group, id));
        if (owned == null) {
            throw new ConsumerInstanceNotFoundException("Share consumer instance not found.");
        }
        checkOwner(group, id, owned);
        owned.instance().touch();
        return owned.instance();
    }

    /**
     * Closes and forgets the instance; what it held goes back to the group.
     *
     * @throws ConsumerInstanceNotFoundException when there is none
     * @throws ConsumerInstanceAccessDeniedException when it belongs to another principal
     */
    public void delete(String group, String id) {
        Owned[] removed = new Owned[1];
        instances.computeIfPresent(new InstanceKey(group, id), (k, owned) -> {
            checkOwner(group, id, owned);
            removed[0] = owned;
            return null;
        });
        if (removed[0] == null) {
            throw new ConsumerInstanceNotFoundException("Share consumer instance not found.");
        }
        removed[0].instance().close();
        log.info("Deleted share consumer instance {} of share group {}", id, group);
    }

    /** Whether this proxy holds the instance. */
    public boolean contains(String group, String id) {
        return instances.containsKey(new InstanceKey(group, id));
    }

    private void checkOwner(String group, String id, Owned owned) {
        String caller = callers.current().principal();
        if (!caller.equals(owned.owner())) {
            throw new ConsumerInstanceAccessDeniedException("Share consumer instance " + id + " of share group "
                + group + " belongs to another principal; " + caller + " may not use it.");
        }
    }

    /** Closes instances not used for the instance timeout. Runs on the timer. */
    void expireIdle() {
        long now = clock.millis();
        long timeoutMs = properties.consumerInstanceTimeout().toMillis();
        for (Map.Entry<InstanceKey, Owned> entry : List.copyOf(instances.entrySet())) {
            ShareInstance instance = entry.getValue().instance();
            if (now - instance.lastUsedMs() >= timeoutMs && instances.remove(entry.getKey(), entry.getValue())) {
                log.info("Share consumer instance {} of share group {} idle for {} ms: closing it", instance.id(),
                    instance.group(), now - instance.lastUsedMs());
                Thread closer = new Thread(instance::close, "rest-share-close-" + instance.id());
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    @PreDestroy
    void closeAll() {
        List<Owned> open = List.copyOf(instances.values());
        instances.clear();
        open.parallelStream().forEach(owned -> owned.instance().close());
        timer.shutdownNow();
    }
}
