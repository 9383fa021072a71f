package io.tributary.broker.share;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ShareRequestMetadata;
import org.apache.kafka.common.utils.Time;

/**
 * The share sessions of this broker (KIP-932, after KIP-227's fetch sessions): per (group, member),
 * the partitions the member fetches here and the epoch its next request must carry. A ShareFetch at
 * epoch 0 opens (or reopens) a session with the partitions it names; later requests carry the
 * session's epoch and name only partitions to add ({@code topics}) or drop
 * ({@code forgotten_topics_data}); epoch -1 closes it. At most {@code group.share.max.share.sessions}
 * sessions are kept: when full, sessions idle for longer than the idle limit make room (their
 * members' records are released through the eviction callback), else opening one is answered
 * SHARE_SESSION_LIMIT_REACHED. A session also ends when the connection of its latest ShareFetch
 * closes ({@link #removeConnection}).
 *
 * <p>Thread-safe (one monitor; no I/O under it; the eviction callback runs after it is released).
 */
public final class ShareSessionCache {

    /** A member's session: the epoch its next request must carry and its partitions. Guarded by the cache. */
    private static final class ShareSession {
        int epoch = 1;
        long lastUsedMs;
        /** The connection of the session's latest ShareFetch, or null when not known. */
        String connectionId;
        final LinkedHashSet<TopicIdPartition> partitions = new LinkedHashSet<>();
    }

    private final int maxSessions;
    private final long idleEvictionMs;
    private final Time time;
    private final Consumer<ShareSessionKey> onEvicted;
    /** In least recently used order. */
    private final LinkedHashMap<ShareSessionKey, ShareSession> sessions = new LinkedHashMap<>(16, 0.75f, true);

    /**
     * @param maxSessions    {@code group.share.max.share.sessions}
     * @param idleEvictionMs how long a session must have been idle before a new one may evict it, ms
     * @param onEvicted      told of each session evicted, with no lock held
     */
    public ShareSessionCache(int maxSessions, long idleEvictionMs, Time time, Consumer<ShareSessionKey> onEvicted) {
        this.maxSessions = maxSessions;
        this.idleEvictionMs = idleEvictionMs;
        this.time = time;
        this.onEvicted = onEvicted;
    }

    /**
     * Opens, updates or closes the session of a ShareFetch.
     *
     * @param toFetch            partitions the request names
     * @param toForget           partitions the request drops
     * @param hasAcknowledgements whether the request carries acknowledgements (refused when opening a session)
     */
    public ShareSessionContext fetchContext(String groupId, String memberId, int epoch, Collection<TopicIdPartition> toFetch,
                                            Collection<TopicIdPartition> toForget, boolean hasAcknowledgements) {
        return fetchContext(groupId, memberId, epoch, toFetch, toForget, hasAcknowledgements, null);
    }

    /**
     * As {@link #fetchContext(String, String, int, Collection, Collection, boolean)}, over connection
     * {@code connectionId}: the session ends when the connection of its latest ShareFetch closes
     * ({@link #removeConnection}), as Kafka's share sessions do.
     */
    public ShareSessionContext fetchContext(String groupId, String memberId, int epoch, Collection<TopicIdPartition> toFetch,
                                            Collection<TopicIdPartition> toForget, boolean hasAcknowledgements,
                                            String connectionId) {
        ShareSessionKey key = new ShareSessionKey(groupId, memberId);
        List<ShareSessionKey> evicted = new ArrayList<>();
        ShareSessionContext context;
        synchronized (this) {
            context = fetchContextLocked(key, epoch, toFetch, toForget, hasAcknowledgements, evicted);
            ShareSession session = sessions.get(key);
            if (session != null && context.error() == Errors.NONE && connectionId != null) {
                session.connectionId = connectionId;
            }
        }
        evicted.forEach(onEvicted);
        return context;
    }

