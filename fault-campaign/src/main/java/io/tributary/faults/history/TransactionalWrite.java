package io.tributary.faults.history;

import java.util.Objects;

/** One record a transactional producer sent inside a {@link Transaction}: its partition and unique value. */
public record TransactionalWrite(TopicPartition partition, String value) {

    public TransactionalWrite {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(value, "value");
    }
}
