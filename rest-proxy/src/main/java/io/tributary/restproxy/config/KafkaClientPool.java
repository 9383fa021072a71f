package io.tributary.restproxy.config;

import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer and Admin client of each {@link KafkaLogin}, created on first use and closed when
 * unused for the idle timeout ({@code rest-proxy.authentication.client-idle-timeout}), when the
 * login has {@link #KafkaClientPool(KafkaClientSettings, Duration, Clock, Predicate) expired} (a
 * bearer caller whose latest token is past its expiry: its connections were authenticated with a
 * token no longer valid, and it could open no new one), as soon as their last call returns once
 * {@link #retire retired} after a refusal, and all at {@link #close()}. The
 * {@link KafkaLogin#SERVICE} clients (authentication off) are never closed as idle.
 *
 * <p>Invariant: clients are closed only while no call is inside them ({@link #with} counts the
 * calls in progress); a client already removed from the pool but still in use is closed by the
 * next sweep after its last call returns. Thread-safe.
 */
public final class KafkaClientPool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaClientPool.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    /** The clients of one login. Guarded by its own monitor. */
    static final class Clients {
        private final KafkaLogin login;
        private Producer<byte[], byte[]> producer;
        private Admin admin;
        private int inUse;
        private long lastUsedMs;
        private boolean retired;
        private boolean closed;

        Clients(KafkaLogin login, long nowMs) {
            this.login = login;
            this.lastUsedMs = nowMs;
        }
    }

    private final KafkaClientSettings settings;
    private final Function<KafkaLogin, Producer<byte[], byte[]>> producers;
    private final long idleTimeoutMs;
    private final Clock clock;
    private final Predicate<KafkaLogin> expired;
    private final Map<KafkaLogin, Clients> clients = new ConcurrentHashMap<>();
    /** Removed from {@link #clients} while still in use; closed when their last call returns. */
    private final List<Clients> draining = new ArrayList<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "rest-kafka-client-sweeper");
        thread.setDaemon(true);
        return thread;
    });

    /** A pool whose logins never expire (no bearer callers). */
    public KafkaClientPool(KafkaClientSettings settings, Duration idleTimeout, Clock clock) {
        this(settings, idleTimeout, clock, login -> false);
    }

    /**
     * @param expired whether a login may no longer be served (e.g. {@code BearerTokens::expired}); asked by
     *                the sweeper, at most every second, so an expired login's clients are closed within
     *                about a second of the expiry, once no call is inside them
     */
    public KafkaClientPool(KafkaClientSettings settings, Duration idleTimeout, Clock clock,
            Predicate<KafkaLogin> expired) {
        this(settings, login -> new KafkaProducer<>(settings.producer(login), new ByteArraySerializer(),
            new ByteArraySerializer()), idleTimeout, clock, expired);
    }

    /** A pool whose producers come from {@code producers} (tests give Kafka's {@code MockProducer}). */
    KafkaClientPool(KafkaClientSettings settings, Function<KafkaLogin, Producer<byte[], byte[]>> producers,
            Duration idleTimeout, Clock clock, Predicate<KafkaLogin> expired) {
        this.settings = settings;
        this.producers = producers;
        this.idleTimeoutMs = idleTimeout.toMillis();
        this.clock = clock;
        this.expired = expired;
        long checkMs = Math.max(100, Math.min(1_000, idleTimeoutMs / 4));
        sweeper.scheduleWithFixedDelay(this::closeIdle, checkMs, checkMs, TimeUnit.MILLISECONDS);
    }

    /** Calls {@code call} with the login's producer, created if need be; it is not closed meanwhile. */
    public <T> T withProducer(KafkaLogin login, Function<Producer<byte[], byte[]>, T> call) {
        return with(login, clients -> {
            synchronized (clients) {
                if (clients.producer == null) {
                    clients.producer = producers.apply(login);
                }
                return clients.producer;
            }
        }, call);
    }

    /** Calls {@code call} with the login's Admin client, created if need be; it is not closed meanwhile. */
    public <T> T withAdmin(KafkaLogin login, Function<Admin, T> call) {
        return with(login, clients -> {
            synchronized (clients) {
                if (clients.admin == null) {
                    clients.admin = Admin.create(settings.admin(login));
                }
                return clients.admin;
            }
        }, call);
    }

    /**
     * Takes the login's clients out of the pool (the next call creates new ones) and closes them
     * once unused: for a producer in a fatal state, e.g. refused a producer id.
     */
    public void retire(KafkaLogin login) {
        Clients removed = clients.remove(login);
        if (removed != null) {
            synchronized (removed) {
                removed.retired = true;
            }
            synchronized (draining) {
                draining.add(removed);
            }
            log.debug("Kafka clients of {} retired; new ones will be created on next use", login);
            sweepSoon();
        }
    }

    /** Runs a sweep now on the sweeper thread (after {@link #close()}, nothing). */
    private void sweepSoon() {
        try {
            sweeper.execute(this::closeIdle);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closed: close() has closed everything.
        }
    }

    /** Logins with clients open now. */
    public int size() {
        return clients.size();
    }

    /** The logins with clients open now: a snapshot. */
    public Set<KafkaLogin> logins() {
        return Set.copyOf(clients.keySet());
    }

    private <C, T> T with(KafkaLogin login, Function<Clients, C> client, Function<C, T> call) {
        Clients entry;
        while (true) {
            entry = clients.computeIfAbsent(login, l -> new Clients(l, clock.millis()));
            synchronized (entry) {
                if (!entry.retired && !entry.closed) {
                    entry.inUse++;
                    entry.lastUsedMs = clock.millis();
                    break;
                }
            }
            clients.remove(login, entry);
        }
        try {
            return call.apply(client.apply(entry));
        } finally {
            boolean closeNow;
            synchronized (entry) {
                entry.inUse--;
                entry.lastUsedMs = clock.millis();
                closeNow = entry.retired && entry.inUse == 0;
            }
            if (closeNow) {
                sweepSoon();
            }
        }
    }

    /**
     * Closes the clients unused for the idle timeout or whose login expired, and retired ones no
     * longer in use. Runs on the sweeper.
     */
    void closeIdle() {
        long now = clock.millis();
        List<Clients> toClose = new ArrayList<>();
        for (Clients entry : List.copyOf(clients.values())) {
            if (entry.login == KafkaLogin.SERVICE) {
                continue;
            }
            synchronized (entry) {
                if (entry.inUse == 0 && (now - entry.lastUsedMs >= idleTimeoutMs || expired.test(entry.login))
                        && clients.remove(entry.login, entry)) {
                    entry.closed = true;
                    toClose.add(entry);
                }
            }
        }
        synchronized (draining) {
            draining.removeIf(entry -> {
                synchronized (entry) {
                    if (entry.inUse == 0) {
                        entry.closed = true;
                        toClose.add(entry);
                        return true;
                    }
                    return false;
                }
            });
        }
        for (Clients entry : toClose) {
            log.debug("Closing the Kafka clients of {}", entry.login);
            closeClients(entry);
        }
    }

    private static void closeClients(Clients entry) {
        Producer<byte[], byte[]> producer;
        Admin admin;
        synchronized (entry) {
            producer = entry.producer;
            admin = entry.admin;
        }
        try {
            if (producer != null) {
                producer.close(CLOSE_TIMEOUT);
            }
        } catch (RuntimeException e) {
            log.warn("Closing the producer of {} failed: {}", entry.login, e.toString());
        }
        try {
            if (admin != null) {
                admin.close(CLOSE_TIMEOUT);
            }
        } catch (RuntimeException e) {
            log.warn("Closing the Admin client of {} failed: {}", entry.login, e.toString());
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        List<Clients> all = new ArrayList<>(clients.values());
        clients.clear();
        synchronized (draining) {
            all.addAll(draining);
            draining.clear();
        }
        all.parallelStream().forEach(entry -> {
            synchronized (entry) {
                entry.closed = true;
            }
            closeClients(entry);
        });
    }
}
