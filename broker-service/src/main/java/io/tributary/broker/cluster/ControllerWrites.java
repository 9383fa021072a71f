package io.tributary.broker.cluster;

import org.apache.kafka.common.TopicPartition;

/**
 * The controller's writes, each a ZooKeeper transaction that also checks the version of
 * {@code /controller_epoch} (so a deposed controller's late write fails) and the version of the
 * node written (so a concurrent change is not overwritten). Called on the controller's event thread.
 */
interface ControllerWrites {

    /** @return false when the partition's state changed meanwhile */
    boolean writePartitionState(TopicPartition tp, LeaderAndIsr state, String why);

    /** @return false when the topic's node changed meanwhile */
    boolean writeTopicAssignment(TopicAssignment assignment, String why);

    /** The epoch of the active controller. */
    int controllerEpoch();
}
