package io.tributary.broker.producer;

/**
 * Hands out producer ids that are never reused, across restarts and brokers (KIP-98). The
 * ZooKeeper implementation takes blocks of ids from {@code /latest_producer_id_block}.
 */
public interface ProducerIdManager {

    /**
     * A new producer id. May block on ZooKeeper when the current block is used up: never call
     * it on a network thread.
     *
     * @throws org.apache.kafka.common.errors.CoordinatorLoadInProgressException when no block can be obtained now (retriable)
     */
    long generateProducerId();
}
