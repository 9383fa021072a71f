package io.tributary.broker.replica;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * What DescribeLogDirs reports of one log directory.
 *
 * @param path        absolute path
 * @param partitions  partition to log size, bytes
 * @param totalBytes  capacity of its file system, bytes
 * @param usableBytes free space usable by the broker, bytes
 * @param offline     whether it went offline after an I/O error (KIP-112)
 */
public record LogDirInfo(String path, Map<TopicPartition, Long> partitions, long totalBytes, long usableBytes, boolean offline) {
}
