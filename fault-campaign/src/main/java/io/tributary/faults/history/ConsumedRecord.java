package io.tributary.faults.history;

import java.util.Objects;

/**
 * One record a consumer read: where it was ({@code partition}, {@code offset}) and its value. Values are unique per
 * send in the workload, so a value names the send that wrote it.
 */
public record ConsumedRecord(TopicPartition partition, long offset, String value) {

    public ConsumedRecord {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(value, "value");
        if (offset < 0) {
            throw new IllegalArgumentException("offset " + offset + " in " + partition + " is negative");
        }
    }
}
