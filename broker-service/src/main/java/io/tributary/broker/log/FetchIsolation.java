package io.tributary.broker.log;

/** How far a read may go. */
public enum FetchIsolation {
    /** Up to the log end offset: followers. */
    LOG_END,
    /** Up to the high watermark: consumers with read_uncommitted. */
    HIGH_WATERMARK,
    /** Up to the last stable offset: consumers with read_committed (equal to the high watermark without transactions). */
    TXN_COMMITTED
}
