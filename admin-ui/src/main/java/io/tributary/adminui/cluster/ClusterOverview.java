package io.tributary.adminui.cluster;

import java.util.List;

/**
 * What {@code GET /api/cluster} answers.
 *
 * @param clusterId                    the cluster's id
 * @param controllerId                 broker id of the controller, null when there is none
 * @param brokers                      the live brokers, by id
 * @param topics                       topics, internal ones included
 * @param partitions                   partitions of all topics
 * @param underReplicatedPartitions    partitions whose ISR is smaller than their replica set
 * @param offlinePartitions            partitions without a leader
 */
public record ClusterOverview(String clusterId, Integer controllerId, List<BrokerView> brokers, int topics,
        int partitions, int underReplicatedPartitions, int offlinePartitions) {

    /** One broker. {@code rack} is null when the broker has none. */
    public record BrokerView(int id, String host, Integer port, String rack) {
    }
}
