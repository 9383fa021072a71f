package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.v3.TransactionsAdmin.OpenTransaction;
import io.tributary.restproxy.v3.TransactionsAdmin.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which open transactions on partitions are hanging, as {@code kafka-transactions find-hanging} decides. */
class TransactionsAdminTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private static ProducerState producer(long id, int epoch, long startOffset) {
        return new ProducerState(id, epoch, 3, 1_000, OptionalInt.of(0), OptionalLong.of(startOffset));
    }

    private static OpenTransaction open(TopicPartition partition, ProducerState producer) {
        return new OpenTransaction(partition, producer, null, 60_000);
    }

    private static Transaction transaction(String id, long producerId, int epoch, TransactionState state,
            TopicPartition... partitions) {
        return new Transaction(id, new TransactionDescription(1, state, producerId, epoch, 60_000, OptionalLong.of(1),
            Set.of(partitions)));
    }

    @Test
    void aTransactionHeldByItsCoordinatorIsNotHangingAndOneHeldByNoneIs() {
        ProducerState owned = producer(7, 0, 10);
        ProducerState orphan = producer(8, 0, 20);
        List<List<TopicPartition>> rereads = new ArrayList<>();

        List<OpenTransaction> result = TransactionsAdmin.classify(List.of(open(P1, orphan), open(P0, owned)),
            List.of(transaction("payments", 7, 0, TransactionState.ONGOING, P0)), partitions -> {
                rereads.add(partitions);
                return Map.of(P1, new PartitionProducerState(List.of(orphan)), P0,
                    new PartitionProducerState(List.of(owned)));
            });

        assertThat(result).extracting(OpenTransaction::partition).containsExactly(P0, P1);
        assertThat(result.get(0).transactionalId()).isEqualTo("payments");
        assertThat(result.get(0).hanging()).isFalse();
        assertThat(result.get(1).hanging()).isTrue();
        assertThat(rereads).as("read again once").hasSize(1);
    }

    @Test
    void aTransactionWithoutThePartitionOrCompletedOrOfAnotherProducerDoesNotHoldIt() {
        ProducerState producer = producer(7, 2, 10);
        Map<TopicPartition, PartitionProducerState> stillOpen = Map.of(P0, new PartitionProducerState(List.of(producer)));

        for (Transaction other : List.of(transaction("other-producer", 8, 2, TransactionState.ONGOING, P0),
                transaction("elsewhere", 7, 2, TransactionState.ONGOING, P1),
                transaction("done", 7, 2, TransactionState.COMPLETE_COMMIT, P0))) {
            assertThat(TransactionsAdmin.classify(List.of(open(P0, producer)), List.of(other), p -> stillOpen))
                .as(other.transactionalId()).singleElement().satisfies(t -> assertThat(t.hanging()).isTrue());
        }
        // A coordinator preparing an abort after a timeout (or any prepare under KIP-890's transactions
        // v2) has bumped the epoch past the partition's: it still holds the transaction.
        assertThat(TransactionsAdmin.classify(List.of(open(P0, producer)),
                List.of(transaction("preparing", 7, 3, TransactionState.PREPARE_ABORT, P0)), p -> stillOpen))
            .singleElement().satisfies(t -> assertThat(t.transactionalId()).isEqualTo("preparing"));
        assertThat(TransactionsAdmin.classify(List.of(open(P0, producer)),
                List.of(transaction("fencing", 7, 3, TransactionState.PREPARE_EPOCH_FENCE, P0)), p -> stillOpen))
            .singleElement().satisfies(t -> assertThat(t.hanging()).isFalse());
    }

    @Test
    void aTransactionThatCompletedBetweenTheReadsIsLeftOut() {
        ProducerState producer = producer(9, 0, 30);
        ProducerState nextTransaction = producer(9, 0, 45);

        assertThat(TransactionsAdmin.classify(List.of(open(P0, producer)), List.of(), p -> Map.of(P0,
            new PartitionProducerState(List.of())))).isEmpty();
        assertThat(TransactionsAdmin.classify(List.of(open(P0, producer)), List.of(), p -> Map.of(P0,
            new PartitionProducerState(List.of(nextTransaction))))).as("a later transaction of the producer").isEmpty();
    }
}
