package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The v3 share group endpoints (KIP-932) against a real broker with real {@link KafkaShareConsumer}s
 * joined: list and describe with members, epochs and assignments; 409 deleting a group with members,
 * 204 once empty; the group's {@code share.*} configs read and changed (and obeyed: a group set to
 * {@code share.auto.offset.reset=earliest} gets the records written before it joined); each partition's
 * lag and the group's total lag as a consumer acknowledges.
 */
class V3ShareGroupsTest extends ProxyTestBase {

    private static final String JSON = "application/json";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private String cluster;

    @BeforeEach
    void clusterId() {
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    /** A share consumer polling on its own thread until closed (the client is not thread-safe). */
    private final class Poller implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ConcurrentLinkedQueue<String> values = new ConcurrentLinkedQueue<>();
        private final Thread thread;

        Poller(String group, String topic, String clientId) {
            Map<String, Object> settings = new HashMap<>();
            settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
            settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
            thread = new Thread(() -> {
                try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    consumer.subscribe(List.of(topic));
                    while (running.get()) {
                        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                            values.add(new String(record.value(), StandardCharsets.UTF_8));
                        }
                    }
                }
            }, "share-poller-" + clientId);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(Duration.ofSeconds(30).toMillis());
        }
    }

    private String groupPath(String group) {
        return "/v3/clusters/" + cluster + "/share-groups/" + group;
    }

    private Response put(String path, String body) {
        return http.send(HttpRequest.newBuilder(http.uri(path)).header("Content-Type", JSON)
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    @Test
    void listsDescribesAndDeletesAShareGroupWithItsMembersAndAssignments() throws Exception {
        String topic = "v3-share-jobs";
        String group = "v3-share-workers";
        broker().createTopic(topic, 2);
        http.post("/topics/" + topic, "application/vnd.kafka.json.v2+json",
            "{\"records\":[{\"value\":\"a\",\"partition\":0},{\"value\":\"b\",\"partition\":1},"
                + "{\"value\":\"c\",\"partition\":1}]}");
        // Set before any member joins, so the group starts at the first records rather than at the end.
        assertThat(put(groupPath(group) + "/configs/share.auto.offset.reset", "{\"value\":\"earliest\"}").status())
            .isEqualTo(204);

        try (Poller first = new Poller(group, topic, "worker-1"); Poller second = new Poller(group, topic, "worker-2")) {
            // Both members at the group's assignment epoch, the two partitions between them.
            await().atMost(WAIT).untilAsserted(() -> {
                JsonNode described = http.get(groupPath(group)).body();
                assertThat(described.path("members").size()).isEqualTo(2);
                int epoch = described.get("assignment_epoch").asInt();
                assertThat(described.get("members").valueStream().map(m -> m.get("member_epoch").asInt()))
                    .containsOnly(epoch);
                assertThat(described.get("members").valueStream().mapToInt(m -> m.get("assignments").size()).sum())
                    .isEqualTo(2);
            });
            JsonNode described = http.get(groupPath(group)).body();
            assertThat(described.get("kind").asString()).isEqualTo("KafkaShareGroup");
            assertThat(described.get("group_id").asString()).isEqualTo(group);
            assertThat(described.get("state").asString()).isEqualTo("STABLE");
            assertThat(described.get("member_count").asInt()).isEqualTo(2);
            assertThat(described.get("group_epoch").asInt()).isEqualTo(described.get("assignment_epoch").asInt());
            assertThat(described.get("coordinator_id").asInt()).isZero();
            assertThat(described.get("coordinator").get("related").asString()).endsWith("/brokers/0");
            assertThat(described.has("authorized_operations")).as("only when asked for").isFalse();

            JsonNode members = http.get(groupPath(group) + "/members").body().get("data");
            assertThat(members.valueStream().map(m -> m.get("client_id").asString()))
                .containsExactlyInAnyOrder("worker-1", "worker-2");
            Set<String> assigned = new HashSet<>();
            for (JsonNode member : members) {
                assertThat(member.get("member_id").asString()).isNotBlank();
                assertThat(member.get("host").asString()).isNotBlank();
                member.get("assignments").forEach(a -> assigned.add(a.get("topic_name").asString() + "-"
                    + a.get("partition_id").asInt()));
            }
            assertThat(assigned).containsExactlyInAnyOrder(topic + "-0", topic + "-1");

            JsonNode listed = http.get("/v3/clusters/" + cluster + "/share-groups").body();
            assertThat(listed.get("kind").asString()).isEqualTo("KafkaShareGroupList");
            JsonNode row = listed.get("data").valueStream().filter(g -> g.get("group_id").asString().equals(group))
                .findFirst().orElseThrow();
            assertThat(row.get("state").asString()).isEqualTo("STABLE");
            assertThat(row.get("member_count").asInt()).isEqualTo(2);
            assertThat(row.get("coordinator_id").asInt()).isZero();
            assertThat(row.has("members")).as("members only on the group itself").isFalse();

            Response busy = http.delete(groupPath(group));
            assertThat(busy.status()).isEqualTo(409);
            assertThat(busy.errorCode()).isEqualTo(409);
            assertThat(busy.body().get("message").asString()).contains(group).contains("members");

            // The earliest reset the proxy set is what the brokers used: the records written before the group.
            await().atMost(WAIT).untilAsserted(() -> {
                List<String> all = new ArrayList<>(first.values);
                all.addAll(second.values);
                assertThat(all).containsExactlyInAnyOrder("\"a\"", "\"b\"", "\"c\"");
            });
        }

        await().atMost(WAIT).untilAsserted(() ->
            assertThat(http.get(groupPath(group)).body().get("state").asString()).isEqualTo("EMPTY"));
        assertThat(http.get(groupPath(group) + "/members").body().get("data")).isEmpty();
        assertThat(http.delete(groupPath(group)).status()).isEqualTo(204);
        assertThat(http.get(groupPath(group)).status()).isEqualTo(404);
        assertThat(http.get("/v3/clusters/" + cluster + "/share-groups").body().get("data").valueStream()
            .map(g -> g.get("group_id").asString())).doesNotContain(group);
    }

    @Test
    void readsAndChangesTheGroupsShareConfigsOnly() {
        String configs = groupPath("v3-share-configs") + "/configs";

        JsonNode all = http.get(configs).body().get("data");
        assertThat(all.valueStream().map(c -> c.get("name").asString())).allMatch(n -> n.startsWith("share."))
            .contains("share.auto.offset.reset", "share.record.lock.duration.ms", "share.delivery.count.limit",
                "share.session.timeout.ms");
        JsonNode reset = http.get(configs + "/share.auto.offset.reset").body();
        assertThat(reset.get("value").asString()).isEqualTo("latest");
        assertThat(reset.get("is_default").asBoolean()).isTrue();

        assertThat(put(configs + "/share.record.lock.duration.ms", "{\"value\":\"20000\"}").status()).isEqualTo(204);
        JsonNode lock = http.get(configs + "/share.record.lock.duration.ms").body();
        assertThat(lock.get("value").asString()).isEqualTo("20000");
        assertThat(lock.get("is_default").asBoolean()).isFalse();
        assertThat(lock.get("source").asString()).isEqualTo("DYNAMIC_GROUP_CONFIG");

        Response alter = http.post(configs + ":alter", JSON, "{\"data\":[{\"name\":\"share.delivery.count.limit\","
            + "\"value\":\"3\"},{\"name\":\"share.record.lock.duration.ms\",\"operation\":\"DELETE\"}]}");
        assertThat(alter.status()).as(alter.text()).isEqualTo(204);
        assertThat(http.get(configs + "/share.delivery.count.limit").body().get("value").asString()).isEqualTo("3");
        assertThat(http.get(configs + "/share.record.lock.duration.ms").body().get("is_default").asBoolean()).isTrue();

        Response notShare = put(configs + "/consumer.session.timeout.ms", "{\"value\":\"50000\"}");
        assertThat(notShare.status()).isEqualTo(400);
        assertThat(notShare.body().get("message").asString()).contains("share.*");
        assertThat(put(configs + "/share.delivery.count.limit", "{\"value\":\"many\"}").status()).isEqualTo(400);
        assertThat(http.post(configs + ":alter", JSON, "{\"data\":[{\"name\":\"share.delivery.count.limit\","
            + "\"operation\":\"MERGE\"}]}").status()).isEqualTo(400);
        assertThat(http.get(configs + "/share.nothing").status()).isEqualTo(404);
        assertThat(http.get(configs + "/share.delivery.count.limit").body().get("value").asString())
            .as("refused changes changed nothing").isEqualTo("3");
    }

    @Test
    void unknownGroupsAndClustersAre404AndOffsetsAreServed() throws Exception {
        assertThat(http.get(groupPath("v3-share-nobody")).status()).isEqualTo(404);
        assertThat(http.get(groupPath("v3-share-nobody")).body().get("message").asString())
            .isEqualTo("Share group v3-share-nobody not found.");
        assertThat(http.get(groupPath("v3-share-nobody") + "/members").status()).isEqualTo(404);
        assertThat(http.delete(groupPath("v3-share-nobody")).status()).isEqualTo(404);
        assertThat(http.get("/v3/clusters/not-this-one/share-groups").status()).isEqualTo(404);

        String topic = "v3-share-offsets";
        String group = "v3-share-offsets-group";
        broker().createTopic(topic, 1);
        try (Poller member = new Poller(group, topic, "offsets-1")) {
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(http.get(groupPath(group)).body().path("members").size()).isEqualTo(1));
            // The brokers serve DescribeShareGroupOffsets: the partition's start offset once its state exists
            // (the member's first ShareFetch initializes it, at the end of the empty topic).
            await().atMost(WAIT).untilAsserted(() -> {
                Response offsets = http.get(groupPath(group) + "/offsets");
                assertThat(offsets.status()).as(offsets.text()).isEqualTo(200);
                assertThat(offsets.body().get("kind").asString()).isEqualTo("KafkaShareGroupOffsetList");
                assertThat(offsets.body().get("data").size()).as(offsets.text()).isEqualTo(1);
                assertThat(offsets.body().get("data").get(0).get("topic_name").asString()).isEqualTo(topic);
                assertThat(offsets.body().get("data").get(0).get("partition_id").asInt()).isZero();
                assertThat(offsets.body().get("data").get(0).get("start_offset").asLong()).isZero();
            });
            Response busy = http.post(groupPath(group) + "/offsets:reset", JSON, "{\"to\":\"earliest\"}");
            assertThat(busy.status()).as(busy.text()).isEqualTo(409);
        }
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(http.get(groupPath(group)).body().path("members").size()).isZero());
        Response reset = http.post(groupPath(group) + "/offsets:reset", JSON, "{\"to\":\"offset\",\"offset\":0}");
        assertThat(reset.status()).as(reset.text()).isEqualTo(200);
        assertThat(reset.body().get("share_group_id").asString()).isEqualTo(group);
        assertThat(reset.body().get("offsets").get(0).get("offset").asLong()).isZero();
        assertThat(http.get(groupPath(group) + "/offsets").body().get("data").get(0).get("start_offset").asLong())
            .isZero();
    }

    @Test
    void offsetsAndTheGroupCarryTheLagAsAConsumerAcknowledges() throws Exception {
        String topic = "v3-share-lag";
        String group = "v3-share-lag-group";
        broker().createTopic(topic, 1);
        assertThat(put(groupPath(group) + "/configs/share.auto.offset.reset", "{\"value\":\"earliest\"}").status())
            .isEqualTo(204);
        http.post("/topics/" + topic, "application/vnd.kafka.json.v2+json",
            "{\"records\":[{\"value\":\"a\"},{\"value\":\"b\"},{\"value\":\"c\"},{\"value\":\"d\"},"
                + "{\"value\":\"e\"}]}");
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put("share.acknowledgement.mode", "explicit");
        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(settings,
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return !records.isEmpty();
            });
            assertThat(records).as("one batch, one poll").hasSize(5);
            // Acquired is not delivered: all five are lag.
            await().atMost(WAIT).untilAsserted(() -> {
                JsonNode offset = http.get(groupPath(group) + "/offsets").body().get("data").get(0);
                assertThat(offset.get("start_offset").asLong()).isZero();
                assertThat(offset.get("lag").asLong()).isEqualTo(5);
            });

            // 0 and 1 accepted, 3 rejected: the start offset moves to 2, and 3 is complete past it.
            consumer.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(1), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(3), AcknowledgeType.REJECT);
            consumer.commitSync();
            JsonNode offset = http.get(groupPath(group) + "/offsets").body().get("data").get(0);
            assertThat(offset.get("topic_name").asString()).isEqualTo(topic);
            assertThat(offset.get("start_offset").asLong()).isEqualTo(2);
            assertThat(offset.get("lag").asLong()).as("offsets 2 and 4").isEqualTo(2);
            assertThat(http.get(groupPath(group)).body().get("total_lag").asLong()).isEqualTo(2);

            consumer.acknowledge(records.get(2), AcknowledgeType.ACCEPT);
            consumer.acknowledge(records.get(4), AcknowledgeType.ACCEPT);
            consumer.commitSync();
            assertThat(http.get(groupPath(group) + "/offsets").body().get("data").get(0).get("lag").asLong()).isZero();
        }
        http.post("/topics/" + topic, "application/vnd.kafka.json.v2+json",
            "{\"records\":[{\"value\":\"f\"},{\"value\":\"g\"},{\"value\":\"h\"}]}");
        JsonNode row = http.get("/v3/clusters/" + cluster + "/share-groups").body().get("data").valueStream()
            .filter(g -> g.get("group_id").asString().equals(group)).findFirst().orElseThrow();
        assertThat(row.get("total_lag").asLong()).as("new records are lag until delivered").isEqualTo(3);
        assertThat(http.get(groupPath(group)).body().get("total_lag").asLong()).isEqualTo(3);
    }

    @Test
    void aGroupWithNothingWrittenHasNoLagAndTheLagIsDocumented() throws Exception {
        String topic = "v3-share-lag-none";
        String group = "v3-share-lag-none-group";
        broker().createTopic(topic, 1);
        try (Poller member = new Poller(group, topic, "lag-none-1")) {
            await().atMost(WAIT).untilAsserted(() ->
                assertThat(http.get(groupPath(group)).body().path("members").size()).isEqualTo(1));
            // Nothing written: once the partition's state exists (at the end), nothing is lag.
            await().atMost(WAIT).untilAsserted(() -> {
                JsonNode described = http.get(groupPath(group)).body();
                assertThat(described.get("total_lag").isNumber()).as(described.toString()).isTrue();
                assertThat(described.get("total_lag").asLong()).isZero();
            });
        }
        JsonNode schemas = http.get("/v3/api-docs").body().get("components").get("schemas");
        assertThat(schemas.get("ShareGroup").get("properties").get("total_lag").get("description").asString())
            .contains("null");
        assertThat(schemas.get("ShareGroupOffset").get("properties").get("lag").get("description").asString())
            .contains("KIP-1226");
    }
}
