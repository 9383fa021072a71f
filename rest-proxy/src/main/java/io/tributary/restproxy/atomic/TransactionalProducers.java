package io.tributary.restproxy.atomic;

import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transactional producers of atomic produce, one per caller and slot, each with the
 * transactional id {@code <prefix>[<user>-]<slot>}. All replicas of the proxy use the same ids, so
 * a replica that takes a slot fences the producer another replica held for it (Kafka's zombie
 * fencing, KIP-98): at most one transaction per caller and slot is open in the whole cluster, and a
 * producer's {@code initTransactions} returns only once the previous holder's transaction is
 * complete.
 *
 * <p>{@link #with} runs one piece of work with a slot's producer, under the slot's lock (a Kafka
 * producer runs one transaction at a time); work that fails with a fatal producer error has its
 * producer closed, and the next use makes a new one. Producers unused for the idle timeout are
 * closed by a sweeper. Thread-safe.
 */
public final class TransactionalProducers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TransactionalProducers.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /** A caller's slot. */
    private record SlotId(String loginKey, int slot) {
    }

    /** One slot's producer; fields guarded by {@link #lock}. */
    private static final class Slot {
        final ReentrantLock lock = new ReentrantLock();
        Producer<byte[], byte[]> producer;
        long lastUsedMs;
    }

    private final KafkaClientSettings settings;
    private final AtomicProduceProperties properties;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> factory;
    private final Clock clock;
    private final Map<SlotId, Slot> slots = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rest-transactional-producer-sweeper");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param factory makes a producer from its settings (Kafka's {@code KafkaProducer}, or a
     *                {@code MockProducer} in tests)
     */
    public TransactionalProducers(KafkaClientSettings settings, AtomicProduceProperties properties,
            Function<Map<String, Object>, Producer<byte[], byte[]>> factory, Clock clock) {
        this.settings = settings;
        this.properties = properties;
        this.factory = factory;
        this.clock = clock;
        long checkMs = Math.max(1_000, properties.producerIdleTimeout().toMillis() / 4);
        sweeper.scheduleWithFixedDelay(this::closeIdle, checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    /**
     * The transactional id of {@code login}'s producer for {@code slot}: the prefix, the user name
     * (when it has characters other than letters, digits, '.', '_' and '-', those become '_' and a
     * hash of the name follows, so that two users never share ids) and the slot.
     */
    public String transactionalId(KafkaLogin login, int slot) {
        return transactionalIdPrefix(login) + slot;
    }

    /** What every transactional id of {@code login} starts with (an ACL on this PREFIXED pattern covers them). */
    public String transactionalIdPrefix(KafkaLogin login) {
        String name = login.username();
        String user = "";
        if (name != null) {
            String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
            user = (safe.equals(name) ? name : safe + "-" + Integer.toHexString(name.hashCode())) + "-";
        }
        return properties.transactionalIdPrefix() + user;
    }

    /**
     * Runs {@code work} with the slot's producer, made and initialized ({@code initTransactions})
     * if need be, holding the slot. When {@code work} throws, the producer is closed if
     * {@code fatal} says the exception leaves it unusable.
     */
    public <T> T with(KafkaLogin login, int slot, Function<Producer<byte[], byte[]>, T> work,
            java.util.function.Predicate<RuntimeException> fatal) {
        Slot holder = slots.computeIfAbsent(new SlotId(login.key(), slot), id -> new Slot());
        holder.lock.lock();
        try {
            if (closed) {
                throw new org.apache.kafka.common.errors.InterruptException("The REST proxy is shutting down");
            }
            holder.lastUsedMs = clock.millis();
            if (holder.producer == null) {
                Producer<byte[], byte[]> producer = factory.apply(config(login, slot));
                try {
                    producer.initTransactions();
                } catch (RuntimeException e) {
                    close(producer);
                    throw e;
                }
                holder.producer = producer;
            }
            try {
                return work.apply(holder.producer);
            } catch (RuntimeException e) {
                if (fatal.test(e)) {
                    log.debug("Closing the transactional producer {} after {}", transactionalId(login, slot),
                        e.toString());
                    close(holder.producer);
                    holder.producer = null;
                }
                throw e;
            }
        } finally {
            holder.lastUsedMs = clock.millis();
            holder.lock.unlock();
        }
    }

    private Map<String, Object> config(KafkaLogin login, int slot) {
        Map<String, Object> config = settings.producer(login);
        String transactionalId = transactionalId(login, slot);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "rest-proxy-" + transactionalId);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) properties.transactionTimeout().toMillis());
        return config;
    }

    void closeIdle() {
        long now = clock.millis();
        for (Slot slot : slots.values()) {
            if (slot.lock.tryLock()) {
                try {
                    if (slot.producer != null
                            && now - slot.lastUsedMs >= properties.producerIdleTimeout().toMillis()) {
                        close(slot.producer);
                        slot.producer = null;
                    }
                } finally {
                    slot.lock.unlock();
                }
            }
        }
    }

    private static void close(Producer<byte[], byte[]> producer) {
        try {
            producer.close(CLOSE_TIMEOUT);
        } catch (RuntimeException e) {
            log.warn("Closing a transactional producer failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        closed = true;
        sweeper.shutdownNow();
        for (Slot slot : slots.values()) {
            slot.lock.lock();
            try {
                if (slot.producer != null) {
                    close(slot.producer);
                    slot.producer = null;
                }
            } finally {
                slot.lock.unlock();
            }
        }
    }
}
