package io.tributary.faults.history;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The reads that end every run: once the faults are healed and the cluster has settled, one consumer assigns itself
 * every partition, seeks to the beginning and reads until the end offsets it listed beforehand.
 *
 * <p>{@code endOffsets} are those end offsets (exclusive) per partition; {@code records} all that was read, in order
 * per partition. A value acknowledged during the run and absent here is lost, whatever the polls saw.
 */
public record FinalReads(Map<TopicPartition, Long> endOffsets, List<ConsumedRecord> records) {

    public FinalReads {
        endOffsets = Map.copyOf(Objects.requireNonNull(endOffsets, "endOffsets"));
        records = List.copyOf(records);
    }
}
