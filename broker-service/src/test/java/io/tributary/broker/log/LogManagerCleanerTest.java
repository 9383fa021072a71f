package io.tributary.broker.log;

import static io.tributary.broker.log.CleanerTestSupport.fat;
import static io.tributary.broker.log.CleanerTestSupport.keyed;
import static io.tributary.broker.log.CleanerTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.config.LogConfig;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cleaner as the log manager runs it: its threads, its checkpoint file, deletion and retention. */
class LogManagerCleanerTest {

    private static final long MINUTE = 60_000L;
    private static final LogManager.Settings SETTINGS =
        new LogManager.Settings(1, MINUTE, MINUTE, MINUTE, 5_000, 86_400_000, 10 * MINUTE);
    private static final TopicPartition TP = new TopicPartition("compacted", 0);

    @TempDir
    File tmp;

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private LogManager manager;
    private File dir;

    @BeforeEach
    void start() throws IOException {
        dir = new File(tmp, "data");
        manager = new LogManager(List.of(dir), SETTINGS.withCleaner(new LogCleaner.Config(1, 1 << 20, 64 * 1024, 20)),
            scheduler, time);
        manager.lockAndVerifyDirs("cluster", 1);
        manager.loadLogs(topic -> config("segment.bytes", "1024"));
    }

    @AfterEach
    void stop() {
        manager.shutdown();
    }

    private PartitionLog createAndFill(LogConfig config, int rounds) {
        PartitionLog log = manager.getOrCreateLog(TP, Uuid.randomUuid(), config);
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 5; k++) {
                log.appendAsLeader(keyed(time.milliseconds(), "k" + k, fat("r" + r)), 0);
            }
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
        return log;
    }

    private static LogConfig compacted(String... more) {
        String[] all = new String[more.length + 6];
        System.arraycopy(new String[] {"segment.bytes", "1024", "cleanup.policy", "compact",
            "min.cleanable.dirty.ratio", "0.01"}, 0, all, 0, 6);
        System.arraycopy(more, 0, all, 6, more.length);
        return config(all);
    }

    @Test
    void theCleanerThreadCleansCompactedLogsInTheBackground() throws Exception {
        PartitionLog log = createAndFill(compacted(), 6);
        manager.startup();

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
            .until(() -> manager.cleaner().orElseThrow().checkpoints().containsKey(TP));
        assertThat(readAll(log)).hasSize(5);
        assertThat(new File(dir, LogCleanerManager.CLEANER_CHECKPOINT)).exists();
    }

    @Test
    void aDeletedLogLosesItsCheckpointSoALogCreatedAgainIsCleanedFromItsStart() {
        createAndFill(compacted(), 6);
        LogCleaner cleaner = manager.cleaner().orElseThrow();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        assertThat(cleaner.checkpoints()).containsEntry(TP, 30L);

        manager.asyncDelete(TP);
        assertThat(cleaner.checkpoints()).doesNotContainKey(TP);

        PartitionLog recreated = createAndFill(compacted(), 2);
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        assertThat(cleaner.checkpoints()).containsEntry(TP, 10L);
        assertThat(readAll(recreated)).hasSize(5);
    }

    @Test
    void retentionOfCompactedLogsRunsOnTheCleanerNotTheRetentionTask() {
        PartitionLog log = manager.getOrCreateLog(TP, Uuid.randomUuid(),
            compacted("cleanup.policy", "compact,delete", "retention.ms", Long.toString(10 * MINUTE)));
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(keyed(time.milliseconds(), "old" + i, fat("old")), 0);
        }
        log.roll();
        time.advance(11 * MINUTE);
        for (int i = 0; i < 5; i++) {
            log.appendAsLeader(keyed(time.milliseconds(), "new" + i, fat("new")), 0);
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());

        manager.cleanupLogs();
        assertThat(log.logStartOffset()).as("left to the cleaner").isZero();

        manager.cleaner().orElseThrow().cleanFilthiestLog();
        assertThat(log.logStartOffset()).isEqualTo(10);
        assertThat(readAll(log)).extracting(CleanerTestSupport.KeyValue::key)
            .containsExactly("new0", "new1", "new2", "new3", "new4");
    }
}
