package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/** The topic resource's health counts, from the partitions Kafka's Admin describes. */
class V3TopicHealthCountsTest {

    private static final Node B0 = new Node(0, "b0", 9092);
    private static final Node B1 = new Node(1, "b1", 9092);
    private static final Node B2 = new Node(2, "b2", 9092);

    @Test
    void countsPartitionsShortOfTheirReplicasAndPartitionsWithoutALeader() {
        TopicDescription description = new TopicDescription("orders", false, List.of(
            new TopicPartitionInfo(0, B0, List.of(B0, B1, B2), List.of(B0, B1, B2)),
            new TopicPartitionInfo(1, B1, List.of(B1, B2, B0), List.of(B1)),
            new TopicPartitionInfo(2, null, List.of(B2, B0, B1), List.of(B2))), null, Uuid.randomUuid());

        // Links are built from the current request's base URL.
        org.springframework.web.context.request.RequestContextHolder.setRequestAttributes(
            new org.springframework.web.context.request.ServletRequestAttributes(
                new org.springframework.mock.web.MockHttpServletRequest()));
        V3Resources.Topic topic;
        try {
            topic = V3TopicsController.topic("cluster-1", description);
        } finally {
            org.springframework.web.context.request.RequestContextHolder.resetRequestAttributes();
        }

        assertThat(topic.partitionsCount()).isEqualTo(3);
        assertThat(topic.replicationFactor()).isEqualTo(3);
        assertThat(topic.underReplicatedPartitionsCount()).isEqualTo(2);
        assertThat(topic.offlinePartitionsCount()).isEqualTo(1);
    }
}
