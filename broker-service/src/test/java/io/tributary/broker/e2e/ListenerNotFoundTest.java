package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeTopicPartitionsRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listeners that differ between brokers, as in a rolling change of {@code listeners}: a client on
 * a listener that the partition's leader lacks gets LISTENER_NOT_FOUND from Metadata v6 on and
 * LEADER_NOT_AVAILABLE before (Kafka's {@code errorUnavailableListeners}), leader -1 either way, and
 * DescribeTopicPartitions shows the partition without a leader. A leader with the listener is
 * answered as usual.
 */
class ListenerNotFoundTest {

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        // Broker 0 has listener EDGE0 and broker 1 EDGE1: neither has the other's.
        cluster = TestCluster.start(dir, 2, Map.of("broker.listeners", "PLAINTEXT://127.0.0.1:0,EDGE{id}://127.0.0.1:0",
            "broker.listener-security-protocol-map", "PLAINTEXT:PLAINTEXT,EDGE0:PLAINTEXT,EDGE1:PLAINTEXT",
            "broker.inter-broker-listener-name", "PLAINTEXT"));
        try (Admin admin = cluster.admin()) {
            // Partition p is led by broker p.
            admin.createTopics(List.of(new NewTopic("edges", Map.of(0, List.of(0), 1, List.of(1))))).all().get();
        }
        cluster.awaitLeader(new TopicPartition("edges", 0));
        cluster.awaitLeader(new TopicPartition("edges", 1));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static String edgeOfBrokerZero() {
        BrokerServer zero = cluster.broker(0);
        EndPoint edge = zero.boundEndPoints().stream().filter(e -> e.listenerName().equals("EDGE0")).findFirst().orElseThrow();
        return edge.host() + ":" + edge.port();
    }

    private static List<MetadataResponsePartition> metadata(short version) throws Exception {
        try (WireClient client = WireClient.connect(edgeOfBrokerZero())) {
            MetadataResponse response = client.send(new MetadataRequest.Builder(List.of("edges"), false, version, version)
                .build(version));
            return response.data().topics().find("edges").partitions();
        }
    }

    @Test
    void aLeaderWithoutTheRequestsListenerIsListenerNotFoundFromV6() throws Exception {
        for (short version : new short[] {6, 12}) {
            List<MetadataResponsePartition> partitions = metadata(version);
            assertThat(partitions).extracting(p -> p.partitionIndex() + " " + Errors.forCode(p.errorCode()) + " " + p.leaderId())
                .as("v" + version).containsExactlyInAnyOrder("0 NONE 0", "1 LISTENER_NOT_FOUND -1");
        }
        assertThat(metadata((short) 5)).extracting(p -> p.partitionIndex() + " " + Errors.forCode(p.errorCode()) + " " + p.leaderId())
            .containsExactlyInAnyOrder("0 NONE 0", "1 LEADER_NOT_AVAILABLE -1");

        try (WireClient client = WireClient.connect(edgeOfBrokerZero())) {
            DescribeTopicPartitionsRequestData request = new DescribeTopicPartitionsRequestData();
            request.topics().add(new DescribeTopicPartitionsRequestData.TopicRequest().setName("edges"));
            DescribeTopicPartitionsResponse response = client.send(new DescribeTopicPartitionsRequest.Builder(request).build());
            assertThat(response.data().topics().find("edges").partitions())
                .extracting(p -> p.partitionIndex() + " " + Errors.forCode(p.errorCode()) + " " + p.leaderId())
                .containsExactly("0 NONE 0", "1 NONE -1");
        }
    }
}
