package io.tributary.faults.campaign;

import io.tributary.faults.history.CheckResult;
import io.tributary.faults.history.ConsumedRecord;
import io.tributary.faults.history.FinalReads;
import io.tributary.faults.history.History;
import io.tributary.faults.history.HistoryChecker;
import io.tributary.faults.history.Operation;
import io.tributary.faults.history.Poll;
import io.tributary.faults.history.Send;
import io.tributary.faults.history.Transaction;
import io.tributary.faults.history.Unavailability;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits a campaign run's history into one window per fault, so each fault kind gets its own figures.
 *
 * <p>Fault {@code i}'s window runs from its start to the next fault's start (the last one's to the end of the history).
 * Its result is the checker's verdict on the window's sub-history: the sends invoked in the window, and of the polls
 * and final reads only the records of those sends' values; commits are left out (the whole history's check covers
 * them). So a lost or duplicated value counts for the fault during which it was sent; two values at one offset count
 * only if both were sent in the window (the whole history's check sees every pair). Its unavailability is the longest
 * {@link Unavailability} stall of the whole history that ends within the window. Sends before the first fault belong to no
 * window. Stateless; thread-safe.
 */
public final class FaultAttribution {

    private FaultAttribution() {
    }

    /** Per fault kind, in order of first appearance, the results of its windows. */
    public static Map<String, List<CheckResult>> resultsByKind(History history, List<FaultRecord> faults,
                                                               HistoryChecker checker) {
        Map<String, List<CheckResult>> byKind = new LinkedHashMap<>();
        List<Unavailability.Stall> stalls = Unavailability.stalls(history);
        for (int i = 0; i < faults.size(); i++) {
            long from = faults.get(i).startNanos();
            long to = i + 1 < faults.size() ? faults.get(i + 1).startNanos() : Long.MAX_VALUE;
            CheckResult window = checker.check(window(history, from, to));
            long unavailable = stalls.stream().filter(s -> s.endsWithin(from, to)).mapToLong(Unavailability.Stall::nanos)
                    .max().orElse(0);
            byKind.computeIfAbsent(faults.get(i).kind(), k -> new ArrayList<>())
                    .add(new CheckResult(window.acknowledged(), window.counts(), window.examples(), unavailable));
        }
        return byKind;
    }

    /**
     * The sub-history of the sends and transactions invoked in {@code [fromNanos, toNanos)} and the reads of their
     * values.
     */
    static History window(History history, long fromNanos, long toNanos) {
        Set<String> values = new HashSet<>();
        List<Operation> operations = new ArrayList<>();
        for (Send send : history.sends()) {
            if (send.invokedNanos() >= fromNanos && send.invokedNanos() < toNanos) {
                values.add(send.value());
                operations.add(send);
            }
        }
        for (Transaction transaction : history.transactions()) {
            if (transaction.invokedNanos() >= fromNanos && transaction.invokedNanos() < toNanos) {
                transaction.writes().forEach(w -> values.add(w.value()));
                operations.add(transaction);
            }
        }
        for (Poll poll : history.polls()) {
            List<ConsumedRecord> records = poll.records().stream().filter(r -> values.contains(r.value())).toList();
            if (!records.isEmpty()) {
                operations.add(new Poll(poll.client(), poll.group(), poll.assignmentEpoch(), poll.invokedNanos(),
                        poll.completedNanos(), poll.outcome(), records));
            }
        }
        operations.sort(Comparator.comparingLong(Operation::invokedNanos));
        FinalReads reads = history.finalReads();
        return new History(operations, new FinalReads(reads.endOffsets(),
                reads.records().stream().filter(r -> values.contains(r.value())).toList()),
                history.readCommittedClients());
    }
}
