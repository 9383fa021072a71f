package io.tributary.broker.share;

import java.util.concurrent.atomic.LongAdder;

/**
 * Cumulative counts of one share-partition on its leader since it was loaded, as its metrics report them
 * (KIP-1103 {@code AcquisitionLockTimeoutPerSec}; Tributary's archived-records counter). Counts start at 0
 * when a share-partition is loaded again (leadership back, state reset).
 *
 * <p>Thread-safe and lock-free: incremented under the share-partition's monitor, read without it.
 */
public final class SharePartitionStats {

    private final LongAdder lockTimeoutRecords = new LongAdder();
    private final LongAdder[] archivedRecords = new LongAdder[ArchiveReason.values().length];

    SharePartitionStats() {
        for (int i = 0; i < archivedRecords.length; i++) {
            archivedRecords[i] = new LongAdder();
        }
    }

    void recordLockTimeout(long records) {
        lockTimeoutRecords.add(records);
    }

    void recordArchived(ArchiveReason reason, long records) {
        archivedRecords[reason.ordinal()].add(records);
    }

    /** Records an acquisition lock expiry released (back to AVAILABLE, or archived at the delivery count limit). */
    public long acquisitionLockTimeoutRecords() {
        return lockTimeoutRecords.sum();
    }

    /** Delivered records archived for {@code reason}, counted once the ARCHIVED state is written. */
    public long archivedRecords(ArchiveReason reason) {
        return archivedRecords[reason.ordinal()].sum();
    }
}
