package io.tributary.broker.replica;

import org.apache.kafka.common.TopicPartition;

/**
 * Told when this broker starts or stops leading a partition; the group coordinator uses it to
 * load and unload the groups of {@code __consumer_offsets} partitions. Called on the metadata
 * event thread; implementations hand long work to their own threads.
 */
public interface PartitionLeadershipListener {

    /** This broker now leads {@code tp} in {@code leaderEpoch}. */
    void onBecomeLeader(TopicPartition tp, int leaderEpoch);

    /** This broker no longer leads {@code tp} (follower now, or the partition was removed). */
    void onResign(TopicPartition tp);
}
