package io.tributary.broker.share;

/**
 * A range of records with one delivery state, as the share coordinator persists it in
 * {@code __share_group_state} (Kafka's {@code PersisterStateBatch}).
 *
 * @param firstOffset   first offset, inclusive
 * @param lastOffset    last offset, inclusive
 * @param deliveryState a {@link RecordState} id
 * @param deliveryCount deliveries so far
 */
public record PersistedStateBatch(long firstOffset, long lastOffset, byte deliveryState, short deliveryCount) {
}
