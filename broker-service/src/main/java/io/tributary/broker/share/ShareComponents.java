package io.tributary.broker.share;

import io.tributary.broker.share.coordinator.ShareCoordinator;
import io.tributary.broker.share.coordinator.ShareStateTopic;
import java.util.concurrent.CompletableFuture;

/**
 * The broker's share groups (KIP-932) as the ShareFetch, ShareAcknowledge and share-group state
 * handlers use them; built by {@link ShareComponentsFactory}.
 *
 * @param partitionManager the share-partitions this broker leads
 * @param sessions         the share sessions of the members fetching here
 * @param persister        where share-partition state is kept
 * @param coordinator      the share coordinator of the {@code __share_group_state} partitions this
 *                         broker leads (Read/Write/Initialize/DeleteShareGroupState, ...)
 * @param stateTopic       creates {@code __share_group_state} on first use (FindCoordinator, key type SHARE)
 * @param latestOffsets    partitions' latest offsets from their leaders, for share-partition lag (KIP-1226);
 *                         null without a cluster (unit tests)
 * @param background       runs what a network thread must not (releases after a connection closed)
 * @param onClose          stops the coordinator and the persister (shutdown)
 */
public record ShareComponents(SharePartitionManager partitionManager, ShareSessionCache sessions,
                              ShareStatePersister persister, ShareCoordinator coordinator, ShareStateTopic stateTopic,
                              PartitionLatestOffsets latestOffsets, java.util.concurrent.Executor background,
                              Runnable onClose) implements AutoCloseable {

    /** Share-partitions over {@code persister} alone, without a share coordinator (unit tests; runs in place). */
    public ShareComponents(SharePartitionManager partitionManager, ShareSessionCache sessions,
                           ShareStatePersister persister) {
        this(partitionManager, sessions, persister, null, null, null, Runnable::run, () -> { });
    }

    /** The group coordinator's way to the share coordinator and to partitions' latest offsets. */
    public ShareGroupStates groupStates() {
        return new ShareGroupStates(persister, partitionManager, latestOffsets);
    }

    /**
     * A client connection closed (Kafka's share session cache's disconnect listener): the sessions whose
     * latest ShareFetch came over it end, as with {@link #sessionClosed}, on the {@code background}
     * executor. Never blocks: called on a network thread.
     */
    public void connectionClosed(String connectionId) {
        for (ShareSessionKey key : sessions.removeConnection(connectionId)) {
            background.execute(() -> sessionClosed(key.groupId(), key.memberId()));
        }
    }

    /**
     * A member left its share group (or was fenced): its share session on this broker is removed and
     * the records it holds here are released for other members. Fits the group coordinator's member
     * listener ({@code (groupId, memberId) -> void}).
     *
     * @return completes once the released state is written
     */
    public CompletableFuture<Void> memberLeft(String groupId, String memberId) {
        sessions.remove(groupId, memberId);
        return sessionClosed(groupId, memberId);
    }

    /**
     * A member's share session on this broker closed (final epoch, member left, session evicted; the
     * session is already gone from {@link #sessions}): the records it holds here are released and,
     * once written, if no member of the group has a session here any more, the group's share-partitions
     * are dropped ({@link SharePartitionManager#onGroupEmpty}), as Kafka 4.4's share session cache
     * tells its group listener.
     *
     * @return completes once the released state is written and the group checked
     */
    public CompletableFuture<Void> sessionClosed(String groupId, String memberId) {
        return partitionManager.releaseSession(groupId, memberId).whenComplete((v, e) -> {
            if (!sessions.hasSessions(groupId)) {
                partitionManager.onGroupEmpty(groupId);
            }
        });
    }

    /** Stops the share coordinator's and the persister's threads. */
    @Override
    public void close() {
        onClose.run();
    }
}
