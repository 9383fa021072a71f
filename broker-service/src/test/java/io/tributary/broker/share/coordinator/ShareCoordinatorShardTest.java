package io.tributary.broker.share.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.share.ShareGroupOffset;
import org.apache.kafka.server.share.persister.PersisterStateBatch;
import org.junit.jupiter.api.Test;

class ShareCoordinatorShardTest {

    private static final ShareStateKey KEY = new ShareStateKey("g", Uuid.randomUuid(), 0);
    private static final byte AVAILABLE = 0;
    private static final byte ACKNOWLEDGED = 2;
    private static final byte ARCHIVED = 4;

    private final ShareCoordinatorShard shard = new ShareCoordinatorShard(2);
    /** Every record committed, as the log holds them. */
    private final List<byte[][]> log = new ArrayList<>();

    private Errors commit(ShareCoordinatorShard.Planned planned) {
        if (planned.error() == Errors.NONE && planned.record() != null) {
            log.add(new byte[][] {ShareCoordinatorShard.keyBytes(planned.record()),
                ShareCoordinatorShard.valueBytes(planned.record())});
            shard.replay(planned.record());
        }
        return planned.error();
    }

    private static PersisterStateBatch batch(long first, long last, byte state, int count) {
        return new PersisterStateBatch(first, last, state, (short) count);
    }

    @Test
    void initializeThenWritesMergeIntoTheState() {
        assertThat(commit(shard.initialize(KEY, 1, 10, 0))).isEqualTo(Errors.NONE);
        assertThat(commit(shard.write(KEY, 1, 3, 10, -1, List.of(batch(10, 19, ACKNOWLEDGED, 1)), 1)))
            .isEqualTo(Errors.NONE);
        assertThat(commit(shard.write(KEY, 1, 3, 10, -1, List.of(batch(15, 16, AVAILABLE, 2)), 2)))
            .isEqualTo(Errors.NONE);

        ShareGroupOffset state = shard.state(KEY).orElseThrow();
        assertThat(state.stateEpoch()).isEqualTo(1);
        assertThat(state.leaderEpoch()).isEqualTo(3);
        assertThat(state.startOffset()).isEqualTo(10);
        assertThat(state.stateBatches()).containsExactly(batch(10, 14, ACKNOWLEDGED, 1), batch(15, 16, AVAILABLE, 2),
            batch(17, 19, ACKNOWLEDGED, 1));
    }

    @Test
    void aStartOffsetPastBatchesDropsThem() {
        commit(shard.initialize(KEY, 1, 0, 0));
        commit(shard.write(KEY, 1, 0, 0, -1, List.of(batch(0, 4, ACKNOWLEDGED, 1), batch(5, 9, AVAILABLE, 1)), 1));
        commit(shard.write(KEY, 1, 0, 5, -1, List.of(), 2));

        assertThat(shard.state(KEY).orElseThrow().startOffset()).isEqualTo(5);
        assertThat(shard.state(KEY).orElseThrow().stateBatches()).containsExactly(batch(5, 9, AVAILABLE, 1));
    }

