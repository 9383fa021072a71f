package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker pointed at an existing ZooKeeper ensemble keeps the cluster's state there in Kafka's
 * layout, and a restarted broker finds its topics (same topic ids) again.
 */
class ZooKeeperLayoutTest {

    @TempDir
    Path dir;

    @Test
    void clusterStateLivesInZooKeeperInKafkasLayout() throws Exception {
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk").toFile(), 0, 200, false)) {
            Map<String, Object> settings = new HashMap<>();
            settings.put("broker.id", "4");
            settings.put("broker.rack", "rack-a");
            settings.put("broker.zookeeper-connect", zk.connectString());
            settings.put("broker.zookeeper-session-timeout-ms", "4000");
            settings.put("broker.listeners", "PLAINTEXT://127.0.0.1:" + TestBroker.freePort());
            settings.put("broker.data-dir", dir.resolve("data").toString());
            BrokerServer broker = new BrokerServer(BrokerProperties.bind(settings), Time.SYSTEM);
            broker.startup();
            Uuid topicId;
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("laid-out", 2, (short) 1)
                    .configs(Map.of("retention.ms", "1000000")))).all().get();
                topicId = admin.describeTopics(List.of("laid-out")).allTopicNames().get().get("laid-out").topicId();
            }
            try (KafkaZkClient zkClient = KafkaZkClient.connect(zk.connectString(), 4000, 10_000)) {
                assertThat(zkClient.getString(ZkPaths.CLUSTER_ID)).hasValueSatisfying(v -> assertThat(v).contains("\"id\""));
                assertThat(zkClient.getString(ZkPaths.broker(4))).hasValueSatisfying(v -> assertThat(v)
                    .contains("\"endpoints\":[\"PLAINTEXT://127.0.0.1:").contains("\"rack\":\"rack-a\""));
                assertThat(zkClient.getDataAndVersion(ZkPaths.broker(4)).orElseThrow().ephemeralOwner()).isNotZero();
                assertThat(zkClient.getString(ZkPaths.CONTROLLER)).hasValueSatisfying(v -> assertThat(v)
                    .contains("\"brokerid\":4"));
                assertThat(zkClient.getString(ZkPaths.CONTROLLER_EPOCH)).contains("1");
                TopicAssignment assignment = zkClient.getTopicAssignment("laid-out").orElseThrow();
                assertThat(assignment.topicId()).isEqualTo(topicId);
                assertThat(assignment.replicas()).containsOnlyKeys(0, 1);
                assertThat(zkClient.getPartitionState("laid-out", 1)).hasValueSatisfying(s -> {
                    assertThat(s.leader()).isEqualTo(4);
                    assertThat(s.isr()).containsExactly(4);
                    assertThat(s.controllerEpoch()).isEqualTo(1);
                });
                assertThat(zkClient.getTopicConfig("laid-out").config()).containsEntry("retention.ms", "1000000");
            }

            broker.shutdown();
            BrokerServer restarted = new BrokerServer(BrokerProperties.bind(settings), Time.SYSTEM);
            restarted.startup();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, restarted.bootstrapServers()))) {
                assertThat(admin.describeTopics(List.of("laid-out")).allTopicNames().get().get("laid-out").topicId())
                    .isEqualTo(topicId);
            } finally {
                restarted.shutdown();
            }
        }
    }
}
