package io.tributary.broker.fetchsession;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.kafka.common.requests.FetchMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's incremental fetch sessions (KIP-227), at most {@code max.incremental.fetch.session.cache.slots}
 * of them, as Kafka's {@code FetchSessionCache} keeps them.
 *
 * <p>When the cache is full a new session may evict, in this order: a session unused for longer
 * than the eviction time ({@code min.incremental.fetch.session.eviction.ms}, 2 minutes in Kafka);
 * else the least valuable evictable session, if it is worth less than the new one. Value orders by
 * (privileged, partitions, id): a follower's session beats a consumer's, a larger session a
 * smaller one. A session younger than the eviction time cannot be evicted by size, and a
 * follower's young session not even by another follower. A fetcher that is refused a session
 * simply keeps sending full requests.
 *
 * <p>Thread-safety: every method takes the cache's monitor; a session's own monitor may be taken
 * inside it, never the other way round.
 */
public final class FetchSessionCache {

    private static final Logger log = LoggerFactory.getLogger(FetchSessionCache.class);

    private record LastUsedKey(long lastUsedMs, int id) implements Comparable<LastUsedKey> {
        @Override
        public int compareTo(LastUsedKey o) {
            int c = Long.compare(lastUsedMs, o.lastUsedMs);
            return c != 0 ? c : Integer.compare(id, o.id);
        }
    }

    private record EvictableKey(boolean privileged, int size, int id) implements Comparable<EvictableKey> {
        @Override
        public int compareTo(EvictableKey o) {
            int c = Boolean.compare(privileged, o.privileged);
            if (c == 0) {
                c = Integer.compare(size, o.size);
            }
            return c != 0 ? c : Integer.compare(id, o.id);
        }
    }

    private final int maxEntries;
    private final long evictionMs;
    private final Map<Integer, FetchSession> sessions = new HashMap<>();
    private final TreeMap<LastUsedKey, FetchSession> lastUsed = new TreeMap<>();
    private final TreeMap<EvictableKey, FetchSession> evictableByAll = new TreeMap<>();
    private final TreeMap<EvictableKey, FetchSession> evictableByPrivileged = new TreeMap<>();
    private long partitionsCached;
    private long evictions;

    /**
     * @param maxEntries most sessions kept ({@code max.incremental.fetch.session.cache.slots}); 0 creates none
     * @param evictionMs how long a session is safe from eviction after it was created, and how long
     *                   it may go unused before any new session evicts it, ms
     */
    public FetchSessionCache(int maxEntries, long evictionMs) {
        if (maxEntries < 0 || evictionMs < 0) {
            throw new IllegalArgumentException("maxEntries and evictionMs must not be negative");
        }
        this.maxEntries = maxEntries;
        this.evictionMs = evictionMs;
    }

    /** The session with this id, if it is cached. */
    public synchronized Optional<FetchSession> get(int sessionId) {
        return Optional.ofNullable(sessions.get(sessionId));
    }

    /** Sessions cached ({@code NumIncrementalFetchSessions}). */
    public synchronized int size() {
        return sessions.size();
    }

    /** Partitions of all cached sessions ({@code NumIncrementalFetchPartitionsCached}). */
    public synchronized long partitionsCached() {
        return partitionsCached;
    }

    /** Sessions evicted to make room for new ones, since start. */
    public synchronized long evictions() {
        return evictions;
    }

    /**
     * Creates a session if there is room or one can be evicted for it.
     *
     * @param size     the partitions it would hold
     * @param populate fills the new session (called only when one is created)
     * @return the new session's id, or {@link FetchMetadata#INVALID_SESSION_ID} when none was created
     */
    synchronized int maybeCreateSession(long now, boolean privileged, int size, boolean usesTopicIds,
                                        java.util.function.Consumer<FetchSession> populate) {
        if (sessions.size() >= maxEntries && !tryEvict(privileged, new EvictableKey(privileged, size, 0), now)) {
            log.debug("No fetch session created for privileged={}, size={}", privileged, size);
            return FetchMetadata.INVALID_SESSION_ID;
        }
        FetchSession session = new FetchSession(newSessionId(), privileged, usesTopicIds, now);
        populate.accept(session);
        sessions.put(session.id(), session);
        touch(session, now);
        log.debug("Created {}", session);
        return session.id();
    }

    private int newSessionId() {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
        } while (sessions.containsKey(id));
        return id;
    }

    private boolean tryEvict(boolean privileged, EvictableKey key, long now) {
        Map.Entry<LastUsedKey, FetchSession> oldest = lastUsed.firstEntry();
        if (oldest == null) {
            return false;
        }
        if (now - oldest.getKey().lastUsedMs() > evictionMs) {
            log.debug("Evicting stale {}", oldest.getValue());
            remove(oldest.getValue());
            evictions++;
            return true;
        }
        Map.Entry<EvictableKey, FetchSession> least = (privileged ? evictableByPrivileged : evictableByAll).firstEntry();
        if (least == null || key.compareTo(least.getKey()) < 0) {
            return false;
        }
        log.debug("Evicting {} for a session of {} partitions (privileged={})", least.getValue(), key.size(), privileged);
        remove(least.getValue());
        evictions++;
        return true;
    }

    /** Removes a session; true if it was cached. */
    public synchronized boolean remove(int sessionId) {
        FetchSession session = sessions.get(sessionId);
        return session != null && remove(session);
    }

    synchronized boolean remove(FetchSession session) {
        lastUsed.remove(new LastUsedKey(session.lastUsedMs(), session.id()));
        EvictableKey key = new EvictableKey(session.privileged(), session.cachedSize, session.id());
        evictableByAll.remove(key);
        evictableByPrivileged.remove(key);
        if (sessions.remove(session.id()) == null) {
            return false;
        }
        partitionsCached -= session.cachedSize;
        session.cachedSize = -1;
        return true;
    }

    /** Records a use of the session at {@code now} and its current size. */
    synchronized void touch(FetchSession session, long now) {
        lastUsed.remove(new LastUsedKey(session.lastUsedMs(), session.id()));
        session.lastUsedMs(now);
        lastUsed.put(new LastUsedKey(now, session.id()), session);
        if (session.cachedSize != -1) {
            EvictableKey old = new EvictableKey(session.privileged(), session.cachedSize, session.id());
            evictableByAll.remove(old);
            evictableByPrivileged.remove(old);
            partitionsCached -= session.cachedSize;
        }
        session.cachedSize = session.size();
        EvictableKey key = new EvictableKey(session.privileged(), session.cachedSize, session.id());
        boolean old = now - session.creationMs() > evictionMs;
        if (!session.privileged() || old) {
            evictableByPrivileged.put(key, session);
        }
        if (old) {
            evictableByAll.put(key, session);
        }
        partitionsCached += session.cachedSize;
    }

    /** Runs {@code action} holding the cache's monitor (to look up and update a session atomically). */
    synchronized <T> T locked(Supplier<T> action) {
        return action.get();
    }
}
