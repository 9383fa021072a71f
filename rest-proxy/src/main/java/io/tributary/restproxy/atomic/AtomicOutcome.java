package io.tributary.restproxy.atomic;

import io.tributary.restproxy.atomic.StoredOutcome.Written;
import java.util.List;

/** How an atomic request ended. */
public sealed interface AtomicOutcome {

    /** The transactional id the request's transaction ran under. */
    String transactionalId();

    /**
     * All records were written and the transaction committed: read_committed consumers see all of them.
     *
     * @param records  where each landed, in the request's order
     * @param replayed the request's idempotency key had already committed: nothing was written this
     *                 time, and {@code records} are the first request's
     */
    record Committed(String transactionalId, List<Written> records, boolean replayed) implements AtomicOutcome {
    }

    /**
     * The transaction was aborted: read_committed consumers see none of the records (read_uncommitted
     * ones may see those written before the abort). Retrying, with the same key, is safe.
     *
     * @param failedIndex the index of the record whose failure aborted it, or -1 when none did
     * @param cause       why
     */
    record Aborted(String transactionalId, int failedIndex, RuntimeException cause) implements AtomicOutcome {
    }

    /**
     * The commit was sent but its result is not known (a timeout, the producer failed): the records
     * may be committed or not. A retry with the same idempotency key learns which, without writing twice.
     */
    record Unknown(String transactionalId, RuntimeException cause) implements AtomicOutcome {
    }
}
