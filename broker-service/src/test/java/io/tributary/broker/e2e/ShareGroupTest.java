package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import io.tributary.broker.testing.WireClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ShareGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ShareGroupHeartbeatResponse;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share groups (KIP-932) with kafka-clients 4.4: {@code KafkaShareConsumer}s join a share group by
 * polling (ShareGroupHeartbeat), the admin client describes and lists the group and deletes it once
 * empty, and {@code kafka-share-groups --list} and {@code --describe --members / --state} show it; with
 * {@code share.version} downgraded to 0 ShareGroupHeartbeat gets UNSUPPORTED_VERSION. Records are
 * {@code ShareConsumerTest}'s.
 */
class ShareGroupTest {

    private static final String TOPIC = "jobs";
    private static final String TOOL = "org.apache.kafka.tools.consumer.group.ShareGroupCommand";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of("broker.group-share-heartbeat-interval-ms", "500"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    /** A share consumer polling on its own thread until closed (the client is not thread-safe). */
    private static final class Poller implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Poller(String group) {
            Map<String, Object> settings = new HashMap<>();
            settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "share-client");
            thread = new Thread(() -> {
                try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    consumer.subscribe(List.of(TOPIC));
                    while (running.get()) {
                        consumer.poll(Duration.ofMillis(200));
                    }
                }
            }, "share-poller-" + group);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofSeconds(30).toMillis());
        }
    }

    private static ShareGroupDescription describe(Admin admin, String group) throws Exception {
        return admin.describeShareGroups(List.of(group)).all().get().get(group);
    }

    @Test
    void shareConsumersJoinAndAreDescribedListedAndShownByTheTool() throws Exception {
        try (Admin admin = broker.admin()) {
            try (Poller first = new Poller("workers")) {
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                    assertThat(describe(admin, "workers").members()).hasSize(1));
                try (Poller second = new Poller("workers")) {
                    // Both members at the group's second epoch, each with its target assignment (partitions are
                    // assigned once the coordinator initialized their share state, as in Kafka 4.4).
                    await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                        assertThat(describe(admin, "workers").members()).hasSize(2)
                            .allSatisfy(m -> assertThat(m.memberEpoch()).isEqualTo(2))
                            .allSatisfy(m -> assertThat(m.assignment().topicPartitions()).isNotEmpty()));
                    ShareGroupDescription group = describe(admin, "workers");
                    assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
                    assertThat(group.groupEpoch()).isEqualTo(2);
                    assertThat(group.targetAssignmentEpoch()).isEqualTo(2);
                    Set<TopicPartition> assigned = new HashSet<>();
                    for (ShareMemberDescription m : group.members()) {
                        assertThat(m.clientId()).isEqualTo("share-client");
                        assertThat(m.host()).isNotEmpty();
                        assertThat(m.assignment().topicPartitions()).isNotEmpty();
                        assigned.addAll(m.assignment().topicPartitions());
                    }
                    assertThat(assigned).containsExactlyInAnyOrder(new TopicPartition(TOPIC, 0),
                        new TopicPartition(TOPIC, 1), new TopicPartition(TOPIC, 2));

                    assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get())
                        .anySatisfy(listing -> {
                            assertThat(listing.groupId()).isEqualTo("workers");
                            assertThat(listing.type()).contains(GroupType.SHARE);
                            assertThat(listing.groupState()).contains(GroupState.STABLE);
                        });
                    assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.CLASSIC))).all()
                        .get()).noneSatisfy(listing -> assertThat(listing.groupId()).isEqualTo("workers"));

                    KafkaTool.Result members = KafkaTool.run(null, TOOL, "--bootstrap-server", broker.bootstrapServers(),
                        "--describe", "--group", "workers", "--members");
                    assertThat(members.exitCode()).as(members.output()).isZero();
                    assertThat(members.output()).contains("share-client").contains(TOPIC + ":");
                    assertThat(members.output().lines().filter(l -> l.startsWith("workers ")).count())
                        .as(members.output()).isEqualTo(2);
                    KafkaTool.Result list = KafkaTool.run(null, TOOL, "--bootstrap-server", broker.bootstrapServers(),
                        "--list");
                    assertThat(list.exitCode()).as(list.output()).isZero();
                    assertThat(list.output().lines()).as(list.output()).contains("workers");
                    KafkaTool.Result state = KafkaTool.run(null, TOOL, "--bootstrap-server", broker.bootstrapServers(),
                        "--describe", "--group", "workers", "--state");
                    assertThat(state.exitCode()).as(state.output()).isZero();
                    assertThat(state.output()).containsPattern("workers\\s+\\S+\\s+\\(0\\)\\s+Stable\\s+2");
                }
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                    assertThat(describe(admin, "workers").members()).as("the second left on close").hasSize(1));
                assertThat(describe(admin, "workers").groupEpoch()).isEqualTo(3);
            }
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                assertThat(describe(admin, "workers").groupState()).isEqualTo(GroupState.EMPTY));
            admin.deleteShareGroups(List.of("workers")).all().get();
            assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get())
                .noneSatisfy(listing -> assertThat(listing.groupId()).isEqualTo("workers"));
        }
    }

    private static ShareGroupHeartbeatResponseData heartbeat(String group, String memberId, int epoch) throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ShareGroupHeartbeatResponse response = client.send(new ShareGroupHeartbeatRequest.Builder(
                new ShareGroupHeartbeatRequestData().setGroupId(group).setMemberId(memberId).setMemberEpoch(epoch)
                    .setSubscribedTopicNames(epoch == 0 ? List.of(TOPIC) : null)).build((short) 1));
            return response.data();
        }
    }

    @Test
    void shareGroupsAreRefusedWhileShareVersionIsBelowOne() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 0,
                FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)), new UpdateFeaturesOptions()).all().get();
            try {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(Errors.forCode(
                    heartbeat("off", "m1", 0).errorCode())).isEqualTo(Errors.UNSUPPORTED_VERSION));
                assertThat(heartbeat("off", "m1", 0).errorMessage()).contains("share.version");
            } finally {
                admin.updateFeatures(Map.of("share.version", new FeatureUpdate((short) 1,
                    FeatureUpdate.UpgradeType.UPGRADE)), new UpdateFeaturesOptions()).all().get();
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(Errors.forCode(
                heartbeat("on", "m1", 0).errorCode())).isEqualTo(Errors.NONE));
            ShareGroupHeartbeatResponseData left = heartbeat("on", "m1", -1);
            assertThat(Errors.forCode(left.errorCode())).isEqualTo(Errors.NONE);
            assertThat(describe(admin, "on").groupState()).isEqualTo(GroupState.EMPTY);
        }
    }
}
