package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.log.LogDirFailureChannel;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log-dir failure handler thread over a real log manager: the log manager offers each
 * directory it takes offline, and the handler thread, not the thread that met the error, takes the
 * partitions offline and publishes them.
 */
class LogDirFailureHandlerTest {

    @TempDir
    Path dir;

    private final MockTime time = new MockTime();
    private final LogDirFailureChannel channel = new LogDirFailureChannel();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final TopicPartition lost = new TopicPartition("t", 0);

    private LogDirFailureHandler handler(boolean publishFails) {
        return new LogDirFailureHandler(channel, failed -> {
            calls.add("offline " + failed.getName() + " on " + Thread.currentThread().getName());
            return Set.of(lost);
        }, offline -> {
            calls.add("publish " + offline);
            if (publishFails) {
                throw new IllegalStateException("ZooKeeper is away");
            }
        }, "test-log-dir-failure-handler");
    }

    @Test
    void aDirectoryThatFailedBeforeTheHandlerStartedIsHandledOnItsThreadOnceItStarts() throws Exception {
        LogManager logManager = ReplicaTestLogs.logManager(dir, time, channel);
        File logDir = dir.toFile();

        assertThat(logManager.handleLogDirFailure(new File(logDir, "t-0"), "disk error")).isTrue();
        assertThat(logManager.handleLogDirFailure(logDir, "again")).isFalse();
        assertThat(calls).as("nothing runs on the failing thread").isEmpty();

        try (LogDirFailureHandler handler = handler(false)) {
            handler.start();
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(calls).containsExactly(
                "offline " + logDir.getName() + " on test-log-dir-failure-handler", "publish [t-0]"));
        }
        assertThat(logManager.offlineLogDirs()).containsExactly(logDir);
    }

    @Test
    void aFailedPublicationLeavesTheThreadHandlingTheNextDirectory() throws Exception {
        File first = dir.resolve("a").toFile();
        File second = dir.resolve("b").toFile();
        LogManager logManager = new LogManager(List.of(first, second), new LogManager.Settings(1, 300_000, 1000,
            60_000, 5000, 86_400_000, 600_000), new io.tributary.broker.testing.MockScheduler(time), time, channel);

        try (LogDirFailureHandler handler = handler(true)) {
            handler.start();
            logManager.handleLogDirFailure(first, "disk error");
            logManager.handleLogDirFailure(second, "disk error");
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(calls).containsExactly(
                "offline a on test-log-dir-failure-handler", "publish [t-0]",
                "offline b on test-log-dir-failure-handler", "publish [t-0]"));
        }
    }
}
