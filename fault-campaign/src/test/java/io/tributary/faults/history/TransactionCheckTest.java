package io.tributary.faults.history;

import static io.tributary.faults.history.HistoryBuilder.P0;
import static io.tributary.faults.history.HistoryBuilder.P1;
import static io.tributary.faults.history.HistoryBuilder.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransactionCheckTest {

    private static Transaction transaction(Outcome outcome, long at, TransactionalWrite... writes) {
        return new Transaction("txn-producer", List.of(writes), at, at + 1, outcome);
    }

    private static TransactionalWrite write(TopicPartition partition, String value) {
        return new TransactionalWrite(partition, value);
    }

    @Test
    void committedTransactionsSeenWholeAndAbortedOnesUnseenAreValid() {
        var committed = transaction(Outcome.OK, 0, write(P0, "c1"), write(P1, "c2"));
        var aborted = transaction(Outcome.FAIL, 2, write(P0, "a1"));
        var unknownNone = transaction(Outcome.INFO, 4, write(P0, "u1"), write(P1, "u2"));
        var unknownAll = transaction(Outcome.INFO, 6, write(P0, "w1"), write(P1, "w2"));
        var uncommittedReader = Poll.ok("dirty", "g", 0, 8, 9, List.of(read(P0, 1, "a1")));
        History history = new History(List.of(committed, aborted, unknownNone, unknownAll, uncommittedReader),
                new FinalReads(Map.of(P0, 4L, P1, 3L), List.of(read(P0, 0, "c1"), read(P1, 0, "c2"),
                        read(P0, 3, "w1"), read(P1, 2, "w2"))), Set.of("clean"));

        assertThat(new HistoryChecker().check(history).valid()).isTrue();
    }

    @Test
    void anAbortedValueReadCommittedIsReportedWhereverItIsRead() {
        var aborted = transaction(Outcome.FAIL, 0, write(P0, "a1"));
        var cleanReader = Poll.ok("clean", "g", 0, 2, 3, List.of(read(P0, 0, "a1")));
        History history = new History(List.of(aborted, cleanReader),
                new FinalReads(Map.of(P0, 1L), List.of(read(P0, 0, "a1"))), Set.of("clean"));

        List<Anomaly> anomalies = new TransactionCheck().check(history);

        assertThat(anomalies).extracting(Anomaly::detail).containsExactlyInAnyOrder(
                "the final read_committed reads hold a1 of an aborted transaction at t-0 offset 0",
                "read_committed consumer clean read a1 of an aborted transaction at t-0 offset 0");
    }

    @Test
    void aCommittedTransactionMissingAValueOrAnUnknownOneSeenInPartIsTorn() {
        var committed = transaction(Outcome.OK, 0, write(P0, "c1"), write(P1, "c2"));
        var unknown = transaction(Outcome.INFO, 2, write(P0, "u1"), write(P1, "u2"));
        History history = new History(List.of(committed, unknown),
                new FinalReads(Map.of(P0, 2L), List.of(read(P0, 0, "c1"), read(P0, 1, "u1"))));

        List<Anomaly> anomalies = new TransactionCheck().check(history);

        assertThat(anomalies).hasSize(2).allMatch(a -> a.kind() == AnomalyKind.ABORTED_READ);
        assertThat(anomalies.get(0).detail()).contains("committed").contains("hold 1 of its 2 values [c1, c2]");
        assertThat(anomalies.get(1).detail()).contains("ended unknown").contains("[u1, u2]");
    }
}
