package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A per-log-directory checkpoint of one offset per partition, in Kafka's format
 * ({@link CheckpointFile} with {@code topic partition offset} lines): the recovery points, log
 * start offsets and high watermarks of the partitions in the directory. Thread-safe.
 */
final class OffsetCheckpointFile {

    private static final Logger log = LoggerFactory.getLogger(OffsetCheckpointFile.class);

    /** One line: {@code topic partition offset}. */
    record OffsetEntry(TopicPartition tp, long offset) {
        static String format(OffsetEntry e) {
            return e.tp.topic() + " " + e.tp.partition() + " " + e.offset;
        }

        static OffsetEntry parse(String line) {
            String[] parts = line.split("\\s+");
            if (parts.length != 3) {
                throw new IllegalArgumentException("expected 'topic partition offset', got '" + line + "'");
            }
            return new OffsetEntry(new TopicPartition(parts[0], Integer.parseInt(parts[1])), Long.parseLong(parts[2]));
        }
    }

    private final CheckpointFile<OffsetEntry> checkpoint;

    OffsetCheckpointFile(File dir, String name) {
        this.checkpoint = new CheckpointFile<>(new File(dir, name), OffsetEntry::format, OffsetEntry::parse);
    }

    File file() {
        return checkpoint.file();
    }

    /**
     * The checkpointed offsets; an unreadable file is logged and read as empty, so the affected
     * logs are recovered in full rather than the broker refusing to start.
     */
    Map<TopicPartition, Long> read() {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        try {
            for (OffsetEntry e : checkpoint.read()) {
                offsets.put(e.tp(), e.offset());
            }
        } catch (IOException e) {
            log.warn("Ignoring unreadable checkpoint {}: {}; affected logs are recovered in full", file(), e.getMessage());
        }
        return offsets;
    }

    /** Replaces the checkpoint; a failure is logged (the previous checkpoint stays). */
    void write(Map<TopicPartition, Long> offsets) {
        List<OffsetEntry> entries = new ArrayList<>();
        offsets.forEach((tp, offset) -> entries.add(new OffsetEntry(tp, offset)));
        try {
            checkpoint.write(entries);
        } catch (IOException e) {
            log.error("Could not write checkpoint {}", file(), e);
        }
    }
}
