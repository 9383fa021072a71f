package io.tributary.broker.log;

import io.tributary.broker.scheduler.Scheduler;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code partition.metadata} file of a partition directory, in Kafka's format:
 * <pre>
 *   version: 0
 *   topic_id: 7gB3xZQ4S0mN0d1E5vL3aQ
 * </pre>
 * It ties the directory to one incarnation of its topic: a directory whose topic id differs
 * from the cluster's belongs to a deleted topic of the same name and is removed.
 *
 * <p>The topic id is read from disk once and then kept in memory. A new id is {@linkplain #assign
 * assigned} in memory and written by {@link #maybeFlush} (a temporary file, fsynced, renamed over the
 * old one) in a task of the log's scheduler, as Kafka's {@code UnifiedLog} does, and at the latest
 * before the log's directory is renamed or the log closes: creating a partition's log then costs no
 * fsync of this file on the thread that applies metadata. A crash before the flush leaves no file, or
 * the old one, and the id is recorded again from ZooKeeper when the partition's state is next applied.
 * Thread-safe: the file has a monitor of its own, not the log's lock, which appends take.
 */
public final class PartitionMetadataFile {

    static final String FILE_NAME = "partition.metadata";

    private static final Logger log = LoggerFactory.getLogger(PartitionMetadataFile.class);

    private final Scheduler scheduler;
    private File file;
    /** The topic id on disk or recorded; null until first read. */
    private Optional<Uuid> topicId;
    /** Recorded and not yet on disk. */
    private Uuid dirty;

    PartitionMetadataFile(File dir, Scheduler scheduler) {
        this.file = new File(dir, FILE_NAME);
        this.scheduler = scheduler;
    }

    /** The topic id recorded, or else stored on disk if the file exists and is well formed. */
    public synchronized Optional<Uuid> read() {
        if (topicId == null) {
            topicId = readFile();
        }
        return topicId;
    }

    private Optional<Uuid> readFile() {
        if (!file.exists()) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
            for (String line : lines) {
                if (line.startsWith("topic_id:")) {
                    return Optional.of(Uuid.fromString(line.substring("topic_id:".length()).trim()));
                }
            }
            return Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Records {@code id} as this directory's topic id, in memory until {@link #maybeFlush}.
     *
     * @return whether it differs from the id read or recorded before (so a flush is due)
     */
    public synchronized boolean record(Uuid id) {
        if (id.equals(read().orElse(null))) {
            return false;
        }
        topicId = Optional.of(id);
        dirty = id;
        return true;
    }

    /** {@link #record}s {@code id} and, when it is new, schedules {@link #flushQuietly}. */
    public void assign(Uuid id) {
        if (record(id)) {
            scheduler.scheduleOnce("flush-partition-metadata-" + file.getParentFile().getName(), this::flushQuietly);
        }
    }

    /** {@link #maybeFlush}, an I/O error logged (the id stays recorded, written again on the next flush). */
    void flushQuietly() {
        try {
            maybeFlush();
        } catch (IOException e) {
            log.error("Could not write {}; trying again before a rename or on close", file, e);
        }
    }

    /** Writes the recorded topic id durably, if one is not on disk yet. */
    public synchronized void maybeFlush() throws IOException {
        if (dirty == null) {
            return;
        }
        File tmp = new File(file.getPath() + ".tmp");
        Files.writeString(tmp.toPath(), "version: 0\ntopic_id: " + dirty + "\n", StandardCharsets.UTF_8);
        try (var channel = java.nio.channels.FileChannel.open(tmp.toPath(), java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        dirty = null;
    }

    synchronized void updateParentDir(File dir) {
        this.file = new File(dir, FILE_NAME);
    }
}
