package io.tributary.restproxy.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import io.tributary.restproxy.testing.RestConsumer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class ConsumerRoundTripTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";
    private static final String BINARY = "application/vnd.kafka.binary.v2+json";

    @Autowired
    private ConsumerManager consumers;

    @Test
    void accessLogLinesPostedInBatchesComeBackIdenticalAndInOrderPerPartition() throws Exception {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("access.log")), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(10_000);
        broker().createTopic("access-log", 3);
        Map<String, String> producedAt = new HashMap<>();
        for (int start = 0; start < lines.size(); start += 500) {
            ObjectNode body = HttpJson.mapper().createObjectNode();
            ArrayNode records = body.putArray("records");
            for (String line : lines.subList(start, start + 500)) {
                records.addObject().put("value", line);
            }
            Response response = http.post("/topics/access-log", JSON, body.toString());
            assertThat(response.status()).as(response.text()).isEqualTo(200);
            JsonNode offsets = response.body().get("offsets");
            for (int i = 0; i < 500; i++) {
                JsonNode offset = offsets.get(i);
                assertThat(offset.get("error_code").isNull()).isTrue();
                producedAt.put(offset.get("partition").asInt() + "@" + offset.get("offset").asLong(),
                    lines.get(start + i));
            }
        }

        RestConsumer consumer = RestConsumer.create(http, "access-log-readers",
            "{\"name\":\"reader\",\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        assertThat(consumer.subscribe("access-log").status()).isEqualTo(204);
        List<JsonNode> consumed = consumer.readAtLeast(10_000, JSON, 200);

        assertThat(consumed).hasSize(10_000);
        Map<Integer, Long> lastOffset = new HashMap<>();
        for (JsonNode record : consumed) {
            int partition = record.get("partition").asInt();
            long offset = record.get("offset").asLong();
            assertThat(offset).isGreaterThan(lastOffset.getOrDefault(partition, -1L));
            lastOffset.put(partition, offset);
            assertThat(record.get("topic").asString()).isEqualTo("access-log");
            assertThat(record.get("key").isNull()).isTrue();
            assertThat(record.get("value").asString()).isEqualTo(producedAt.get(partition + "@" + offset));
        }
        assertThat(consumer.delete().status()).isEqualTo(204);
    }

    @Test
    void binaryValuesThatAreNotUtf8RoundTrip() {
        broker().createTopic("binary-round-trip", 1);
        byte[] key = {0, (byte) 0xff};
        byte[] value = {(byte) 0xc3, 0x28, (byte) 0xa0, (byte) 0xa1, (byte) 0xf0, 0x28, (byte) 0x8c, 0x28};
        Response produced = http.post("/topics/binary-round-trip", BINARY, "{\"records\":[{\"key\":\"" + b64(key)
            + "\",\"value\":\"" + b64(value) + "\"}]}");
        assertThat(produced.status()).isEqualTo(200);

        RestConsumer consumer = RestConsumer.create(http, "binary-readers",
            "{\"format\":\"binary\",\"auto.offset.reset\":\"earliest\"}");
        consumer.subscribe("binary-round-trip");
        List<JsonNode> records = consumer.readAtLeast(1, BINARY, 20);

        assertThat(records).hasSize(1);
        assertThat(Base64.getDecoder().decode(records.get(0).get("key").asString())).containsExactly(key);
        assertThat(Base64.getDecoder().decode(records.get(0).get("value").asString())).containsExactly(value);
        consumer.delete();
    }

    @Test
    void aLongPollReturnsSoonAfterARecordIsProducedAndAnEmptyOneAfterItsTimeout() throws Exception {
        broker().createTopic("long-poll", 1);
        RestConsumer consumer = RestConsumer.create(http, "long-pollers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        consumer.subscribe("long-poll");

        long started = System.nanoTime();
        CompletableFuture<Response> poll = CompletableFuture.supplyAsync(() -> consumer.records(30_000, JSON));
        ConsumerInstance instance = consumers.get("long-pollers", consumer.instanceId());
        await().atMost(Duration.ofSeconds(20)).until(() -> instance.waitingReads() == 1);
        assertThat(poll).isNotDone();
        http.post("/topics/long-poll", JSON, "{\"records\":[{\"value\":\"wake up\"}]}");
        Response response = poll.get(30, TimeUnit.SECONDS);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(response.body()).hasSize(1);
        assertThat(response.body().get(0).get("value").asString()).isEqualTo("wake up");
        assertThat(elapsedMs).as("well before the 30 s timeout").isLessThan(5_000);

        Response empty = consumer.records(500, JSON);
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.body().isArray()).isTrue();
        assertThat(empty.body()).isEmpty();
        consumer.delete();
    }

    @Test
    void longPollsLongerThanTheContainersAsyncTimeoutAnswerEmptyAfterTheirOwnTimeout() {
        broker().createTopic("long-wait", 1);
        RestConsumer consumer = RestConsumer.create(http, "long-waiters", "{\"format\":\"json\"}");
        consumer.subscribe("long-wait");

        Response instance = consumer.records(3_000, JSON);
        Response partition = http.get("/topics/long-wait/partitions/0/records?offset=0&timeout=3000", JSON);

        assertThat(instance.status()).as(instance.text()).isEqualTo(200);
        assertThat(instance.body()).isEmpty();
        assertThat(partition.status()).as(partition.text()).isEqualTo(200);
        assertThat(partition.body()).isEmpty();
        consumer.delete();
    }

    @Test
    void theFirstReadAfterSubscribingWaitsForTheGroupJoinInsteadOfAnsweringEmpty() {
        broker().createTopic("first-read", 1);
        produceJson("first-read", "already there");
        RestConsumer consumer = RestConsumer.create(http, "first-readers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        consumer.subscribe("first-read");

        Response first = consumer.records(20_000, JSON);

        assertThat(first.body()).hasSize(1);
        assertThat(first.body().get(0).get("value").asString()).isEqualTo("already there");
        consumer.delete();
    }

    @Test
    void aNewInstanceInTheGroupResumesAfterTheCommittedOffset() {
        broker().createTopic("resume", 1);
        produceJson("resume", "a", "b", "c");
        RestConsumer first = RestConsumer.create(http, "resumers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        first.subscribe("resume");
        List<JsonNode> read = first.readAtLeast(3, JSON, 20);
        assertThat(read).hasSize(3);
        assertThat(first.commitAll().status()).isEqualTo(200);
        Response committed = first.committed("{\"partitions\":[{\"topic\":\"resume\",\"partition\":0}]}");
        assertThat(committed.body().get("offsets").get(0).get("offset").asLong()).isEqualTo(3);
        assertThat(first.delete().status()).isEqualTo(204);

        produceJson("resume", "d", "e");
        RestConsumer second = RestConsumer.create(http, "resumers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        second.subscribe("resume");
        List<JsonNode> resumed = second.readAtLeast(2, JSON, 20);

        assertThat(resumed).extracting(r -> r.get("value").asString()).containsExactly("d", "e");
        assertThat(resumed.get(0).get("offset").asLong()).isEqualTo(3);
        second.delete();
    }

    @Test
    void explicitCommitStoresTheOffsetAfterTheNamedRecord() {
        broker().createTopic("explicit-commit", 1);
        produceJson("explicit-commit", "a", "b", "c");
        RestConsumer consumer = RestConsumer.create(http, "explicit-committers",
            "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\",\"auto.commit.enable\":\"false\"}");
        consumer.subscribe("explicit-commit");
        consumer.readAtLeast(3, JSON, 20);

        Response commit = consumer.post("/offsets",
            "{\"offsets\":[{\"topic\":\"explicit-commit\",\"partition\":0,\"offset\":1,\"metadata\":\"m\"}]}");
        Response committed = consumer.committed("{\"partitions\":[{\"topic\":\"explicit-commit\",\"partition\":0}]}");

        assertThat(commit.status()).isEqualTo(200);
        JsonNode offset = committed.body().get("offsets").get(0);
        assertThat(offset.get("offset").asLong()).isEqualTo(2);
        assertThat(offset.get("metadata").asString()).isEqualTo("m");
        consumer.delete();
    }

    @Test
    void twoInstancesOfAGroupSplitThePartitionsAndEachRecordGoesToOne() {
        broker().createTopic("shared-work", 4);
        RestConsumer a = RestConsumer.create(http, "sharers", "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        RestConsumer b = RestConsumer.create(http, "sharers", "{\"format\":\"json\",\"auto.offset.reset\":\"earliest\"}");
        a.subscribe("shared-work");
        b.subscribe("shared-work");
        // Both join before anything is produced, so neither reads a partition it then loses.
        awaitAssigned(a, b);

        List<String> values = new ArrayList<>();
        StringBuilder body = new StringBuilder("{\"records\":[");
        for (int i = 0; i < 40; i++) {
            values.add("v" + i);
            body.append(i == 0 ? "" : ",").append("{\"partition\":").append(i % 4).append(",\"value\":\"v").append(i)
                .append("\"}");
        }
        http.post("/topics/shared-work", JSON, body.append("]}").toString());

        List<String> fromA = new ArrayList<>();
        List<String> fromB = new ArrayList<>();
        for (int i = 0; i < 30 && fromA.size() + fromB.size() < 40; i++) {
            a.records(300, JSON).body().forEach(r -> fromA.add(r.get("value").asString()));
            b.records(300, JSON).body().forEach(r -> fromB.add(r.get("value").asString()));
        }

        assertThat(fromA).isNotEmpty();
        assertThat(fromB).isNotEmpty();
        Set<String> overlap = new HashSet<>(fromA);
        overlap.retainAll(fromB);
        assertThat(overlap).isEmpty();
        List<String> all = new ArrayList<>(fromA);
        all.addAll(fromB);
        assertThat(all).containsExactlyInAnyOrderElementsOf(values);
        a.delete();
        b.delete();
    }

    private void awaitAssigned(RestConsumer a, RestConsumer b) {
        await("the two instances share the 4 partitions").atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(200)).until(() -> {
                int assignedA = assignments(a);
                int assignedB = assignments(b);
                return assignedA + assignedB == 4 && assignedA > 0 && assignedB > 0;
            });
    }

    private int assignments(RestConsumer consumer) {
        return http.get(consumer.baseUri() + "/assignments").body().get("partitions").size();
    }

    private void produceJson(String topic, String... values) {
        StringBuilder body = new StringBuilder("{\"records\":[");
        for (int i = 0; i < values.length; i++) {
            body.append(i == 0 ? "" : ",").append("{\"value\":\"").append(values[i]).append("\"}");
        }
        Response response = http.post("/topics/" + topic, JSON, body.append("]}").toString());
        assertThat(response.status()).isEqualTo(200);
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
