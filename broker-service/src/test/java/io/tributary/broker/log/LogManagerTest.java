package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.offsets;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogManagerTest {

    private static final String CLUSTER = "cluster-A";
    private static final int BROKER = 1;
    private static final long MINUTE = 60_000L;
    private static final LogManager.Settings SETTINGS =
        new LogManager.Settings(1, MINUTE, MINUTE, MINUTE, 5_000, 86_400_000, 10 * MINUTE);

    @TempDir
    File tmp;

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final List<LogManager> started = new ArrayList<>();
    private List<File> dirs;
    private LogConfig topicConfig = config("segment.bytes", "1024");

    @BeforeEach
    void dirs() {
        dirs = List.of(new File(tmp, "a"), new File(tmp, "b"), new File(tmp, "c"));
    }

    @AfterEach
    void shutdownAll() {
        started.forEach(LogManager::shutdown);
    }

    /** A log manager over the three directories, locked, verified and loaded. */
    private LogManager start() throws IOException {
        LogManager manager = new LogManager(dirs, SETTINGS, scheduler, time);
        manager.lockAndVerifyDirs(CLUSTER, BROKER);
        manager.loadLogs(topic -> topicConfig);
        started.add(manager);
        return manager;
    }

    private void shutdown(LogManager manager) {
        started.remove(manager);
        manager.shutdown();
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition("events", partition);
    }

    private PartitionLog create(LogManager manager, int partition) {
        return manager.getOrCreateLog(tp(partition), Uuid.randomUuid(), topicConfig);
    }

    private Map<TopicPartition, Long> readCheckpoint(File dir, String name) throws IOException {
        Map<TopicPartition, Long> out = new HashMap<>();
        CheckpointFile<OffsetCheckpointFile.OffsetEntry> file = new CheckpointFile<>(new File(dir, name),
            OffsetCheckpointFile.OffsetEntry::format, OffsetCheckpointFile.OffsetEntry::parse);
        for (OffsetCheckpointFile.OffsetEntry e : file.read()) {
            out.put(e.tp(), e.offset());
        }
        return out;
    }

    @Test
    void newPartitionsGoToTheDirectoryWithTheFewestPartitions() throws IOException {
        LogManager manager = start();

        List<File> placed = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            placed.add(create(manager, p).dir().getParentFile());
        }

        assertThat(placed).containsExactly(dirs.get(0), dirs.get(1), dirs.get(2), dirs.get(0), dirs.get(1), dirs.get(2));
        assertThat(new File(dirs.get(1), "events-4")).isDirectory();
        assertThat(create(manager, 4).dir().getParentFile()).as("an existing log stays where it is").isEqualTo(dirs.get(1));
    }

    @Test
    void placementCountsThePartitionsFoundOnDisk() throws IOException {
        LogManager first = start();
        create(first, 0);
        create(first, 1);
        create(first, 2);
        create(first, 3);
        first.asyncDelete(tp(2));
        shutdown(first);
        // Now: a holds 0 and 3, b holds 1, c holds none.

        LogManager second = start();

        assertThat(create(second, 10).dir().getParentFile()).isEqualTo(dirs.get(2));
        assertThat(create(second, 11).dir().getParentFile()).isEqualTo(dirs.get(1));
        assertThat(create(second, 12).dir().getParentFile()).isEqualTo(dirs.get(2));
    }

    @Test
    void afterARestartEachPartitionIsFoundInTheDirectoryHoldingIt() throws IOException {
        LogManager first = start();
        Map<TopicPartition, File> where = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            PartitionLog log = create(first, p);
            for (int i = 0; i <= p; i++) {
                log.appendAsLeader(records(time.milliseconds(), "p" + p + "-" + i), 0);
            }
            where.put(tp(p), log.dir());
        }
        shutdown(first);

        LogManager second = start();

        assertThat(second.allLogs()).hasSize(4);
        for (int p = 0; p < 4; p++) {
            PartitionLog log = second.getLog(tp(p)).orElseThrow();
            assertThat(log.dir()).isEqualTo(where.get(tp(p)));
            assertThat(log.logEndOffset()).isEqualTo(p + 1);
            assertThat(log.topicId()).isPresent();
        }
    }

    @Test
    void aNewLogsTopicIdIsWrittenByTheSchedulerNotByTheThreadCreatingIt() throws IOException {
        LogManager manager = start();
        Uuid topicId = Uuid.randomUuid();

        PartitionLog log = manager.getOrCreateLog(tp(0), topicId, topicConfig);

        File file = new File(log.dir(), "partition.metadata");
        assertThat(log.topicId()).hasValue(topicId);
        assertThat(file).as("no fsync of it while the log is created").doesNotExist();
        scheduler.tick();
        assertThat(file).content().isEqualTo("version: 0\ntopic_id: " + topicId + "\n");
    }

    @Test
    void aTopicIdNotWrittenYetIsWrittenWhenTheLogCloses() throws IOException {
        LogManager first = start();
        Uuid topicId = Uuid.randomUuid();
        first.getOrCreateLog(tp(0), topicId, topicConfig);

        shutdown(first);

        assertThat(start().getLog(tp(0)).orElseThrow().topicId()).hasValue(topicId);
    }

    @Test
    void aDirectoryOfAnotherClusterOrBrokerIsRefused() throws IOException {
        shutdown(start());

        LogManager otherCluster = new LogManager(dirs, SETTINGS, scheduler, time);
        assertThatThrownBy(() -> otherCluster.lockAndVerifyDirs("cluster-B", BROKER))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("cluster-A");
        LogManager otherBroker = new LogManager(dirs, SETTINGS, scheduler, time);
        assertThatThrownBy(() -> otherBroker.lockAndVerifyDirs(CLUSTER, 2))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("broker 1");

        // A failed start leaves no lock behind: the right broker still starts.
        LogManager right = start();
        assertThat(right.logDirs()).isEqualTo(dirs);
    }

    @Test
    void theLockFileKeepsASecondLogManagerOut() throws IOException {
        LogManager first = start();

        LogManager second = new LogManager(List.of(dirs.get(1)), SETTINGS, scheduler, time);
        assertThatThrownBy(() -> second.lockAndVerifyDirs(CLUSTER, BROKER))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("in use");

        shutdown(first);
        LogManager third = new LogManager(List.of(dirs.get(1)), SETTINGS, scheduler, time);
        third.lockAndVerifyDirs(CLUSTER, BROKER);
        third.shutdown();
    }

    @Test
    void checkpointsAreWrittenAtShutdownAndReadAtLoad() throws IOException {
        LogManager first = start();
        PartitionLog log = create(first, 0);
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(records(time.milliseconds(), "v" + i), 0);
        }
        log.updateHighWatermark(8);
        log.maybeIncrementLogStartOffset(3, "DeleteRecords");
        File dir = log.dir().getParentFile();

        shutdown(first);

        assertThat(readCheckpoint(dir, LogCheckpoints.RECOVERY_POINT_CHECKPOINT)).containsExactly(Map.entry(tp(0), 10L));
        assertThat(readCheckpoint(dir, LogCheckpoints.LOG_START_OFFSET_CHECKPOINT)).containsExactly(Map.entry(tp(0), 3L));
        assertThat(readCheckpoint(dir, LogCheckpoints.HIGH_WATERMARK_CHECKPOINT)).containsExactly(Map.entry(tp(0), 8L));
        assertThat(readCheckpoint(dirs.get(2), LogCheckpoints.HIGH_WATERMARK_CHECKPOINT)).isEmpty();
        assertThat(new File(dir, LogManager.CLEAN_SHUTDOWN_FILE)).exists();

        LogManager second = start();
        PartitionLog reloaded = second.getLog(tp(0)).orElseThrow();

        assertThat(reloaded.logStartOffset()).isEqualTo(3);
        assertThat(reloaded.highWatermark()).isEqualTo(8);
        assertThat(reloaded.recoveryPoint()).isEqualTo(10);
        assertThat(new File(dir, LogManager.CLEAN_SHUTDOWN_FILE)).as("removed once loaded").doesNotExist();
    }

    @Test
    void unreadableCheckpointFilesAreTolerated() throws IOException {
        LogManager first = start();
        PartitionLog log = create(first, 0);
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(records(time.milliseconds(), "v" + i), 2);
        }
        log.updateHighWatermark(5);
        File dir = log.dir().getParentFile();
        File partitionDir = log.dir();
        shutdown(first);
        Files.writeString(new File(dir, LogCheckpoints.RECOVERY_POINT_CHECKPOINT).toPath(), "0\n1\nevents zero\n");
        Files.writeString(new File(dir, LogCheckpoints.LOG_START_OFFSET_CHECKPOINT).toPath(), "garbage");
        Files.write(new File(dir, LogCheckpoints.HIGH_WATERMARK_CHECKPOINT).toPath(), new byte[] {0, 1, 2});
        Files.writeString(new File(partitionDir, LeaderEpochFileCache.FILE_NAME).toPath(), "0\n5\n1 0\n");
        Files.delete(new File(dir, LogManager.CLEAN_SHUTDOWN_FILE).toPath());

        LogManager second = start();

        PartitionLog reloaded = second.getLog(tp(0)).orElseThrow();
        assertThat(reloaded.logEndOffset()).isEqualTo(5);
        assertThat(offsets(readAll(reloaded, 0))).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(reloaded.leaderEpochCache().entries()).as("rebuilt by recovery").containsExactly(new EpochEntry(2, 0));
        assertThat(reloaded.appendAsLeader(records(time.milliseconds(), "next"), 2).firstOffset()).isEqualTo(5);
    }

    @Test
    void withoutTheCleanShutdownMarkerLogsAreRecovered() throws IOException {
        LogManager first = start();
        PartitionLog log = create(first, 0);
        for (int i = 0; i < 3; i++) {
            log.appendAsLeader(records(time.milliseconds(), "v" + i), 0);
        }
        File segment = LogFileNames.logFile(log.dir(), 0, "");
        long length = segment.length();
        shutdown(first);
        try (RandomAccessFile raf = new RandomAccessFile(segment, "rw")) {
            raf.seek(length);
            raf.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
        }
        Files.writeString(new File(log.dir().getParentFile(), LogManager.CLEAN_SHUTDOWN_FILE).toPath(), "");

        LogManager second = start();
        assertThat(segment.length()).as("trusted after a clean shutdown").isEqualTo(length + 20);
        second.getLog(tp(0)).orElseThrow().closeHandlers();
        started.remove(second);

        // The second manager "crashed": no marker, so the next start recovers.
        LogManager third = new LogManager(dirs, SETTINGS, scheduler, time);
        third.loadLogs(topic -> topicConfig);
        started.add(third);
        assertThat(segment.length()).isEqualTo(length);
        assertThat(third.getLog(tp(0)).orElseThrow().logEndOffset()).isEqualTo(3);
    }

    @Test
    void asyncDeleteRenamesTheDirectoryAndDeletesItAfterTheDelay() throws IOException {
        topicConfig = config("segment.bytes", "1024", "file.delete.delay.ms", "20000");
        LogManager manager = start();
        PartitionLog log = create(manager, 0);
        log.appendAsLeader(records(time.milliseconds(), "doomed"), 0);
        File dir = log.dir();

        manager.asyncDelete(tp(0));

        assertThat(manager.getLog(tp(0))).isEmpty();
        assertThat(dir).doesNotExist();
        File[] renamed = dir.getParentFile().listFiles((d, name) -> name.startsWith("events-0.") && name.endsWith("-delete"));
        assertThat(renamed).hasSize(1);
        assertThat(new File(renamed[0], "00000000000000000000.log")).exists();

        time.advance(19_999);
        assertThat(renamed[0]).exists();
        time.advance(1);
        assertThat(renamed[0]).doesNotExist();
        assertThat(create(manager, 0).logEndOffset()).as("a new log of the same name starts empty").isZero();
    }

    @Test
    void aDirectoryLeftForDeletionIsDeletedAtTheNextStart() throws IOException {
        LogManager first = start();
        create(first, 0);
        first.asyncDelete(tp(0));
        shutdown(first);
        File[] leftover = dirs.get(0).listFiles((d, name) -> name.endsWith("-delete"));
        assertThat(leftover).hasSize(1);

        LogManager second = start();
        scheduler.tick();

        assertThat(leftover[0]).doesNotExist();
        assertThat(second.allLogs()).isEmpty();
    }

    @Test
    void retentionAndCheckpointsRunOnTheirSchedule() throws IOException {
        topicConfig = config("segment.bytes", "1024", "retention.ms", Long.toString(2 * MINUTE),
            "file.delete.delay.ms", "10000");
        LogManager manager = start();
        manager.startup();
        PartitionLog log = create(manager, 0);
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(records(time.milliseconds(), value("r" + i, 300)), 0);
        }
        log.updateHighWatermark(5);
        File dir = log.dir().getParentFile();

        time.advance(30_000);
        assertThat(log.segmentBaseOffsets()).as("not old enough yet").containsExactly(0L, 2L, 4L);
        assertThat(readCheckpoint(dir, LogCheckpoints.RECOVERY_POINT_CHECKPOINT)).containsKey(tp(0));

        time.advance(2 * MINUTE);
        assertThat(log.segmentBaseOffsets()).containsExactly(5L);
        assertThat(log.logStartOffset()).isEqualTo(5);
        assertThat(LogFileNames.logFile(log.dir(), 0, LogFileNames.DELETED_SUFFIX)).exists();

        time.advance(10_000);
        assertThat(LogFileNames.logFile(log.dir(), 0, LogFileNames.DELETED_SUFFIX)).doesNotExist();
        assertThat(readCheckpoint(dir, LogCheckpoints.LOG_START_OFFSET_CHECKPOINT)).containsEntry(tp(0), 5L);
    }

    @Test
    void logsAreFlushedEveryFlushMs() throws IOException {
        topicConfig = config("flush.ms", "45000");
        LogManager manager = start();
        manager.startup();
        PartitionLog log = create(manager, 0);
        log.appendAsLeader(records(time.milliseconds(), "a", "b"), 0);

        time.advance(30_000);
        assertThat(log.recoveryPoint()).as("flushed 30 s ago at the latest").isZero();
        time.advance(MINUTE);
        assertThat(log.recoveryPoint()).isEqualTo(2);
    }

    @Test
    void theSamePartitionInTwoDirectoriesIsRefusedAndOtherDirectoriesIgnored() throws IOException {
        Files.createDirectories(new File(dirs.get(0), "lost+found").toPath());
        Files.createDirectories(new File(dirs.get(0), "events-0").toPath());
        LogManager manager = new LogManager(dirs, SETTINGS, scheduler, time);
        manager.loadLogs(topic -> topicConfig);
        assertThat(manager.allLogs()).extracting(PartitionLog::topicPartition).containsExactly(tp(0));
        manager.shutdown();

        Files.createDirectories(new File(dirs.get(2), "events-0").toPath());
        LogManager twice = new LogManager(dirs, SETTINGS, scheduler, time);
        assertThatThrownBy(() -> twice.loadLogs(topic -> topicConfig))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("Duplicate");
        twice.allLogs().forEach(PartitionLog::close);
    }

    @Test
    void idleProducersExpireOnSchedule() throws IOException {
        LogManager.Settings shortExpiry = new LogManager.Settings(1, MINUTE, MINUTE, MINUTE, 5_000, 60_000, 30_000);
        LogManager manager = new LogManager(dirs, shortExpiry, scheduler, time);
        manager.lockAndVerifyDirs(CLUSTER, BROKER);
        manager.loadLogs(topic -> topicConfig);
        started.add(manager);
        manager.startup();
        PartitionLog log = create(manager, 0);
        log.appendAsLeader(LogTestSupport.idempotent(5L, (short) 0, 0, time.milliseconds(), "a"), 0);

        time.advance(30_000);
        assertThat(log.producerStateManager().lastEntry(5L)).isPresent();
        time.advance(30_000);
        assertThat(log.producerStateManager().lastEntry(5L)).isEmpty();
    }
}
