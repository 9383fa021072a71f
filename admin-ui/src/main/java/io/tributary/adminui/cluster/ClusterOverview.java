package io.tributary.adminui.cluster;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;

/**
 * What {@code GET /api/cluster} answers.
 *
 * @param clusterId                    the cluster's id
 * @param controllerId                 broker id of the controller, null when there is none
 * @param brokers                      the registered brokers (up) and the down ones, by id
 * @param topics                       topics, internal ones included
 * @param internalTopics               of those, the internal ones ({@code __consumer_offsets}, ...)
 * @param partitions                   partitions of all topics
 * @param underReplicatedPartitions    partitions whose ISR is smaller than their replica set
 * @param offlinePartitions            partitions without a leader
 * @param uncheckedTopics              topics with under-replicated or offline partitions whose replica
 *                                     assignments were not read for down brokers (over the bound of
 *                                     {@value DownBrokers#MAX_TOPICS_READ}, or the read failed); 0 when
 *                                     every such topic was checked
 */
public record ClusterOverview(String clusterId, Integer controllerId, List<BrokerView> brokers, int topics,
        int internalTopics, int partitions, int underReplicatedPartitions, int offlinePartitions, int uncheckedTopics) {

    /** Whether a broker is registered with the cluster; JSON {@code "up"} or {@code "down"}. */
    public enum BrokerStatus {
        /** Registered: the proxy lists it. */
        UP,
        /** Assigned replicas of some partition but not registered: stopped, or cut off from the cluster. */
        DOWN;

        @JsonValue
        String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One broker. A down broker's host, port and rack are unknown (null): only registered brokers
     * publish them.
     *
     * @param rack null when the broker has none
     */
    public record BrokerView(int id, BrokerStatus status, String host, Integer port, String rack) {

        /** A broker known only from replica assignments. */
        static BrokerView down(int id) {
            return new BrokerView(id, BrokerStatus.DOWN, null, null, null);
        }
    }
}
