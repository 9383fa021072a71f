package io.tributary.broker.log;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * The {@code partition.metadata} file of a partition directory, in Kafka's format:
 * <pre>
 *   version: 0
 *   topic_id: 7gB3xZQ4S0mN0d1E5vL3aQ
 * </pre>
 * It ties the directory to one incarnation of its topic: a directory whose topic id differs
 * from the cluster's belongs to a deleted topic of the same name and is removed. Thread-safe.
 */
public final class PartitionMetadataFile {

    static final String FILE_NAME = "partition.metadata";

    private volatile File file;

    PartitionMetadataFile(File dir) {
        this.file = new File(dir, FILE_NAME);
    }

    /** The stored topic id, if the file exists and is well formed. */
    public synchronized Optional<Uuid> read() {
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

    /** Records the topic id, durably. */
    public synchronized void write(Uuid topicId) throws IOException {
        File tmp = new File(file.getPath() + ".tmp");
        Files.writeString(tmp.toPath(), "version: 0\ntopic_id: " + topicId + "\n", StandardCharsets.UTF_8);
        try (var channel = java.nio.channels.FileChannel.open(tmp.toPath(), java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    void updateParentDir(File dir) {
        this.file = new File(dir, FILE_NAME);
    }
}