    @Test
    void everyThirdWriteWithTwoUpdatesPerSnapshotIsASnapshot() {
        commit(shard.initialize(KEY, 1, 0, 0));
        List<Boolean> snapshots = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ShareCoordinatorShard.Planned planned = shard.write(KEY, 1, 0, i, -1, List.of(batch(i, i, ARCHIVED, 1)), i);
            snapshots.add(ShareCoordinatorShard.isSnapshot(planned.record()));
            commit(planned);
        }
        assertThat(snapshots).containsExactly(false, false, true, false, false, true);
        assertThat(shard.state(KEY).orElseThrow().snapshotEpoch()).isEqualTo(2);
    }

    @Test
    void replayingTheLogGivesTheSameState() {
        commit(shard.initialize(KEY, 1, 0, 0));
        for (int i = 0; i < 7; i++) {
            commit(shard.write(KEY, 1, i / 3, i, -1, List.of(batch(i, i + 2, i % 2 == 0 ? ACKNOWLEDGED : AVAILABLE, i)), i));
        }
        ShareStateKey other = new ShareStateKey("h", Uuid.randomUuid(), 3);
        commit(shard.initialize(other, 0, 42, 0));
        commit(shard.delete(other));

        ShareCoordinatorShard replayed = new ShareCoordinatorShard(2);
        for (byte[][] record : log) {
            assertThat(replayed.replay(ByteBuffer.wrap(record[0]), record[1] == null ? null : ByteBuffer.wrap(record[1])))
                .isTrue();
        }
        assertThat(replayed.state(KEY)).isEqualTo(shard.state(KEY));
        assertThat(replayed.state(other)).isEmpty();
        assertThat(replayed.size()).isEqualTo(1);
    }

    @Test
    void aSharePartitionNeverInitializedCannotBeWritten() {
        assertThat(shard.write(KEY, 0, 0, 0, -1, List.of(), 0).error()).isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void olderLeaderAndStateEpochsAreFenced() {
        commit(shard.initialize(KEY, 2, 0, 0));
        commit(shard.write(KEY, 2, 5, 0, -1, List.of(), 1));

        assertThat(shard.write(KEY, 2, 4, 0, -1, List.of(), 2).error()).isEqualTo(Errors.FENCED_LEADER_EPOCH);
        assertThat(shard.write(KEY, 1, 5, 0, -1, List.of(), 2).error()).isEqualTo(Errors.FENCED_STATE_EPOCH);
        assertThat(shard.initialize(KEY, 1, 0, 2).error()).isEqualTo(Errors.FENCED_STATE_EPOCH);
        assertThat(shard.initialize(KEY, 2, 0, 2).error()).as("the same state epoch starts again").isEqualTo(Errors.NONE);
        assertThat(shard.read(KEY, 4, 2).error()).isEqualTo(Errors.FENCED_LEADER_EPOCH);
        assertThat(shard.read(KEY, 5, 2).record()).isNull();
    }

    @Test
    void aReadInANewerLeaderEpochStoresItAndFencesTheOlderLeader() {
        commit(shard.initialize(KEY, 0, 0, 0));
        commit(shard.write(KEY, 0, 1, 0, -1, List.of(batch(0, 3, ACKNOWLEDGED, 1)), 1));

        assertThat(commit(shard.read(KEY, 2, 2))).isEqualTo(Errors.NONE);

        assertThat(shard.state(KEY).orElseThrow().leaderEpoch()).isEqualTo(2);
        assertThat(shard.state(KEY).orElseThrow().stateBatches()).containsExactly(batch(0, 3, ACKNOWLEDGED, 1));
        assertThat(shard.write(KEY, 0, 1, 0, -1, List.of(), 3).error()).isEqualTo(Errors.FENCED_LEADER_EPOCH);
    }

    @Test
    void aHigherStateEpochReinitializes() {
        commit(shard.initialize(KEY, 0, 0, 0));
        commit(shard.write(KEY, 0, 1, 0, -1, List.of(batch(0, 3, ACKNOWLEDGED, 1)), 1));

        assertThat(commit(shard.initialize(KEY, 1, 100, 2))).isEqualTo(Errors.NONE);

        ShareGroupOffset state = shard.state(KEY).orElseThrow();
        assertThat(state.stateEpoch()).isEqualTo(1);
        assertThat(state.startOffset()).isEqualTo(100);
        assertThat(state.stateBatches()).isEmpty();
    }

    @Test
    void deleteWritesATombstoneOnlyForAStoredState() {
        assertThat(shard.delete(KEY).record()).isNull();
        commit(shard.initialize(KEY, 0, 0, 0));
        CoordinatorRecord tombstone = shard.delete(KEY).record();
        assertThat(tombstone.value()).isNull();
        commit(shard.delete(KEY));
        assertThat(shard.state(KEY)).isEmpty();
    }

    @Test
    void theStatePartitionIsKafkas() {
        ShareStateKey key = new ShareStateKey("group", Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"), 7);
        assertThat(key.coordinatorKey()).isEqualTo("group:AAAAAAAAAAAAAAAAAAAAAQ:7");
        assertThat(key.partitionFor(50)).isEqualTo(org.apache.kafka.common.utils.Utils.abs(
            "group:AAAAAAAAAAAAAAAAAAAAAQ:7".hashCode()) % 50);
        assertThat(ShareStateKey.parse("group:AAAAAAAAAAAAAAAAAAAAAQ:7")).isEqualTo(key);
    }

    @Test
    void theDeliveryCompleteCountIsWrittenAsTheTaggedFieldAndReplayed() {
        commit(shard.initialize(KEY, 1, 10, 0));
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).as("initialized").isZero();
        // Two updates, then (two updates per snapshot) a snapshot: the count goes through both record types.
        commit(shard.write(KEY, 1, 3, 10, 2, List.of(batch(12, 13, ACKNOWLEDGED, 1)), 1));
        commit(shard.write(KEY, 1, 3, 10, 3, List.of(batch(15, 15, ARCHIVED, 1)), 2));
        commit(shard.write(KEY, 1, 3, 14, 1, List.of(batch(14, 14, AVAILABLE, 1)), 3));
        assertThat(ShareCoordinatorShard.isSnapshot(recordOf(log.get(3)))).isTrue();
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).isEqualTo(1);

        ShareCoordinatorShard replayed = new ShareCoordinatorShard(2);
        for (int i = 0; i < log.size(); i++) {
            byte[][] record = log.get(i);
            replayed.replay(ByteBuffer.wrap(record[0]), ByteBuffer.wrap(record[1]));
            int expected = new int[] {0, 2, 3, 1}[i];
            assertThat(replayed.state(KEY).orElseThrow().deliveryCompleteCount()).as("after record %d", i)
                .isEqualTo(expected);
        }
        // The count is Kafka's tagged field 0, absent when -1: an update of count 3 is longer than one of -1.
        commit(shard.write(KEY, 1, 3, 20, -1, List.of(), 4));
        assertThat(log.get(4)[1].length).isLessThan(log.get(2)[1].length);
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).as("unknown from an older leader").isEqualTo(-1);
    }

    @Test
    void writesOfOneStartOffsetKeepTheHigherCountAndOlderStartsKeepTheStoredOne() {
        commit(shard.initialize(KEY, 1, 10, 0));
        commit(shard.write(KEY, 1, 3, 10, 4, List.of(), 1));
        commit(shard.write(KEY, 1, 3, 10, 2, List.of(), 2));
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).isEqualTo(4);

        commit(shard.write(KEY, 1, 3, 8, 0, List.of(), 3));
        assertThat(shard.state(KEY).orElseThrow().startOffset()).isEqualTo(10);
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).isEqualTo(4);

        commit(shard.write(KEY, 1, 3, 12, 1, List.of(), 4));
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).isEqualTo(1);

        commit(shard.initialize(KEY, 2, 0, 5));
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).as("a reset starts again").isZero();
        commit(shard.initialize(KEY, 3, -1, 6));
        assertThat(shard.state(KEY).orElseThrow().deliveryCompleteCount()).as("no start offset, no count").isEqualTo(-1);
    }

    private static CoordinatorRecord recordOf(byte[][] stored) {
        return new org.apache.kafka.coordinator.share.ShareCoordinatorRecordSerde().deserialize(
            ByteBuffer.wrap(stored[0]), ByteBuffer.wrap(stored[1]));
    }
}
