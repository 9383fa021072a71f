package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The v3 broker and reassignment API on a cluster of two brokers (ids 0 and 1, each its own JVM):
 * broker configs with their sources, set per broker and cluster-wide; a broker's partition replicas
 * and log directories; a reassignment from broker 0 to 1 that completes; a throttled one that is
 * listed with its progress, then cancelled, its throttles cleared; a throttled one that completes,
 * its throttles then cleared in the background.
 */
@SpringBootTest(classes = RestProxyApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class V3BrokersAndReassignmentsTest {

    private static BrokerFixture first;
    private static BrokerFixture second;

    @LocalServerPort
    int port;
    HttpJson http;
    String cluster;

    private static synchronized String bootstrap() {
        if (first == null) {
            first = BrokerFixture.startStandalone();
            second = BrokerFixture.startJoining(first, 1);
        }
        return first.bootstrapServers() + "," + second.bootstrapServers();
    }

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("kafka.bootstrap-servers", V3BrokersAndReassignmentsTest::bootstrap);
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @BeforeEach
    void cluster() {
        http = new HttpJson("http://127.0.0.1:" + port);
        await().atMost(Duration.ofSeconds(60)).until(() ->
            http.get("/v3/clusters").body().get("data").get(0).get("cluster_id") != null
                && brokersListed() == 2);
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    private int brokersListed() {
        JsonNode data = http.get("/v3/clusters/" + http.get("/v3/clusters").body().get("data").get(0)
            .get("cluster_id").asString() + "/brokers").body().get("data");
        return data == null ? 0 : data.size();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    private String c(String path) {
        return "/v3/clusters/" + cluster + path;
    }

    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode item : list) {
            if (item.get("name").asString().equals(name)) {
                return item;
            }
        }
        throw new AssertionError(name + " not in " + list);
    }

    @Test
    void brokerConfigsShowTheirSourcesAndDynamicOnesCanBeSetPerBrokerAndClusterWide() {
        JsonNode configs = http.get(c("/brokers/1/configs")).body().get("data");
        JsonNode retention = named(configs, "log.retention.bytes");
        assertThat(retention.get("source").asString()).isEqualTo("DEFAULT_CONFIG");
        assertThat(retention.get("is_read_only").asBoolean()).isFalse();
        assertThat(named(configs, "broker.id").get("source").asString()).isEqualTo("STATIC_BROKER_CONFIG");

        Response set = http.send(http.request(c("/brokers/1/configs/log.retention.bytes"))
            .header("Content-Type", "application/json")
            .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"value\":\"1073741824\"}")).build());
        assertThat(set.status()).as(set.text()).isEqualTo(204);
        JsonNode one = http.get(c("/brokers/1/configs/log.retention.bytes")).body();
        assertThat(one.get("value").asString()).isEqualTo("1073741824");
        assertThat(one.get("source").asString()).isEqualTo("DYNAMIC_BROKER_CONFIG");
        assertThat(one.get("synonyms").get(0).get("source").asString()).isEqualTo("DYNAMIC_BROKER_CONFIG");
        assertThat(one.get("synonyms")).anySatisfy(s -> assertThat(s.get("source").asString())
            .isEqualTo("DEFAULT_CONFIG"));
        assertThat(http.get(c("/brokers/0/configs/log.retention.bytes")).body().get("source").asString())
            .as("broker 0 untouched").isEqualTo("DEFAULT_CONFIG");

        Response alter = http.post(c("/broker-configs:alter"), "application/json",
            "{\"data\":[{\"name\":\"leader.replication.throttled.rate\",\"value\":\"777\"}]}");
        assertThat(alter.status()).as(alter.text()).isEqualTo(204);
        assertThat(named(http.get(c("/broker-configs")).body().get("data"), "leader.replication.throttled.rate")
            .get("source").asString()).isEqualTo("DYNAMIC_DEFAULT_BROKER_CONFIG");
        JsonNode onBroker0 = http.get(c("/brokers/0/configs/leader.replication.throttled.rate")).body();
        assertThat(onBroker0.get("value").asString()).isEqualTo("777");
        assertThat(onBroker0.get("source").asString()).isEqualTo("DYNAMIC_DEFAULT_BROKER_CONFIG");

        assertThat(http.delete(c("/brokers/1/configs/log.retention.bytes")).status()).isEqualTo(204);
        assertThat(http.delete(c("/broker-configs/leader.replication.throttled.rate")).status()).isEqualTo(204);
        assertThat(http.get(c("/brokers/1/configs/log.retention.bytes")).body().get("source").asString())
            .isEqualTo("DEFAULT_CONFIG");
        assertThat(http.get(c("/broker-configs/leader.replication.throttled.rate")).status()).isEqualTo(404);
        assertThat(http.post(c("/brokers/1/configs:alter"), "application/json",
            "{\"data\":[{\"name\":\"no.such.config\",\"value\":\"1\"}]}").status()).isEqualTo(400);
        assertThat(http.get(c("/brokers/7/configs")).status()).isEqualTo(404);
    }

    @Test
    void aBrokersReplicasAndLogDirsAndAReassignmentToTheOtherBrokerCompletes() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("moved", Map.of(0, List.of(0))))).all().get();
        }
        produce("moved", 20, 1_000);
        JsonNode replicas = http.get(c("/brokers/0/partition-replicas")).body().get("data");
        assertThat(replicas).anySatisfy(r -> {
            assertThat(r.get("topic_name").asString()).isEqualTo("moved");
            assertThat(r.get("is_leader").asBoolean()).isTrue();
            assertThat(r.get("isr_ids").get(0).asInt()).isZero();
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode dirs = http.get(c("/brokers/0/log-dirs")).body().get("data");
            assertThat(dirs).isNotEmpty();
            assertThat(dirs.get(0).get("error").isNull()).isTrue();
            assertThat(dirs.get(0).get("size_bytes").asLong()).isGreaterThan(20_000);
        });

        Response start = http.post(c("/topics/-/partitions/-/reassignment"), "application/json",
            "{\"partitions\":[{\"topic_name\":\"moved\",\"partition_id\":0,\"replica_ids\":[1]}]}");
        assertThat(start.status()).as(start.text()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(http.get(c("/topics/-/partitions/-/reassignment")).body().get("data")).isEmpty();
            JsonNode partition = http.get(c("/topics/moved/partitions/0")).body();
            assertThat(partition.get("replica_ids").toString()).isEqualTo("[1]");
        });
        assertThat(http.get(c("/brokers/0/partition-replicas")).body().get("data"))
            .noneSatisfy(r -> assertThat(r.get("topic_name").asString()).isEqualTo("moved"));
        assertThat(http.post(c("/topics/-/partitions/-/reassignment"), "application/json",
            "{\"partitions\":[{\"topic_name\":\"moved\",\"partition_id\":0,\"replica_ids\":[5]}]}").status())
            .as("no broker 5").isEqualTo(400);
        assertThat(http.post(c("/topics/-/partitions/-/reassignment"), "application/json",
            "{\"partitions\":[{\"topic_name\":\"never-made\",\"partition_id\":0,\"replica_ids\":[1]}]}").errorCode())
            .isEqualTo(40401);
    }

    @Test
    void aThrottledReassignmentIsListedWithItsProgressAndCancelledWithItsThrottlesCleared() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("slow", Map.of(0, List.of(0))))).all().get();
        }
        // Beyond the follower's first fetch (replica.fetch.max.bytes, 1 MB), which no throttle holds back.
        produce("slow", 60, 50_000);
        Response start = http.post(c("/topics/-/partitions/-/reassignment"), "application/json",
            "{\"partitions\":[{\"topic_name\":\"slow\",\"partition_id\":0,\"replica_ids\":[1]}],"
                + "\"throttle_bytes_per_second\":10000}");
        assertThat(start.status()).as(start.text()).isEqualTo(202);

        JsonNode ongoing = http.get(c("/topics/slow/partitions/0/reassignment")).body();
        assertThat(ongoing.get("kind").asString()).isEqualTo("KafkaReassignment");
        assertThat(ongoing.get("adding_replicas").toString()).isEqualTo("[1]");
        assertThat(ongoing.get("removing_replicas").toString()).isEqualTo("[0]");
        assertThat(ongoing.get("target_replica_ids").toString()).isEqualTo("[1]");
        JsonNode progress = ongoing.get("progress").get(0);
        assertThat(progress.get("broker_id").asInt()).isEqualTo(1);
        assertThat(progress.get("leader_size_bytes").asLong()).isGreaterThan(progress.get("size_bytes").asLong());
        assertThat(http.get(c("/topics/-/partitions/-/reassignment")).body().get("data")).hasSize(1);
        assertThat(topicConfig("slow", ReplicationThrottles.FOLLOWER_REPLICAS)).isEqualTo("0:1");
        assertThat(topicConfig("slow", ReplicationThrottles.LEADER_REPLICAS)).isEqualTo("0:0");
        assertThat(http.get(c("/brokers/1/configs/follower.replication.throttled.rate")).body().get("value")
            .asString()).isEqualTo("10000");

        Response cancel = http.delete(c("/topics/slow/partitions/0/reassignment"));
        assertThat(cancel.status()).as(cancel.text()).isEqualTo(204);
        assertThat(http.get(c("/topics/-/partitions/-/reassignment")).body().get("data")).isEmpty();
        assertThat(http.get(c("/topics/slow/partitions/0")).body().get("replica_ids").toString()).isEqualTo("[0]");
        // Cleared in ZooKeeper at once; a broker answering DescribeConfigs may follow its change notification a moment later.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(topicConfig("slow", ReplicationThrottles.FOLLOWER_REPLICAS)).isEmpty();
            Response rate = http.get(c("/brokers/1/configs/follower.replication.throttled.rate"));
            assertThat(rate.status() == 404 || !rate.body().get("source").asString().startsWith("DYNAMIC"))
                .as("the broker's rate cleared: %s", rate.text()).isTrue();
        });
        assertThat(http.delete(c("/topics/slow/partitions/0/reassignment")).status()).isEqualTo(404);
        assertThat(http.get(c("/topics/slow/partitions/0/reassignment")).status()).isEqualTo(404);
    }

    @Test
    void theThrottlesOfAThrottledReassignmentAreClearedOnceItIsDone() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("quick", Map.of(0, List.of(1))))).all().get();
        }
        // Less than the follower's first fetch: done at once, throttle or not.
        produce("quick", 10, 1_000);
        Response start = http.post(c("/topics/-/partitions/-/reassignment"), "application/json",
            "{\"partitions\":[{\"topic_name\":\"quick\",\"partition_id\":0,\"replica_ids\":[0]}],"
                + "\"throttle_bytes_per_second\":10000}");
        assertThat(start.status()).as(start.text()).isEqualTo(202);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(http.get(c("/topics/quick/partitions/0")).body().get("replica_ids").toString()).isEqualTo("[0]");
            assertThat(topicConfig("quick", ReplicationThrottles.LEADER_REPLICAS)).isEmpty();
            assertThat(topicConfig("quick", ReplicationThrottles.FOLLOWER_REPLICAS)).isEmpty();
            for (int broker : List.of(0, 1)) {
                Response rate = http.get(c("/brokers/" + broker + "/configs/leader.replication.throttled.rate"));
                assertThat(rate.status() == 404 || !rate.body().get("source").asString().startsWith("DYNAMIC"))
                    .as("broker %s: %s", broker, rate.text()).isTrue();
            }
        });
    }

    private String topicConfig(String topic, String name) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = admin()) {
            ConfigEntry entry = admin.describeConfigs(List.of(resource)).all().get().get(resource).get(name);
            return entry == null || entry.value() == null ? "" : entry.value();
        }
    }

    private static void produce(String topic, int records, int bytes) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, null, new byte[bytes])));
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        }
    }
}
