package io.tributary.broker.share;

import static io.tributary.broker.share.ShareTestRecords.batches;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.group.ShareGroupAutoOffsetResetStrategy;
import org.junit.jupiter.api.Test;

/** A share-partition tells its {@link ShareArchiveListener} which delivered records it archived, and why (KIP-1191). */
class SharePartitionArchiveTest {

    private static final int LOCK_MS = 30_000;
    private static final SharePartitionKey KEY = new SharePartitionKey("g", new TopicIdPartition(Uuid.randomUuid(), 0, "t"));

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final InMemoryShareStatePersister persister = new InMemoryShareStatePersister();
    private final List<ArchivedRange> archived = new CopyOnWriteArrayList<>();

    private SharePartition partition(int deliveryLimit) {
        ShareGroupState initial = new ShareGroupState(0, 3, 0, List.of());
        persister.initializeState(KEY, initial);
        return new SharePartition(KEY, 3, initial, new SharePartitionConfig(LOCK_MS, deliveryLimit, 200,
            ShareGroupAutoOffsetResetStrategy.LATEST, IsolationLevel.READ_UNCOMMITTED), persister,
            new AcquisitionLockTimer(scheduler), () -> { }, archived::add);
    }

    private static Errors ack(SharePartition sp, String member, long first, long last, byte type) {
        return sp.acknowledge(member, List.of(ShareAcknowledgement.of(first, last, type))).join();
    }

    @Test
    void rejectedRecordsAreReportedAsRejectedWithTheirDeliveryCount() {
        SharePartition sp = partition(5);
        sp.acquire("m1", batches(0, 4).batches(), List.of(), 10, false);

        assertThat(ack(sp, "m1", 1, 2, ShareAcknowledgement.REJECT)).isEqualTo(Errors.NONE);

        assertThat(archived).containsExactly(new ArchivedRange(KEY, 1, 2, 1, ArchiveReason.REJECTED));
    }

    @Test
    void acceptedGapAndReleasedBelowTheLimitAreNotReported() {
        SharePartition sp = partition(5);
        sp.acquire("m1", batches(0, 3).batches(), List.of(), 10, false);

        ack(sp, "m1", 0, 0, ShareAcknowledgement.ACCEPT);
        ack(sp, "m1", 1, 1, ShareAcknowledgement.GAP);
        ack(sp, "m1", 2, 2, ShareAcknowledgement.RELEASE);

        assertThat(archived).isEmpty();
    }

    @Test
    void aReleaseAtTheDeliveryCountLimitIsReportedAsExceeded() {
        SharePartition sp = partition(2);
        sp.acquire("m1", batches(0, 1).batches(), List.of(), 10, false);
        ack(sp, "m1", 0, 0, ShareAcknowledgement.RELEASE);
        sp.acquire("m1", batches(0, 1).batches(), List.of(), 10, false);

        ack(sp, "m1", 0, 0, ShareAcknowledgement.RELEASE);

        assertThat(sp.stateOf(0)).isNull(); // archived, start offset moved past it
        assertThat(archived).containsExactly(new ArchivedRange(KEY, 0, 0, 2, ArchiveReason.DELIVERY_COUNT_EXCEEDED));
    }

    @Test
    void aLockExpiringAtTheDeliveryCountLimitIsReportedAsExceeded() {
        SharePartition sp = partition(1);
        sp.acquire("m1", batches(0, 3).batches(), List.of(), 10, false);

        time.advance(LOCK_MS);

        assertThat(archived).containsExactly(new ArchivedRange(KEY, 0, 2, 1, ArchiveReason.DELIVERY_COUNT_EXCEEDED));
    }

    @Test
    void aMemberLeavingAtTheDeliveryCountLimitIsReportedAsExceeded() {
        SharePartition sp = partition(1);
        sp.acquire("m1", batches(0, 2).batches(), List.of(), 10, false);

        sp.releaseMember("m1").join();

        assertThat(archived).containsExactly(new ArchivedRange(KEY, 0, 1, 1, ArchiveReason.DELIVERY_COUNT_EXCEEDED));
    }
}
