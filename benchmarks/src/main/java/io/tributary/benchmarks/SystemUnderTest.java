package io.tributary.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * What one benchmark run sends its records to and measures: one broker process
 * ({@link BrokerUnderTest}) or a cluster of them ({@link BrokerCluster}), whose CPU is the sum of
 * its processes'.
 */
interface SystemUnderTest {

    /** Short name, as printed in the tables ({@code kafka}, {@code tributary}, {@code baseline}). */
    String name();

    /** The Kafka clients' bootstrap address(es), comma-separated. */
    String bootstrap();

    /** CPU seconds the broker process(es) have used so far (user + system), summed. */
    double cpuSeconds();

    /** CPU seconds their JIT compiler threads have used so far, summed (see {@link CpuClock#compilerSeconds}). */
    double jitCpuSeconds();

    /** Whether every broker process is still running. */
    boolean isAlive();

    /** The last {@code lines} lines of each broker's log, each under a line naming the log file. */
    String logTail(int lines);

    /** Process ids and client addresses, for the start-up line. */
    String describe();

    /** Starts the broker(s) and waits until clients can use them; returns the time taken. */
    Duration start() throws IOException, InterruptedException;

    /** Stops the broker(s): SIGTERM, then a forced kill after {@code grace}. Safe to call more than once. */
    void stop(Duration grace);

    /**
     * Creates {@code topic} with {@code configs} and this system's replication (factor 1 on one
     * broker), and waits until every partition has a leader and all its replicas in sync.
     */
    void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception;

    /** See {@link BrokerUnderTest#readShareGroupFromEarliest}. */
    void readShareGroupFromEarliest(String group) throws Exception;
}
