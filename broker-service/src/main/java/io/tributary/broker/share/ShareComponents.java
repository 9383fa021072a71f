package io.tributary.broker.share;

import java.util.concurrent.CompletableFuture;

/**
 * The broker's share-group record delivery (KIP-932), as the ShareFetch and ShareAcknowledge
 * handlers use it; built by {@link ShareComponentsFactory}.
 *
 * @param partitionManager the share-partitions this broker leads
 * @param sessions         the share sessions of the members fetching here
 * @param persister        where share-partition state is kept
 */
public record ShareComponents(SharePartitionManager partitionManager, ShareSessionCache sessions,
                              ShareStatePersister persister) {

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
}
