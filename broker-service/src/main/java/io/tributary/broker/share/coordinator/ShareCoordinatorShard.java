package io.tributary.broker.share.coordinator;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.share.PersisterStateBatchCombiner;
import org.apache.kafka.coordinator.share.ShareCoordinatorRecordHelpers;
import org.apache.kafka.coordinator.share.ShareCoordinatorRecordSerde;
import org.apache.kafka.coordinator.share.ShareGroupOffset;
import org.apache.kafka.coordinator.share.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.apache.kafka.coordinator.share.generated.ShareUpdateKey;
import org.apache.kafka.coordinator.share.generated.ShareUpdateValue;
import org.apache.kafka.server.share.persister.PersisterStateBatch;

/**
 * The share-partition states of one {@code __share_group_state} partition, as Kafka's
 * {@code ShareCoordinatorShard} keeps them (KIP-932). The topic holds Kafka's records:
 * {@code ShareSnapshotKey/Value} (record type 0), a whole state, and {@code ShareUpdateKey/Value}
 * (type 1), a change merged into the state before it (Kafka's {@code PersisterStateBatchCombiner}:
 * the update's batches replace the offsets they cover, batches before the start offset are dropped);
 * a null value (tombstone) deletes the share-partition.
 *
 * <p>Operations only <em>plan</em> a record ({@link Planned}): the state changes when the caller
 * {@link #replay replays} the record once it is committed in the log, as when loading. A write is an
 * update record, except every {@code snapshotUpdatesPerSnapshot + 1}-th write of a key, which is a
 * snapshot of the merged state (so replay never chains more than that many updates).
 *
 * <p>Fencing, as Kafka's: a write or read carrying a leader epoch below the stored one fails with
 * FENCED_LEADER_EPOCH; a write or an initialize with a state epoch below the stored one with
 * FENCED_STATE_EPOCH (an initialize in the stored state epoch starts it again, as Kafka 4.4's does).
 *
 * <p>Thread-safety: not thread-safe; {@link ShareCoordinator} confines each shard to its event thread.
 */
public final class ShareCoordinatorShard {

    private static final ShareCoordinatorRecordSerde SERDE = new ShareCoordinatorRecordSerde();

    /**
     * A record to append, or the error that refused the operation.
     *
     * @param error  NONE when {@code record} is to be appended
     * @param record the record; null on error, or when there is nothing to write
     */
    public record Planned(Errors error, CoordinatorRecord record) {

        static Planned refused(Errors error) {
            return new Planned(error, null);
        }

        static Planned of(CoordinatorRecord record) {
            return new Planned(Errors.NONE, record);
        }
    }

    private final int snapshotUpdatesPerSnapshot;
    private final Map<ShareStateKey, ShareGroupOffset> states = new HashMap<>();
    /** Update records replayed per key since its last snapshot. */
    private final Map<ShareStateKey, Integer> updatesSinceSnapshot = new HashMap<>();

    /** @param snapshotUpdatesPerSnapshot {@code share.coordinator.snapshot.update.records.per.snapshot} */
    public ShareCoordinatorShard(int snapshotUpdatesPerSnapshot) {
        this.snapshotUpdatesPerSnapshot = snapshotUpdatesPerSnapshot;
    }

    /** The stored state of {@code key}, if any. */
    public Optional<ShareGroupOffset> state(ShareStateKey key) {
        return Optional.ofNullable(states.get(key));
    }

    /** How many share-partitions this shard holds. */
    public int size() {
        return states.size();
    }

