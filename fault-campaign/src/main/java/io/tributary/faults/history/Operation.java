package io.tributary.faults.history;

/**
 * One operation of a workload client: its invocation and its completion, paired.
 *
 * <p>Times are monotonic nanoseconds ({@link System#nanoTime()} of the harness's JVM, or a simulated clock), only
 * comparable within one history; {@code invokedNanos <= completedNanos}.
 */
public sealed interface Operation permits Send, Poll, Commit, Transaction {

    /**
     * The client that ran the operation: a producer id for sends and transactions, a consumer id for polls and
     * commits.
     */
    String client();

    long invokedNanos();

    long completedNanos();

    Outcome outcome();

    /** Checks the invariant shared by all operations; called by each record's constructor. */
    static void checkTimes(String client, long invokedNanos, long completedNanos) {
        if (completedNanos < invokedNanos) {
            throw new IllegalArgumentException("operation of " + client + " completed at " + completedNanos
                    + " ns, before its invocation at " + invokedNanos + " ns");
        }
    }
}
