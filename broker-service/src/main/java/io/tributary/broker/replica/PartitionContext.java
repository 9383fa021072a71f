package io.tributary.broker.replica;

import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Time;

/**
 * What every {@link Partition} of a broker shares.
 *
 * @param localBrokerId       this broker
 * @param isrUpdater          where ISR changes are written
 * @param time                clock for lag checks
 * @param replicaLagTimeMaxMs {@code replica.lag.time.max.ms}
 * @param onStateChanged      called (outside locks) when the high watermark or ISR changed
 *                            asynchronously, so waiting requests can complete
 * @param isrEligible         whether a broker may join a partition's ISR: registered, not in
 *                            controlled shutdown (KIP-841), its replica online and not being
 *                            removed by a reassignment
 * @param stats               where written ISR shrinks and expansions are counted
 */
public record PartitionContext(int localBrokerId, IsrUpdater isrUpdater, Time time, long replicaLagTimeMaxMs,
                               Consumer<TopicPartition> onStateChanged,
                               BiPredicate<TopicPartition, Integer> isrEligible, ReplicaStats stats) {
}
