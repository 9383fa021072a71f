package io.tributary.broker.cluster;

/**
 * Where a broker is in its life, with Kafka's codes ({@code org.apache.kafka.metadata.BrokerState}),
 * reported as {@code kafka_server_kafkaserver_brokerstate} and read by the health groups: a broker
 * is ready only while {@link #RUNNING}.
 */
public enum BrokerState {
    /** Not started, or stopped. */
    NOT_RUNNING(0),
    /** Connecting to ZooKeeper and opening its log directories. */
    STARTING(1),
    /** Loading and recovering logs (after an unclean stop this can take long). */
    RECOVERY(2),
    /** Registered and serving. */
    RUNNING(3),
    /** Stopping: waiting for its leaderships to move away (controlled shutdown). */
    PENDING_CONTROLLED_SHUTDOWN(6),
    /** Stopping: closing listeners and logs. */
    SHUTTING_DOWN(7);

    private final int code;

    BrokerState(int code) {
        this.code = code;
    }

    /** Kafka's numeric code of this state. */
    public int code() {
        return code;
    }
}
