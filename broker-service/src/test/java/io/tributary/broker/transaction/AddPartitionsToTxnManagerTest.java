package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * The leader side of KIP-890 part 1 without a network: no coordinator answers
 * COORDINATOR_NOT_AVAILABLE, and once closed every verification completes at once with
 * NETWORK_EXCEPTION (retriable for the producer) instead of waiting on a thread that no longer runs.
 */
class AddPartitionsToTxnManagerTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    @Test
    void withoutACoordinatorOrAfterCloseAVerificationCompletesAtOnceWithARetriableError() {
        AddPartitionsToTxnManager noCoordinator = new AddPartitionsToTxnManager(0, null, id -> OptionalInt.empty(),
            id -> Optional.empty(), id -> null, TransactionMetrics.unregistered(), Time.SYSTEM);
        assertThat(noCoordinator.verifyTransaction("app", 1, (short) 0, List.of(TP), true).join())
            .isEqualTo(Map.of(TP, Errors.COORDINATOR_NOT_AVAILABLE));

        AddPartitionsToTxnManager remote = new AddPartitionsToTxnManager(0, null, id -> OptionalInt.of(77),
            id -> Optional.empty(), id -> null, TransactionMetrics.unregistered(), Time.SYSTEM);
        remote.close();
        assertThat(remote.verifyTransaction("app", 1, (short) 0, List.of(TP), true).join())
            .isEqualTo(Map.of(TP, Errors.NETWORK_EXCEPTION));
        assertThat(Thread.getAllStackTraces().keySet()).as("no sender thread is started after close")
            .noneMatch(t -> t.getName().equals("add-partitions-to-txn-sender-77"));
    }
}
