package io.tributary.faults.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the workload clients of one run recorded: their operations, in order of invocation, and the final reads.
 * {@code readCommittedClients} are the consumers that read with {@code isolation.level=read_committed} (the final
 * reads always do). Immutable.
 */
public record History(List<Operation> operations, FinalReads finalReads, Set<String> readCommittedClients) {

    public History {
        operations = List.copyOf(operations);
        Objects.requireNonNull(finalReads, "finalReads");
        readCommittedClients = Set.copyOf(readCommittedClients);
    }

    /** A history whose consumers all read uncommitted. */
    public History(List<Operation> operations, FinalReads finalReads) {
        this(operations, finalReads, Set.of());
    }

    public List<Send> sends() {
        return operations.stream().filter(Send.class::isInstance).map(Send.class::cast).toList();
    }

    public List<Poll> polls() {
        return operations.stream().filter(Poll.class::isInstance).map(Poll.class::cast).toList();
    }

    public List<Commit> commits() {
        return operations.stream().filter(Commit.class::isInstance).map(Commit.class::cast).toList();
    }

    public List<Transaction> transactions() {
        return operations.stream().filter(Transaction.class::isInstance).map(Transaction.class::cast).toList();
    }

    /** Every record read: by the polls, in history order, then by the final reads. */
    public List<ConsumedRecord> allReads() {
        var reads = new ArrayList<ConsumedRecord>();
        polls().forEach(p -> reads.addAll(p.records()));
        reads.addAll(finalReads.records());
        return reads;
    }
}
