package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.junit.jupiter.api.Test;

/** The transitions of a transactional id's metadata, checked against Kafka's transition table (KIP-98). */
class TransactionMetadataTest {

    private static final long PID = 4242L;
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition B1 = new TopicPartition("b", 1);

    private static TransactionMetadata initialized() {
        return TransactionMetadata.initial("txn", PID, 60_000, 1_000)
            .withEpoch((short) 0, RecordBatch.NO_PRODUCER_EPOCH, 60_000, 1_000);
    }

    @Test
    void aTransactionGoesFromEmptyThroughOngoingAndPrepareCommitToCompleteCommit() {
        TransactionMetadata empty = initialized();
        assertThat(empty.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(empty.producerEpoch()).isZero();

        TransactionMetadata ongoing = empty.withPartitionsAdded(Set.of(A0), 2_000).withPartitionsAdded(Set.of(B1), 3_000);
        assertThat(ongoing.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(ongoing.partitions()).containsExactlyInAnyOrder(A0, B1);
        assertThat(ongoing.transactionStartTimeMs()).as("set when the first partition joined").isEqualTo(2_000);
        assertThat(ongoing.lastUpdateTimeMs()).isEqualTo(3_000);

        TransactionMetadata prepared = ongoing.withEndPrepared(true, 4_000);
        assertThat(prepared.state()).isEqualTo(TransactionState.PREPARE_COMMIT);
        assertThat(prepared.partitions()).as("the markers still go to them").containsExactlyInAnyOrder(A0, B1);

        TransactionMetadata complete = prepared.withCompleted(5_000);
        assertThat(complete.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(complete.partitions()).isEmpty();

        TransactionMetadata next = complete.withPartitionsAdded(Set.of(A0), 6_000);
        assertThat(next.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(next.transactionStartTimeMs()).as("a new transaction starts its clock").isEqualTo(6_000);
    }

    @Test
    void stepsOutsideKafkasTransitionTableAreRefused() {
        TransactionMetadata empty = initialized();
        TransactionMetadata ongoing = empty.withPartitionsAdded(Set.of(A0), 2_000);

        assertThatThrownBy(() -> empty.withEndPrepared(true, 2_000)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("Empty").hasMessageContaining("PrepareCommit");
        assertThatThrownBy(() -> ongoing.withCompleted(2_000)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ongoing.withEpoch((short) 1, (short) 0, 60_000, 2_000))
            .as("an InitProducerId during a transaction fences it instead").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ongoing.withEndPrepared(true, 3_000).withPartitionsAdded(Set.of(B1), 3_000))
            .as("no partition joins a transaction that is ending").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ongoing.withDead(3_000)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void fencingBumpsTheEpochAndLeadsToAnAbort() {
        TransactionMetadata ongoing = initialized().withPartitionsAdded(Set.of(A0), 2_000);

        TransactionMetadata fenced = ongoing.withEpochFenced(3_000);
        assertThat(fenced.state()).isEqualTo(TransactionState.PREPARE_EPOCH_FENCE);
        assertThat(fenced.producerEpoch()).isEqualTo((short) 1);

        TransactionMetadata aborting = fenced.withEndPrepared(false, 3_000);
        assertThat(aborting.state()).isEqualTo(TransactionState.PREPARE_ABORT);
        assertThat(aborting.withCompleted(4_000).state()).isEqualTo(TransactionState.COMPLETE_ABORT);
    }

    @Test
    void anExhaustedEpochIsNotBumpedAndTheIdGetsANewProducerId() {
        TransactionMetadata exhausted = initialized().withEpoch((short) (Short.MAX_VALUE - 1), (short) 5, 60_000, 2_000);
        assertThat(exhausted.isProducerEpochExhausted()).isTrue();

        assertThatThrownBy(() -> exhausted.withEpoch(Short.MAX_VALUE, (short) (Short.MAX_VALUE - 1), 60_000, 3_000))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("exhausted");
        TransactionMetadata rotated = exhausted.withNewProducerId(PID + 1, 60_000, 3_000);
        assertThat(rotated.producerId()).isEqualTo(PID + 1);
        assertThat(rotated.previousProducerId()).isEqualTo(PID);
        assertThat(rotated.producerEpoch()).isZero();
        assertThat(rotated.lastProducerEpoch()).isEqualTo(RecordBatch.NO_PRODUCER_EPOCH);
    }

    @Test
    void anIdleCompletedIdMayExpire() {
        TransactionMetadata complete = initialized().withPartitionsAdded(Set.of(A0), 2_000)
            .withEndPrepared(false, 3_000).withCompleted(4_000);

        assertThat(complete.withDead(5_000).state()).isEqualTo(TransactionState.DEAD);
    }
}
