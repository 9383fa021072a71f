package io.tributary.faults.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Randomized histories from fixed seeds: a valid one reports valid, and one anomaly of each kind injected into it is
 * reported exactly once, with no other anomaly.
 */
class HistoryCheckerPropertyTest {

    private static final long SEED = 20261207L;
    private static final int HISTORIES = 30;
    private static final int STEPS = 400;

    private final HistoryChecker checker = new HistoryChecker();

    private static List<Long> seeds() {
        Random random = new Random(SEED);
        return LongStream.range(0, HISTORIES).map(i -> random.nextLong()).boxed().toList();
    }

    @Test
    void generatedHistoriesAreValid() {
        for (long seed : seeds()) {
            CheckResult result = checker.check(RandomHistories.generate(seed, STEPS));
            assertThat(result.valid()).as("seed %d: %s", seed, result.examples()).isTrue();
            assertThat(result.acknowledged()).as("seed %d", seed).isPositive();
        }
    }

    @Test
    void oneInjectedAnomalyOfEachKindIsReportedExactly() {
        Map<AnomalyKind, BiFunction<History, Random, History>> injections = Map.of(
                AnomalyKind.SKIPPED_BY_GROUP, HistoryCheckerPropertyTest::commitPastAnUnreadRecord,
                AnomalyKind.ABORTED_READ, HistoryCheckerPropertyTest::readAnAbortedValue,
                AnomalyKind.LOST, HistoryCheckerPropertyTest::loseAnAcknowledgedValue,
                AnomalyKind.DUPLICATE, HistoryCheckerPropertyTest::duplicateAValue,
                AnomalyKind.INCONSISTENT_OFFSET, HistoryCheckerPropertyTest::acknowledgeAtAnotherOffset,
                AnomalyKind.NON_MONOTONIC_READ, HistoryCheckerPropertyTest::swapTwoReadsOfAPoll,
                AnomalyKind.COMMIT_REGRESSION, HistoryCheckerPropertyTest::commitBackwards,
                AnomalyKind.UNEXPECTED_VALUE, HistoryCheckerPropertyTest::readAGhost);
        assertThat(injections.keySet()).as("every checked kind has an injection")
                .containsExactlyInAnyOrder(kindsChecked());
        for (long seed : seeds()) {
            History valid = RandomHistories.generate(seed, STEPS);
            for (var injection : injections.entrySet()) {
                History broken = injection.getValue().apply(valid, new Random(seed));
                CheckResult result = checker.check(broken);
                Map<AnomalyKind, Integer> expected = new HashMap<>(result.counts());
                expected.replaceAll((kind, count) -> kind == injection.getKey() ? 1 : 0);
                assertThat(result.counts()).as("seed %d, injected %s: %s", seed, injection.getKey(),
                        result.examples()).isEqualTo(expected);
            }
        }
    }

    private static AnomalyKind[] kindsChecked() {
        return AnomalyKind.values();
    }

    private static <T> T any(List<T> list, Random random) {
        assertThat(list).as("the generated history has something to inject into").isNotEmpty();
        return list.get(random.nextInt(list.size()));
    }

    private static List<Send> acknowledged(History history) {
        return history.sends().stream().filter(s -> s.outcome() == Outcome.OK).toList();
    }

    private static History withFinalReads(History history, List<ConsumedRecord> reads, TopicPartition grown) {
        Map<TopicPartition, Long> ends = new HashMap<>(history.finalReads().endOffsets());
        if (grown != null) {
            ends.merge(grown, 1L, Long::sum);
        }
        return new History(history.operations(), new FinalReads(ends, reads));
    }

    private static History loseAnAcknowledgedValue(History history, Random random) {
        String value = any(acknowledged(history), random).value();
        List<ConsumedRecord> reads = history.finalReads().records().stream()
                .filter(r -> !r.value().equals(value)).toList();
        return withFinalReads(history, reads, null);
    }

    /** Appends the value of an acknowledged send again at its partition's end offset. */
    private static History duplicateAValue(History history, Random random) {
        Send send = any(acknowledged(history), random);
        TopicPartition partition = send.acknowledgedPartition().orElseThrow();
        List<ConsumedRecord> reads = new ArrayList<>(history.finalReads().records());
        reads.add(new ConsumedRecord(partition, history.finalReads().endOffsets().get(partition), send.value()));
        return withFinalReads(history, reads, partition);
    }

    /** An acknowledged send's offset moved to another offset of its partition, which holds another value. */
    private static History acknowledgeAtAnotherOffset(History history, Random random) {
        List<Send> candidates = acknowledged(history).stream()
                .filter(s -> history.finalReads().endOffsets().get(s.acknowledgedPartition().orElseThrow()) > 1)
                .toList();
        Send send = any(candidates, random);
        long end = history.finalReads().endOffsets().get(send.acknowledgedPartition().orElseThrow());
        long other = (send.offset().getAsLong() + 1 + random.nextInt((int) end - 1)) % end;
        Send moved = Send.ok(send.client(), send.acknowledgedPartition().orElseThrow(), send.value(), other,
                send.invokedNanos(), send.completedNanos());
        List<Operation> operations = new ArrayList<>(history.operations());
        operations.set(operations.indexOf(send), moved);
        return new History(operations, history.finalReads());
    }