    /**
     * Plans a WriteShareGroupState of one share-partition: INVALID_REQUEST when it was never
     * initialized (as Kafka 4.4's share coordinator answers), FENCED_LEADER_EPOCH or FENCED_STATE_EPOCH
     * below the stored epochs. As Kafka 4.4's does, the record carries the resulting start offset (the
     * higher of the given and the stored one; -1 keeps the stored one) and delivery complete count
     * (KIP-1226): the given count when the start offset moves forward, the higher of both at the same
     * start offset (writes of one SPSO only ever complete more offsets), the stored one for an older start.
     *
     * @param deliveryCompleteCount offsets at or after {@code startOffset} whose delivery is complete; -1 when unknown
     * @param nowMs                 the write timestamp, ms
     */
    public Planned write(ShareStateKey key, int stateEpoch, int leaderEpoch, long startOffset, int deliveryCompleteCount,
                         List<PersisterStateBatch> batches, long nowMs) {
        ShareGroupOffset current = states.get(key);
        if (current == null) {
            return Planned.refused(Errors.INVALID_REQUEST); // Kafka 4.4: no write before InitializeShareGroupState
        }
        if (leaderEpoch != -1 && leaderEpoch < current.leaderEpoch()) {
            return Planned.refused(Errors.FENCED_LEADER_EPOCH);
        }
        if (stateEpoch != -1 && stateEpoch < current.stateEpoch()) {
            return Planned.refused(Errors.FENCED_STATE_EPOCH);
        }
        long newStartOffset = Math.max(startOffset, current.startOffset());
        int newDeliveryCompleteCount = startOffset == current.startOffset()
            ? Math.max(deliveryCompleteCount, current.deliveryCompleteCount())
            : startOffset < current.startOffset() ? current.deliveryCompleteCount() : deliveryCompleteCount;
        ShareGroupOffset change = new ShareGroupOffset.Builder()
            .setSnapshotEpoch(current.snapshotEpoch())
            .setStateEpoch(stateEpoch == -1 ? current.stateEpoch() : stateEpoch)
            .setLeaderEpoch(leaderEpoch).setStartOffset(newStartOffset).setDeliveryCompleteCount(newDeliveryCompleteCount)
            .setStateBatches(batches).setCreateTimestamp(current.createTimestamp())
            .setWriteTimestamp(nowMs).build();
        if (updatesSinceSnapshot.getOrDefault(key, 0) >= snapshotUpdatesPerSnapshot) {
            ShareGroupOffset merged = merge(current, change);
            return Planned.of(snapshotRecord(key, new ShareGroupOffset.Builder()
                .setSnapshotEpoch(current.snapshotEpoch() + 1).setStateEpoch(merged.stateEpoch())
                .setLeaderEpoch(merged.leaderEpoch()).setStartOffset(merged.startOffset())
                .setDeliveryCompleteCount(merged.deliveryCompleteCount()).setStateBatches(merged.stateBatches())
                .setCreateTimestamp(current.createTimestamp()).setWriteTimestamp(nowMs).build()));
        }
        return Planned.of(ShareCoordinatorRecordHelpers.newShareUpdateRecord(key.groupId(), key.topicId(),
            key.partition(), change));
    }

    /**
     * Plans an InitializeShareGroupState: a snapshot with {@code stateEpoch}, {@code startOffset}, no
     * batches and a delivery complete count of 0 (-1 when {@code startOffset} is -1, as Kafka 4.4);
     * FENCED_STATE_EPOCH when {@code stateEpoch} is below the stored one.
     */
    public Planned initialize(ShareStateKey key, int stateEpoch, long startOffset, long nowMs) {
        ShareGroupOffset current = states.get(key);
        if (current != null && stateEpoch < current.stateEpoch()) {
            return Planned.refused(Errors.FENCED_STATE_EPOCH);
        }
        return Planned.of(snapshotRecord(key, new ShareGroupOffset.Builder()
            .setSnapshotEpoch(current == null ? 0 : current.snapshotEpoch() + 1).setStateEpoch(stateEpoch)
            .setLeaderEpoch(current == null ? -1 : current.leaderEpoch()).setStartOffset(startOffset)
            .setDeliveryCompleteCount(startOffset == -1 ? -1 : 0).setStateBatches(List.of()).setCreateTimestamp(nowMs)
            .setWriteTimestamp(nowMs).build()));
    }

    /**
     * Plans a ReadShareGroupState by a partition leader in {@code leaderEpoch} (-1: none given): FENCED_LEADER_EPOCH
     * below the stored epoch; above it an update record that stores the new epoch, which fences the
     * older leader's writes; else nothing to write.
     */
    public Planned read(ShareStateKey key, int leaderEpoch, long nowMs) {
        ShareGroupOffset current = states.get(key);
        if (current == null || leaderEpoch == -1 || leaderEpoch == current.leaderEpoch()) {
            return Planned.of(null);
        }
        if (leaderEpoch < current.leaderEpoch()) {
            return Planned.refused(Errors.FENCED_LEADER_EPOCH);
        }
        return write(key, current.stateEpoch(), leaderEpoch, current.startOffset(), current.deliveryCompleteCount(),
            List.of(), nowMs);
    }

