package io.tributary.broker.log;

import java.io.File;
import org.apache.kafka.common.TopicPartition;

/**
 * File and directory names of the log, as Kafka names them: segment files are the 20-digit
 * base offset plus {@code .log}, {@code .index}, {@code .timeindex}, {@code .snapshot};
 * a partition directory is {@code <topic>-<partition>}.
 */
final class LogFileNames {

    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    static final String TXN_INDEX_SUFFIX = TransactionIndex.SUFFIX;
    static final String SNAPSHOT_SUFFIX = ".snapshot";
    /** Added to segment files removed from the log, awaiting deletion. */
    static final String DELETED_SUFFIX = ".deleted";
    /** Added to the files of a segment the cleaner is writing; deleted on load (the clean is abandoned). */
    static final String CLEANED_SUFFIX = ".cleaned";
    /** Added to a cleaned segment once it is durable and committed to replace old segments; completed on load. */
    static final String SWAP_SUFFIX = ".swap";
    /** Added to a partition directory awaiting deletion: {@code <topic>-<p>.<uuid>-delete}. */
    static final String DELETE_DIR_SUFFIX = "-delete";

    private LogFileNames() {
    }

    static String filenamePrefixFromOffset(long offset) {
        return String.format("%020d", offset);
    }

    static File logFile(File dir, long offset, String suffix) {
        return new File(dir, filenamePrefixFromOffset(offset) + LOG_SUFFIX + suffix);
    }

    static File offsetIndexFile(File dir, long offset, String suffix) {
        return new File(dir, filenamePrefixFromOffset(offset) + INDEX_SUFFIX + suffix);
    }

    static File timeIndexFile(File dir, long offset, String suffix) {
        return new File(dir, filenamePrefixFromOffset(offset) + TIME_INDEX_SUFFIX + suffix);
    }

    static File txnIndexFile(File dir, long offset, String suffix) {
        return new File(dir, filenamePrefixFromOffset(offset) + TXN_INDEX_SUFFIX + suffix);
    }

    static File producerSnapshotFile(File dir, long offset) {
        return new File(dir, filenamePrefixFromOffset(offset) + SNAPSHOT_SUFFIX);
    }

    /** The base offset encoded in a segment file name. */
    static long offsetFromFileName(String name) {
        return Long.parseLong(name.substring(0, name.indexOf('.')));
    }

    static String replaceSuffix(String name, String oldSuffix, String newSuffix) {
        if (!name.endsWith(oldSuffix)) {
            throw new IllegalArgumentException("Expected " + name + " to end with " + oldSuffix);
        }
        return name.substring(0, name.length() - oldSuffix.length()) + newSuffix;
    }

    /** The directory name of a partition's log. */
    static String logDirName(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    /**
     * Parses a partition directory name, {@code <topic>-<partition>}.
     *
     * @return the partition, or null when the name is not one
     */
    static TopicPartition parseTopicPartitionName(String name) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0 || dash == name.length() - 1) {
            return null;
        }
        try {
            int partition = Integer.parseInt(name.substring(dash + 1));
            if (partition < 0) {
                return null;
            }
            return new TopicPartition(name.substring(0, dash), partition);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