    /** Swaps the first two records of one partition in a poll that returned at least two of it. */
    private static History swapTwoReadsOfAPoll(History history, Random random) {
        List<Poll> candidates = history.polls().stream().filter(p -> firstTwoOfOnePartition(p) != null).toList();
        Poll poll = any(candidates, random);
        int[] pair = firstTwoOfOnePartition(poll);
        List<ConsumedRecord> records = new ArrayList<>(poll.records());
        Collections.swap(records, pair[0], pair[1]);
        List<Operation> operations = new ArrayList<>(history.operations());
        operations.set(operations.indexOf(poll), new Poll(poll.client(), poll.group(), poll.assignmentEpoch(),
                poll.invokedNanos(), poll.completedNanos(), poll.outcome(), records));
        return new History(operations, history.finalReads());
    }

    private static int[] firstTwoOfOnePartition(Poll poll) {
        List<ConsumedRecord> records = poll.records();
        for (int i = 0; i < records.size(); i++) {
            for (int j = i + 1; j < records.size(); j++) {
                if (records.get(i).partition().equals(records.get(j).partition())) {
                    return new int[] {i, j};
                }
            }
        }
        return null;
    }

    /** After everything, one OK commit one below the group's last OK commit of a partition. */
    private static History commitBackwards(History history, Random random) {
        Map<TopicPartition, Commit> last = new HashMap<>();
        history.commits().stream().filter(c -> c.outcome() == Outcome.OK).forEach(c -> last.put(c.partition(), c));
        Commit latest = any(last.values().stream().filter(c -> c.offset() > 0).toList(), random);
        long end = history.operations().stream().mapToLong(Operation::completedNanos).max().orElseThrow();
        List<Operation> operations = new ArrayList<>(history.operations());
        operations.add(new Commit(latest.client(), latest.group(), latest.partition(), latest.offset() - 1,
                end + 1, end + 2, Outcome.OK));
        return new History(operations, history.finalReads());
    }

    /**
     * A value acknowledged at a partition's end offset; then a new member of the group reads the partition from the
     * group's committed offset up to that value, not including it, and commits past it.
     */
    private static History commitPastAnUnreadRecord(History history, Random random) {
        TopicPartition partition = any(RandomHistories.PARTITIONS, random);
        long end = history.finalReads().endOffsets().get(partition);
        long committed = history.commits().stream()
                .filter(c -> c.outcome() == Outcome.OK && c.partition().equals(partition))
                .mapToLong(Commit::offset).max().orElse(0);
        List<ConsumedRecord> caughtUp = history.finalReads().records().stream()
                .filter(r -> r.partition().equals(partition) && r.offset() >= committed)
                .sorted(java.util.Comparator.comparingLong(ConsumedRecord::offset)).toList();
        long last = history.operations().stream().mapToLong(Operation::completedNanos).max().orElseThrow();
        List<Operation> operations = new ArrayList<>(history.operations());
        operations.add(Send.ok("p0", partition, "unread", end, last + 1, last + 2));
        operations.add(Poll.ok("c-new", "g", 0, last + 3, last + 4, caughtUp));
        operations.add(new Commit("c-new", "g", partition, end + 1, last + 5, last + 6, Outcome.OK));
        List<ConsumedRecord> reads = new ArrayList<>(history.finalReads().records());
        reads.add(new ConsumedRecord(partition, end, "unread"));
        return new History(operations, withFinalReads(history, reads, partition).finalReads());
    }

    /** After everything, an aborted transaction whose value the final (read_committed) reads hold at the end. */
    private static History readAnAbortedValue(History history, Random random) {
        TopicPartition partition = any(RandomHistories.PARTITIONS, random);
        long last = history.operations().stream().mapToLong(Operation::completedNanos).max().orElseThrow();
        List<Operation> operations = new ArrayList<>(history.operations());
        operations.add(new Transaction("txn", List.of(new TransactionalWrite(partition, "aborted")), last + 1,
                last + 2, Outcome.FAIL));
        List<ConsumedRecord> reads = new ArrayList<>(history.finalReads().records());
        reads.add(new ConsumedRecord(partition, history.finalReads().endOffsets().get(partition), "aborted"));
        return new History(operations, withFinalReads(history, reads, partition).finalReads());
    }

    /** A value nobody sent, read at a partition's end offset. */
    private static History readAGhost(History history, Random random) {
        TopicPartition partition = any(RandomHistories.PARTITIONS, random);
        List<ConsumedRecord> reads = new ArrayList<>(history.finalReads().records());
        reads.add(new ConsumedRecord(partition, history.finalReads().endOffsets().get(partition), "ghost"));
        return withFinalReads(history, reads, partition);
    }
}
