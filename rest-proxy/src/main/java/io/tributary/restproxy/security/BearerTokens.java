package io.tributary.restproxy.security;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest bearer token of each caller, by subject: what the caller's Kafka clients log in with
 * (OAUTHBEARER) on the proxy's behalf. Every request that presents a valid token
 * {@link #offer offers} it; of the tokens a subject presented, the one that expires last is kept,
 * so a caller that alternates between an older and a fresher token never moves its clients back
 * to the one about to expire.
 *
 * <p>Kafka creates its SASL callback handlers itself, by class name, so they cannot be given this
 * object: each store registers itself under a random {@link #id()}, which the caller's JAAS
 * settings carry ({@link KafkaLogin#saslSettings}), and {@link CallerTokenCallbackHandler} finds it
 * with {@link #registered}. {@link #close()} unregisters it; a client still asking then finds no
 * token and fails to log in.
 *
 * <p>Tokens past their expiry are never handed out ({@link #current} is empty) and are dropped
 * at most a minute later. Time comes from the injected clock. Thread-safe.
 */
public final class BearerTokens implements AutoCloseable {

    private static final Map<String, BearerTokens> REGISTERED = new ConcurrentHashMap<>();
    private static final long PRUNE_INTERVAL_MS = 60_000;

    private final String id = UUID.randomUUID().toString();
    private final Clock clock;
    private final Map<String, CallerToken> latest = new ConcurrentHashMap<>();
    private volatile long nextPruneMs;

    /** An empty store, registered until {@link #close()}; {@code clock} says when tokens expire. */
    public BearerTokens(Clock clock) {
        this.clock = clock;
        this.nextPruneMs = clock.millis() + PRUNE_INTERVAL_MS;
        REGISTERED.put(id, this);
    }

    /** The store registered under {@code id}, if it is open. */
    public static Optional<BearerTokens> registered(String id) {
        return Optional.ofNullable(REGISTERED.get(id));
    }

    /** What the JAAS settings of this store's callers name it by; not a secret. */
    public String id() {
        return id;
    }

    /**
     * Takes a token the proxy has just accepted from its subject, keeping it if it expires no
     * earlier than the one held, and answers the subject's login.
     */
    public KafkaLogin offer(CallerToken token) {
        latest.merge(token.subject(), token, (held, offered) ->
            offered.expiresAt().isBefore(held.expiresAt()) ? held : offered);
        long now = clock.millis();
        if (now >= nextPruneMs) {
            nextPruneMs = now + PRUNE_INTERVAL_MS;
            latest.values().removeIf(t -> t.expiredAt(now));
        }
        return KafkaLogin.bearer(token.subject(), id);
    }

    /** The subject's latest token, unless it has expired (or the subject never presented one). */
    public Optional<CallerToken> current(String subject) {
        CallerToken token = latest.get(subject);
        return token == null || token.expiredAt(clock.millis()) ? Optional.empty() : Optional.of(token);
    }

    /**
     * Whether {@code login} is a bearer login of this store with no unexpired token left: its
     * clients could open no new connection, and are closed ({@link io.tributary.restproxy.config.KafkaClientPool}).
     * False for other logins.
     */
    public boolean expired(KafkaLogin login) {
        return login.isBearer() && id.equals(login.tokenStore()) && current(login.username()).isEmpty();
    }

    /** Unregisters the store and forgets its tokens. */
    @Override
    public void close() {
        REGISTERED.remove(id, this);
        latest.clear();
    }
}
