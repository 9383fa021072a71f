package io.tributary.broker.share;

import static io.tributary.broker.share.ShareTestRecords.batches;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;
import org.junit.jupiter.api.Test;

/**
 * The delivery complete count of a share-partition (KIP-1226) and the values its KIP-1103 meters read:
 * acknowledged and archived offsets at or after the start offset count, released ones do not, and the
 * count follows the start offset; every written state carries the count of the state it writes.
 */
class SharePartitionDeliveryCompleteTest {

    private static final int LOCK_MS = 30_000;
    private static final SharePartitionKey KEY = new SharePartitionKey("g", new TopicIdPartition(Uuid.randomUuid(), 0, "t"));

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final InMemoryShareStatePersister persister = new InMemoryShareStatePersister();

    private SharePartition partition(int deliveryLimit, ShareGroupState initial) {
        persister.initializeState(KEY, initial);
        return new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, deliveryLimit, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), persister,
            new AcquisitionLockTimer(scheduler), () -> { });
    }

    private SharePartition partition() {
        return partition(5, new ShareGroupState(0, 3, 0, List.of()));
    }

    private static Errors ack(SharePartition sp, long first, long last, byte type) {
        return sp.acknowledge("m1", List.of(ShareAcknowledgement.of(first, last, type))).join();
    }

    private int storedCount() {
        return persister.state(KEY).orElseThrow().deliveryCompleteCount();
    }

    @Test
    void acknowledgedAndArchivedOffsetsCountReleasedOnesDoNot() {
        SharePartition sp = partition();
        sp.acquire("m1", batches(0, 10).batches(), List.of(), 100, false);
        assertThat(sp.deliveryCompleteCount()).isZero();
        assertThat(storedCount()).as("initialized").isZero();

        assertThat(ack(sp, 2, 3, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);
        assertThat(sp.deliveryCompleteCount()).isEqualTo(2);
        assertThat(storedCount()).isEqualTo(2);

        assertThat(ack(sp, 5, 5, ShareAcknowledgement.REJECT)).isEqualTo(Errors.NONE);
        assertThat(sp.deliveryCompleteCount()).isEqualTo(3);
        assertThat(ack(sp, 6, 7, ShareAcknowledgement.RELEASE)).isEqualTo(Errors.NONE);
        assertThat(sp.deliveryCompleteCount()).as("released records are not complete").isEqualTo(3);
        assertThat(storedCount()).isEqualTo(3);
        assertThat(persister.state(KEY).orElseThrow().startOffset()).isZero();
    }

    @Test
    void theCountFollowsTheStartOffset() {
        SharePartition sp = partition();
        sp.acquire("m1", batches(0, 10).batches(), List.of(), 100, false);
        ack(sp, 2, 3, ShareAcknowledgement.ACCEPT);
        ack(sp, 5, 5, ShareAcknowledgement.REJECT);

        assertThat(ack(sp, 0, 1, ShareAcknowledgement.ACCEPT)).isEqualTo(Errors.NONE);

        assertThat(sp.startOffset()).isEqualTo(4);
        assertThat(sp.deliveryCompleteCount()).as("only offset 5 at or after the SPSO").isEqualTo(1);
        ShareGroupState stored = persister.state(KEY).orElseThrow();
        assertThat(stored.startOffset()).isEqualTo(4);
        assertThat(stored.deliveryCompleteCount()).isEqualTo(1);

        assertThat(sp.acknowledge("m1", List.of(ShareAcknowledgement.of(4, 4, ShareAcknowledgement.ACCEPT),
            ShareAcknowledgement.of(6, 9, ShareAcknowledgement.ACCEPT))).join()).isEqualTo(Errors.NONE);
        assertThat(sp.startOffset()).isEqualTo(10);
        assertThat(sp.deliveryCompleteCount()).isZero();
        assertThat(storedCount()).isZero();
    }

    @Test
    void lockExpiriesReleaseWithoutCountingAndArchiveAtTheDeliveryLimit() {
        SharePartition sp = partition(2, new ShareGroupState(0, 3, 0, List.of()));
        MemoryRecords log = batches(0, 2, 2);
        sp.acquire("m1", log.batches(), List.of(), 100, false);
        ack(sp, 1, 1, ShareAcknowledgement.ACCEPT);

        time.advance(LOCK_MS); // 0, 2 and 3 go back to AVAILABLE
        assertThat(sp.deliveryCompleteCount()).isEqualTo(1);
        assertThat(storedCount()).isEqualTo(1);
        assertThat(sp.stats().acquisitionLockTimeoutRecords()).isEqualTo(3);

        sp.acquire("m1", log.batches(), List.of(), 100, false);
        time.advance(LOCK_MS); // the second delivery expires at the limit: archived, the SPSO passes them all

        assertThat(sp.startOffset()).isEqualTo(4);
        assertThat(sp.deliveryCompleteCount()).isZero();
        assertThat(persister.state(KEY).orElseThrow().startOffset()).isEqualTo(4);
        assertThat(sp.stats().acquisitionLockTimeoutRecords()).isEqualTo(6);
        assertThat(sp.stats().archivedRecords(ArchiveReason.DELIVERY_COUNT_EXCEEDED)).isEqualTo(3);
    }

    @Test
    void aLoadedStateCountsItsCompleteBatches() {
        ShareGroupState stored = new ShareGroupState(2, 1, 10, List.of(
            new PersistedStateBatch(10, 11, RecordState.AVAILABLE.id(), (short) 1),
            new PersistedStateBatch(12, 13, RecordState.ACKNOWLEDGED.id(), (short) 1),
            new PersistedStateBatch(16, 16, RecordState.ARCHIVED.id(), (short) 1)), -1);

        SharePartition sp = partition(5, stored);

        assertThat(sp.startOffset()).isEqualTo(10);
        assertThat(sp.deliveryCompleteCount()).isEqualTo(3);
    }

    @Test
    void inFlightGaugesFollowTheWindowAndItsBatches() {
        SharePartition sp = partition();
        assertThat(sp.inFlightMessageCount()).isZero();
        assertThat(sp.inFlightBatchCount()).isZero();

        sp.acquire("m1", batches(0, 3, 4).batches(), List.of(), 100, false);
        assertThat(sp.inFlightMessageCount()).isEqualTo(7);
        assertThat(sp.inFlightBatchCount()).isEqualTo(2);

        ack(sp, 4, 4, ShareAcknowledgement.REJECT); // splits the second batch in three
        assertThat(sp.inFlightMessageCount()).as("terminal records inside the window stay in flight").isEqualTo(7);
        assertThat(sp.inFlightBatchCount()).isEqualTo(4);
        assertThat(sp.stats().archivedRecords(ArchiveReason.REJECTED)).isEqualTo(1);

        ack(sp, 0, 2, ShareAcknowledgement.ACCEPT);
        assertThat(sp.inFlightMessageCount()).isEqualTo(4);
        assertThat(sp.inFlightBatchCount()).isEqualTo(3);

        ack(sp, 3, 3, ShareAcknowledgement.ACCEPT);
        ack(sp, 5, 6, ShareAcknowledgement.ACCEPT);
        assertThat(sp.inFlightMessageCount()).isZero();
        assertThat(sp.inFlightBatchCount()).isZero();
    }
}
