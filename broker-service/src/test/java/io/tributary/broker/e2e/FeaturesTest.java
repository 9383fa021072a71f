package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerServer;
import io.tributary.broker.cluster.FeatureZNode;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestCluster;
import io.tributary.broker.testing.WireClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.UpdateFeaturesRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.UpdateFeaturesRequest;
import org.apache.kafka.common.requests.UpdateFeaturesResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feature versioning (KIP-584) on two brokers with Kafka's own kafka-features
 * ({@code org.apache.kafka.tools.FeatureCommand}): {@code describe} prints the supported and
 * finalized levels with their epoch; a new cluster runs {@code transaction.version} 1, and the
 * transaction coordinator writes {@code __transaction_state} values in the version the finalized
 * level picks; a downgrade and an upgrade reach every broker's ApiVersions; levels no broker
 * supports, a registered broker that does not support a level, and downgrades without the downgrade
 * type are refused with Kafka's messages, the request applying nothing.
 */
class FeaturesTest {

    private static final String TOOL = "org.apache.kafka.tools.FeatureCommand";

    @TempDir
    static Path dir;
    static TestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestCluster.start(dir, 2, Map.of("broker.transaction-state-log-num-partitions", "1",
            "broker.transaction-state-log-replication-factor", "2", "broker.transaction-state-log-min-isr", "1"));
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("txn", 1, (short) 2))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static KafkaTool.Result features(String... args) throws Exception {
        return KafkaTool.runAgainst(cluster.bootstrapServers(), TOOL, args);
    }

    private static ApiVersionsResponseData apiVersions(BrokerServer broker) throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ApiVersionsResponse response = client.send(new ApiVersionsRequest(new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1.0"), (short) 4));
            return response.data();
        }
    }

    /** Whether every broker's ApiVersions shows {@code transaction.version} at {@code level} in {@code epoch}. */
    private static boolean everyBrokerShows(short level, long epoch) throws Exception {
        for (int id : cluster.brokerIds()) {
            ApiVersionsResponseData data = apiVersions(cluster.broker(id));
            ApiVersionsResponseData.FinalizedFeatureKey key = data.finalizedFeatures().find("transaction.version");
            short shown = key == null ? 0 : key.maxVersionLevel();
            if (shown != level || data.finalizedFeaturesEpoch() != epoch) {
                return false;
            }
        }
        return true;
    }

    /** Commits one transaction of {@code transactionalId} and returns the value versions of its records. */
    private static List<Short> valueVersionsOfATransaction(String transactionalId) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn", "v".getBytes(StandardCharsets.UTF_8))).get();
            producer.commitTransaction();
        }
        TopicPartition state = new TopicPartition(Topic.TRANSACTION_STATE_TOPIC_NAME, 0);
        List<Short> versions = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of())) {
            consumer.assign(List.of(state));
            consumer.seekToBeginning(List.of(state));
            long end = consumer.endOffsets(List.of(state)).get(state);
            while (consumer.position(state) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    ByteBuffer key = ByteBuffer.wrap(record.key());
                    key.getShort();
                    byte[] id = new byte[key.getShort()];
                    key.get(id);
                    if (new String(id, StandardCharsets.UTF_8).equals(transactionalId) && record.value() != null) {
                        versions.add(ByteBuffer.wrap(record.value()).getShort());
                    }
                }
            }
        }
        return versions;
    }

    private static UpdateFeaturesResponse update(short version, short level, byte upgradeType, boolean allowDowngrade)
            throws Exception {
        UpdateFeaturesRequestData.FeatureUpdateKeyCollection updates = new UpdateFeaturesRequestData.FeatureUpdateKeyCollection();
        updates.add(new UpdateFeaturesRequestData.FeatureUpdateKey().setFeature("transaction.version")
            .setMaxVersionLevel(level).setUpgradeType(upgradeType).setAllowDowngrade(allowDowngrade));
        try (WireClient client = WireClient.connect(cluster.anyRunning().bootstrapServers())) {
            return client.send(new UpdateFeaturesRequest(new UpdateFeaturesRequestData().setFeatureUpdates(updates), version));
        }
    }

    @Test
    void describedChangedOnEveryBrokerAndRefusedWithKafkasMessages() throws Exception {
        KafkaTool.Result described = features("describe");
        assertThat(described.exitCode()).as(described.output()).isZero();
        assertThat(described.output())
            .containsPattern("Feature: group.version\\s+SupportedMinVersion: 0\\s+SupportedMaxVersion: 1\\s+"
                + "FinalizedVersionLevel: 1\\s+Epoch: 0")
            .containsPattern("Feature: share.version\\s+SupportedMinVersion: 0\\s+SupportedMaxVersion: 1\\s+"
                + "FinalizedVersionLevel: 1\\s+Epoch: 0")
            .containsPattern("Feature: transaction.version\\s+SupportedMinVersion: 0\\s+SupportedMaxVersion: 1\\s+"
                + "FinalizedVersionLevel: 1\\s+Epoch: 0");
        try (Admin admin = cluster.admin()) {
            FeatureMetadata metadata = admin.describeFeatures().featureMetadata().get();
            assertThat(metadata.finalizedFeatures().get("transaction.version").maxVersionLevel()).isEqualTo((short) 1);
            assertThat(metadata.finalizedFeaturesEpoch()).hasValue(0L);
        }
        assertThat(valueVersionsOfATransaction("at-level-1")).as("flexible values").isNotEmpty().containsOnly((short) 1);

        KafkaTool.Result beyond = features("upgrade", "--feature", "transaction.version=2");
        assertThat(beyond.exitCode()).isNotZero();
        assertThat(beyond.output()).containsPattern("Could not upgrade transaction.version to 2\\. Invalid update version 2 "
            + "for feature transaction.version\\. Local broker [01] only supports versions 0-1");
        KafkaTool.Result groups = features("upgrade", "--feature", "group.version=2");
        assertThat(groups.output()).containsPattern("Invalid update version 2 for feature group.version\\. "
            + "Local broker [01] only supports versions 0-1");
        KafkaTool.Result both = features("upgrade", "--feature", "group.version=2", "--feature", "transaction.version=1");
        assertThat(both.exitCode()).isNotZero();
        assertThat(both.output()).as("all or nothing").contains("Could not upgrade transaction.version to 1.");

        UpdateFeaturesResponse notSafe = update((short) 1, (short) 0, (byte) 1, false);
        assertThat(Errors.forCode(notSafe.data().errorCode())).isEqualTo(Errors.INVALID_UPDATE_VERSION);
        assertThat(notSafe.data().errorMessage()).isEqualTo("Invalid update version 0 for feature transaction.version. "
            + "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.");
        assertThat(Errors.forCode(update((short) 0, (short) 0, (byte) 1, false).data().errorCode()))
            .as("v0 without AllowDowngrade").isEqualTo(Errors.INVALID_UPDATE_VERSION);
        UpdateFeaturesResponse unknownType = update((short) 1, (short) 1, (byte) 9, false);
        assertThat(unknownType.data().errorMessage()).endsWith("The controller does not support the given upgrade type.");
        KafkaTool.Result dryRun = features("downgrade", "--feature", "transaction.version=0", "--dry-run");
        assertThat(dryRun.output()).contains("transaction.version can be downgraded to 0.");
        assertThat(everyBrokerShows((short) 1, 0)).as("nothing changed so far").isTrue();

        KafkaTool.Result downgraded = features("downgrade", "--feature", "transaction.version=0");
        assertThat(downgraded.exitCode()).as(downgraded.output()).isZero();
        assertThat(downgraded.output()).contains("transaction.version was downgraded to 0.");
        await().atMost(Duration.ofSeconds(30)).until(() -> everyBrokerShows((short) 0, 1));
        assertThat(valueVersionsOfATransaction("at-level-0")).isNotEmpty().containsOnly((short) 0);
        UpdateFeaturesResponse newer = update((short) 1, (short) 1, (byte) 2, false);
        assertThat(newer.data().errorMessage()).endsWith("Can't downgrade to a newer version.");

        // A broker registered without the feature (an older version) holds the upgrade back.
        try (KafkaZkClient zk = KafkaZkClient.connect(cluster.zooKeeper().connectString(), 4000, 10_000)) {
            zk.createEphemeral(ZkPaths.broker(9), ("{\"version\":5,\"host\":\"127.0.0.1\",\"port\":1,\"endpoints\":"
                + "[\"PLAINTEXT://127.0.0.1:1\"],\"listener_security_protocol_map\":{\"PLAINTEXT\":\"PLAINTEXT\"},"
                + "\"jmx_port\":-1,\"timestamp\":\"1\",\"features\":{}}").getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream()
                .allMatch(id -> cluster.broker(id).metadataCache().isAlive(9)));
            KafkaTool.Result heldBack = features("upgrade", "--feature", "transaction.version=1");
            assertThat(heldBack.exitCode()).isNotZero();
            assertThat(heldBack.output()).contains("Invalid update version 1 for feature transaction.version. "
                + "Broker 9 does not support this feature.");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.brokerIds().stream()
            .noneMatch(id -> cluster.broker(id).metadataCache().isAlive(9)));
        assertThat(everyBrokerShows((short) 0, 1)).isTrue();

        KafkaTool.Result upgraded = features("upgrade", "--feature", "transaction.version=1");
        assertThat(upgraded.exitCode()).as(upgraded.output()).isZero();
        assertThat(upgraded.output()).contains("transaction.version was upgraded to 1.");
        await().atMost(Duration.ofSeconds(30)).until(() -> everyBrokerShows((short) 1, 2));
        UpdateFeaturesResponse v1 = update((short) 1, (short) 1, (byte) 1, false);
        assertThat(v1.data().results()).as("v0-1 list every feature").extracting(r -> r.feature() + " " + r.errorCode())
            .containsExactly("transaction.version 0");
        await().atMost(Duration.ofSeconds(30)).until(() -> everyBrokerShows((short) 1, 3));
        try (WireClient client = WireClient.connect(cluster.anyRunning().bootstrapServers())) {
            UpdateFeaturesResponse none = client.send(new UpdateFeaturesRequest(new UpdateFeaturesRequestData(), (short) 2));
            assertThat(Errors.forCode(none.data().errorCode())).isEqualTo(Errors.NONE);
        }
        try (KafkaZkClient zk = KafkaZkClient.connect(cluster.zooKeeper().connectString(), 4000, 10_000)) {
            assertThat(zk.getDataAndVersion(FeatureZNode.PATH).orElseThrow().version()).as("no update, no write").isEqualTo(3);
        }
    }
}
