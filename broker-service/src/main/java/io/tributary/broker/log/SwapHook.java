package io.tributary.broker.log;

/**
 * Called at each step of the cleaner's write-and-swap of a segment, so tests can stop the swap
 * there as a crash would (by throwing) and check what a restart makes of the files left behind.
 * Production code uses {@link #NONE}.
 */
@FunctionalInterface
interface SwapHook {

    SwapHook NONE = step -> { };

    /** The steps, in order; see {@link LogSegments#replace}. */
    enum Step {
        /** The cleaned segment is written and flushed under its {@code .cleaned} names. */
        CLEANED_WRITTEN,
        /** The cleaned segment was renamed {@code .swap} (the replacement is committed). */
        SWAP_RENAMED,
        /** One more old segment was renamed {@code .deleted}. */
        OLD_SEGMENT_REMOVED,
        /** The swap segment was renamed to its final names. */
        SWAP_COMPLETED
    }

    void reached(Step step);
}
