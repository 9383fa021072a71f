package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The text checkpoint files and the partition metadata file. */
class CheckpointFileTest {

    @TempDir
    File dir;

    private final MockScheduler scheduler = new MockScheduler(new MockTime());

    private CheckpointFile<OffsetCheckpointFile.OffsetEntry> offsets() {
        return new CheckpointFile<>(new File(dir, "recovery-point-offset-checkpoint"), OffsetCheckpointFile.OffsetEntry::format,
            OffsetCheckpointFile.OffsetEntry::parse);
    }

    @Test
    void entriesRoundTripInKafkasFormat() throws IOException {
        List<OffsetCheckpointFile.OffsetEntry> entries = List.of(
            new OffsetCheckpointFile.OffsetEntry(new TopicPartition("events", 0), 42),
            new OffsetCheckpointFile.OffsetEntry(new TopicPartition("my.topic_with-dashes", 11), Long.MAX_VALUE));

        offsets().write(entries);

        assertThat(Files.readString(offsets().file().toPath()))
            .isEqualTo("0\n2\nevents 0 42\nmy.topic_with-dashes 11 " + Long.MAX_VALUE + "\n");
        assertThat(offsets().read()).isEqualTo(entries);
        assertThat(dir.listFiles((d, name) -> name.endsWith(".tmp"))).isEmpty();
    }

    @Test
    void anEmptyCheckpointAndAnAbsentOneHaveNoEntries() throws IOException {
        assertThat(offsets().read()).isEmpty();

        offsets().write(List.of());

        assertThat(Files.readString(offsets().file().toPath())).isEqualTo("0\n0\n");
        assertThat(offsets().read()).isEmpty();
    }

    @Test
    void aWriteReplacesThePreviousEntries() throws IOException {
        offsets().write(List.of(new OffsetCheckpointFile.OffsetEntry(new TopicPartition("a", 0), 1),
            new OffsetCheckpointFile.OffsetEntry(new TopicPartition("b", 0), 2)));

        offsets().write(List.of(new OffsetCheckpointFile.OffsetEntry(new TopicPartition("c", 3), 9)));

        assertThat(offsets().read()).containsExactly(new OffsetCheckpointFile.OffsetEntry(new TopicPartition("c", 3), 9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1\n0\n", "x\n0\n", "0\n", "0\ntwo\n", "0\n2\nevents 0 1\n", "0\n1\nevents 0\n",
        "0\n1\nevents zero 1\n", "0\n1\nevents 0 1 2\n"})
    void aMalformedCheckpointIsAnIOException(String content) throws IOException {
        Files.writeString(offsets().file().toPath(), content);

        assertThatThrownBy(() -> offsets().read()).isInstanceOf(IOException.class);
    }

    @Test
    void thePartitionMetadataFileHoldsTheTopicId() throws IOException {
        PartitionMetadataFile file = new PartitionMetadataFile(dir, scheduler);
        assertThat(file.read()).isEmpty();
        Uuid topicId = Uuid.randomUuid();

        file.record(topicId);
        file.maybeFlush();

        assertThat(Files.readString(new File(dir, PartitionMetadataFile.FILE_NAME).toPath()))
            .isEqualTo("version: 0\ntopic_id: " + topicId + "\n");
        assertThat(new PartitionMetadataFile(dir, scheduler).read()).hasValue(topicId);
    }

    @Test
    void aRecordedTopicIdIsReadAtOnceAndOnDiskOnlyOnceFlushed() throws IOException {
        PartitionMetadataFile file = new PartitionMetadataFile(dir, scheduler);
        Uuid topicId = Uuid.randomUuid();

        assertThat(file.record(topicId)).as("a new id").isTrue();
        assertThat(file.record(topicId)).as("the same id again").isFalse();

        assertThat(file.read()).hasValue(topicId);
        assertThat(new PartitionMetadataFile(dir, scheduler).read()).as("on disk").isEmpty();
        file.maybeFlush();
        assertThat(new PartitionMetadataFile(dir, scheduler).read()).as("on disk").hasValue(topicId);
        assertThat(new File(dir, PartitionMetadataFile.FILE_NAME + ".tmp")).doesNotExist();
    }

    @Test
    void aMalformedPartitionMetadataFileHasNoTopicId() throws IOException {
        Files.writeString(new File(dir, PartitionMetadataFile.FILE_NAME).toPath(), "version: 0\ntopic_id: not-a-uuid\n");

        assertThat(new PartitionMetadataFile(dir, scheduler).read()).isEmpty();
    }
}
