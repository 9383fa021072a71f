package io.tributary.broker.replica;

import io.tributary.broker.log.LogManager;
import io.tributary.broker.log.PartitionLog;
import java.io.File;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * Turns an I/O error in one partition's log into the failure of its whole log directory
 * (KIP-112): the {@link LogManager} takes the directory offline and calls its failure handler
 * ({@link LogDirFailureHandler}). Thread-safe.
 */
final class StorageErrors {

    private final HostedPartitions partitions;
    private final LogManager logManager;

    StorageErrors(HostedPartitions partitions, LogManager logManager) {
        this.partitions = partitions;
        this.logManager = logManager;
    }

    void handle(TopicPartition tp, KafkaStorageException e) {
        File dir = partitions.get(tp).flatMap(Partition::log).map(PartitionLog::dir).orElse(null);
        if (dir != null) {
            logManager.handleLogDirFailure(dir, tp + ": " + e.getMessage());
        }
    }
}
