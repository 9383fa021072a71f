package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.records;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogCheckpointsTest {

    @TempDir
    File tmp;

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final List<PartitionLog> logs = new ArrayList<>();
    private File a;
    private File b;
    private LogCheckpoints checkpoints;

    @BeforeEach
    void dirs() throws IOException {
        a = Files.createDirectories(new File(tmp, "a").toPath()).toFile();
        b = Files.createDirectories(new File(tmp, "b").toPath()).toFile();
        checkpoints = new LogCheckpoints(List.of(a, b));
    }

    @AfterEach
    void close() {
        logs.forEach(PartitionLog::close);
    }

    private PartitionLog log(File parent, TopicPartition tp) throws IOException {
        File dir = Files.createDirectories(new File(parent, LogFileNames.logDirName(tp)).toPath()).toFile();
        PartitionLog log = LogLoader.load(dir, tp, config(), 0, 0, 0, true, scheduler, time,
            LogTestSupport.PRODUCER_ID_EXPIRATION_MS);
        logs.add(log);
        return log;
    }

    @Test
    void eachDirectoryListsItsOwnLogs() throws IOException {
        TopicPartition inA = new TopicPartition("events", 0);
        TopicPartition inB = new TopicPartition("events", 1);
        PartitionLog logA = log(a, inA);
        log(b, inB);
        logA.appendAsLeader(records(time.milliseconds(), "one", "two", "three"), 0);
        logA.flush(2);
        logA.updateHighWatermark(3);
        logA.maybeIncrementLogStartOffset(1, "test");

        checkpoints.writeRecoveryPointsAndLogStartOffsets(logs, () -> List.of(a, b));
        checkpoints.writeHighWatermarks(logs, () -> List.of(a, b));

        LogCheckpoints.DirOffsets offsetsA = checkpoints.read(a);
        assertThat(offsetsA.recoveryPoints()).containsExactly(Map.entry(inA, 2L));
        assertThat(offsetsA.logStartOffsets()).containsExactly(Map.entry(inA, 1L));
        assertThat(offsetsA.highWatermarks()).containsExactly(Map.entry(inA, 3L));
        assertThat(checkpoints.read(b).highWatermarks()).containsExactly(Map.entry(inB, 0L));
    }

    @Test
    void aDirectoryNotOnlineKeepsItsFiles() throws IOException {
        TopicPartition inB = new TopicPartition("events", 1);
        log(b, inB);
        checkpoints.writeHighWatermarks(logs, () -> List.of(a, b));
        logs.forEach(PartitionLog::close);
        logs.clear();

        checkpoints.writeHighWatermarks(logs, () -> List.of(a));

        assertThat(checkpoints.read(b).highWatermarks()).containsExactly(Map.entry(inB, 0L));
        assertThat(new File(a, LogCheckpoints.HIGH_WATERMARK_CHECKPOINT)).exists();
        assertThat(checkpoints.read(a).highWatermarks()).isEmpty();
    }

    @Test
    void missingFilesReadAsEmpty() {
        LogCheckpoints.DirOffsets offsets = checkpoints.read(a);

        assertThat(offsets.recoveryPoints()).isEmpty();
        assertThat(offsets.logStartOffsets()).isEmpty();
        assertThat(offsets.highWatermarks()).isEmpty();
    }
}
