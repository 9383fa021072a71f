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
 * @param onClose          stops the coordinator and the persister (shutdown)
 */
public record ShareComponents(SharePartitionManager partitionManager, ShareSessionCache sessions,
                              ShareStatePersister persister, ShareCoordinator coordinator, ShareStateTopic stateTopic,
                              PartitionLatestOffsets latestOffsets, Runnable onClose) implements AutoCloseable {

    /** Share-partitions over {@code persister} alone, without a share coordinator (unit tests). */
    public ShareComponents(SharePartitionManager partitionManager, ShareSessionCache sessions,
                           ShareStatePersister persister) {
        this(partitionManager, sessions, persister, null, null, null, () -> { });
    }

    /** The group coordinator's way to the share coordinator and to partitions' latest offsets. */
    public ShareGroupStates groupStates() {
        return new ShareGroupStates(persister, partitionManager, latestOffsets);
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
        return partitionManager.releaseSession(groupId, memberId);
    }

    /** Stops the share coordinator's and the persister's threads. */
    @Override
    public void close() {
        onClose.run();
    }
}