    private ShareSessionContext fetchContextLocked(ShareSessionKey key, int epoch, Collection<TopicIdPartition> toFetch,
                                                   Collection<TopicIdPartition> toForget, boolean hasAcknowledgements,
                                                   List<ShareSessionKey> evicted) {
        long now = time.milliseconds();
        if (epoch == ShareRequestMetadata.FINAL_EPOCH) {
            if (!toFetch.isEmpty()) {
                return ShareSessionContext.error(Errors.INVALID_REQUEST);
            }
            if (sessions.remove(key) == null) {
                return ShareSessionContext.error(Errors.SHARE_SESSION_NOT_FOUND);
            }
            return new ShareSessionContext(Errors.NONE, List.of(), true);
        }
        if (epoch == ShareRequestMetadata.INITIAL_EPOCH) {
            if (hasAcknowledgements) {
                return ShareSessionContext.error(Errors.INVALID_REQUEST);
            }
            sessions.remove(key);
            if (sessions.size() >= maxSessions && !evictIdle(now, evicted)) {
                return ShareSessionContext.error(Errors.SHARE_SESSION_LIMIT_REACHED);
            }
            ShareSession session = new ShareSession();
            session.lastUsedMs = now;
            session.partitions.addAll(toFetch);
            sessions.put(key, session);
            return new ShareSessionContext(Errors.NONE, List.copyOf(session.partitions), false);
        }
        ShareSession session = sessions.get(key);
        if (session == null) {
            return ShareSessionContext.error(Errors.SHARE_SESSION_NOT_FOUND);
        }
        if (session.epoch != epoch) {
            return ShareSessionContext.error(Errors.INVALID_SHARE_SESSION_EPOCH);
        }
        session.partitions.addAll(toFetch);
        toForget.forEach(session.partitions::remove);
        session.epoch = ShareRequestMetadata.nextEpoch(session.epoch);
        session.lastUsedMs = now;
        return new ShareSessionContext(Errors.NONE, List.copyOf(session.partitions), false);
    }

    /**
     * Checks and advances the session of a ShareAcknowledge: epoch 0 is INVALID_SHARE_SESSION_EPOCH (an
     * acknowledgement cannot open a session), -1 closes the session.
     */
    public synchronized ShareSessionContext acknowledgeContext(String groupId, String memberId, int epoch) {
        ShareSessionKey key = new ShareSessionKey(groupId, memberId);
        if (epoch == ShareRequestMetadata.INITIAL_EPOCH) {
            return ShareSessionContext.error(Errors.INVALID_SHARE_SESSION_EPOCH);
        }
        ShareSession session = sessions.get(key);
        if (session == null) {
            return ShareSessionContext.error(Errors.SHARE_SESSION_NOT_FOUND);
        }
        if (epoch == ShareRequestMetadata.FINAL_EPOCH) {
            sessions.remove(key);
            return new ShareSessionContext(Errors.NONE, List.of(), true);
        }
        if (session.epoch != epoch) {
            return ShareSessionContext.error(Errors.INVALID_SHARE_SESSION_EPOCH);
        }
        session.epoch = ShareRequestMetadata.nextEpoch(session.epoch);
        session.lastUsedMs = time.milliseconds();
        return new ShareSessionContext(Errors.NONE, List.of(), false);
    }

    /** Removes the session of a member (it left its group). */
    public synchronized boolean remove(String groupId, String memberId) {
        return sessions.remove(new ShareSessionKey(groupId, memberId)) != null;
    }

    /**
     * Removes the sessions whose latest ShareFetch came over {@code connectionId}, which closed.
     *
     * @return the sessions removed
     */
    public synchronized List<ShareSessionKey> removeConnection(String connectionId) {
        List<ShareSessionKey> removed = new ArrayList<>();
        sessions.entrySet().removeIf(e -> {
            if (connectionId.equals(e.getValue().connectionId)) {
                removed.add(e.getKey());
                return true;
            }
            return false;
        });
        return removed;
    }

    /** Whether any member of {@code groupId} has a session here. */
    public synchronized boolean hasSessions(String groupId) {
        return sessions.keySet().stream().anyMatch(key -> key.groupId().equals(groupId));
    }

    /** Sessions cached now. */
    public synchronized int size() {
        return sessions.size();
    }

    /** The epoch the session's next request must carry, or -1 without a session (for tests). */
    public synchronized int expectedEpoch(String groupId, String memberId) {
        ShareSession session = sessions.get(new ShareSessionKey(groupId, memberId));
        return session == null ? -1 : session.epoch;
    }

    /** Evicts the least recently used session if it has been idle long enough. */
    private boolean evictIdle(long now, List<ShareSessionKey> evicted) {
        Iterator<Map.Entry<ShareSessionKey, ShareSession>> oldest = sessions.entrySet().iterator();
        if (oldest.hasNext()) {
            Map.Entry<ShareSessionKey, ShareSession> entry = oldest.next();
            if (now - entry.getValue().lastUsedMs >= idleEvictionMs) {
                oldest.remove();
                evicted.add(entry.getKey());
                return true;
            }
        }
        return false;
    }
}