    /** Plans a DeleteShareGroupState: a tombstone, or nothing when there is no state. */
    public Planned delete(ShareStateKey key) {
        return Planned.of(states.containsKey(key) ? ShareCoordinatorRecordHelpers.newShareStateTombstoneRecord(
            key.groupId(), key.topicId(), key.partition()) : null);
    }

    /** Applies a committed record, Kafka's way (snapshot replaces, update merges, tombstone deletes). */
    public void replay(CoordinatorRecord record) {
        ApiMessage key = record.key();
        ApiMessage value = record.value() == null ? null : record.value().message();
        if (key instanceof ShareSnapshotKey k) {
            ShareStateKey stateKey = new ShareStateKey(k.groupId(), k.topicId(), k.partition());
            if (value == null) {
                states.remove(stateKey);
                updatesSinceSnapshot.remove(stateKey);
            } else {
                states.put(stateKey, ShareGroupOffset.fromRecord((ShareSnapshotValue) value));
                updatesSinceSnapshot.put(stateKey, 0);
            }
        } else if (key instanceof ShareUpdateKey k) {
            ShareStateKey stateKey = new ShareStateKey(k.groupId(), k.topicId(), k.partition());
            if (value == null) {
                states.remove(stateKey);
                updatesSinceSnapshot.remove(stateKey);
                return;
            }
            ShareGroupOffset current = states.get(stateKey);
            if (current == null) {
                return; // an update of a deleted share-partition
            }
            states.put(stateKey, merge(current, ShareGroupOffset.fromRecord((ShareUpdateValue) value)));
            updatesSinceSnapshot.merge(stateKey, 1, Integer::sum);
        }
    }

    /** Replays one record as stored in the log; false for a record type this broker does not know. */
    public boolean replay(ByteBuffer key, ByteBuffer value) {
        CoordinatorRecord record;
        try {
            record = SERDE.deserialize(key, value);
        } catch (org.apache.kafka.coordinator.common.runtime.Deserializer.UnknownRecordTypeException e) {
            return false;
        }
        replay(record);
        return true;
    }

    /** The record's key as stored in {@code __share_group_state} (Kafka's layout: type, then key). */
    public static byte[] keyBytes(CoordinatorRecord record) {
        return SERDE.serializeKey(record);
    }

    /** The record's value as stored (version, then value), or null for a tombstone. */
    public static byte[] valueBytes(CoordinatorRecord record) {
        return SERDE.serializeValue(record);
    }

    /**
     * The stored state after {@code change}: its epochs and start offset when given, its delivery complete
     * count (as Kafka 4.4 replays it: an update written without one, -1, leaves the count unknown), batches
     * combined.
     */
    private static ShareGroupOffset merge(ShareGroupOffset current, ShareGroupOffset change) {
        long startOffset = change.startOffset() == -1 ? current.startOffset() : change.startOffset();
        return new ShareGroupOffset.Builder()
            .setSnapshotEpoch(current.snapshotEpoch())
            .setStateEpoch(current.stateEpoch())
            .setLeaderEpoch(change.leaderEpoch() == -1 ? current.leaderEpoch() : change.leaderEpoch())
            .setStartOffset(startOffset)
            .setDeliveryCompleteCount(change.deliveryCompleteCount())
            .setStateBatches(new PersisterStateBatchCombiner(current.stateBatches(), change.stateBatches(), startOffset)
                .combineStateBatches())
            .setCreateTimestamp(current.createTimestamp())
            .setWriteTimestamp(change.writeTimestamp())
            .build();
    }

    private static CoordinatorRecord snapshotRecord(ShareStateKey key, ShareGroupOffset state) {
        return ShareCoordinatorRecordHelpers.newShareSnapshotRecord(key.groupId(), key.topicId(), key.partition(), state);
    }

    /** Whether {@code record} is a snapshot (record type 0). */
    static boolean isSnapshot(CoordinatorRecord record) {
        return record.key().apiKey() == CoordinatorRecordType.SHARE_SNAPSHOT.id();
    }
}
