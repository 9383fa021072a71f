package io.tributary.broker.replica;

import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.LogConfig;
import io.tributary.broker.log.LogDirFailureChannel;
import io.tributary.broker.log.LogManager;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Real logs for the replica layer's unit tests: a log manager on one directory, on a mock clock. */
final class ReplicaTestLogs {

    private ReplicaTestLogs() {
    }

    /** A log manager over {@code dir} whose periodic work runs only when {@code time} is advanced. */
    static LogManager logManager(Path dir, MockTime time) {
        return logManager(dir, time, new LogDirFailureChannel());
    }

    /** As {@link #logManager(Path, MockTime)}, offering the directories it takes offline to {@code failures}. */
    static LogManager logManager(Path dir, MockTime time, LogDirFailureChannel failures) {
        return new LogManager(List.of(dir.toFile()), new LogManager.Settings(1, 300_000, 1000, 60_000, 5000,
            86_400_000, 600_000), new MockScheduler(time), time, failures);
    }

    /** The broker's default topic config. */
    static LogConfig defaultConfig() {
        return LogConfig.create(LogConfig.brokerDefaults(BrokerProperties.bind(Map.of())), Map.of());
    }
}
