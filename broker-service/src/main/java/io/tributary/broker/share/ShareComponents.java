package io.tributary.broker.share;

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
}
