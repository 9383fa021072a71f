package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ConsumerLoop;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.KafkaTool.Result;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own {@code kafka-consumer-groups} ({@code ConsumerGroupCommand}, run in its own JVM as
 * the shell script runs it) against the broker: list, describe with lag, reset offsets to the
 * earliest, to a datetime and by a shift, delete offsets, and delete the group.
 */
class ConsumerGroupCommandTest {

    private static final String TOOL = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand";
    private static final String TOPIC = "orders";
    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 10;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    static long secondHalfTimestamp;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        admin = broker.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        // Per partition: five records an hour old, then five half an hour old.
        long now = System.currentTimeMillis();
        secondHalfTimestamp = now - 1_800_000;
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    long timestamp = i < PER_PARTITION / 2 ? now - 3_600_000 : secondHalfTimestamp;
                    producer.send(new ProducerRecord<>(TOPIC, p, timestamp, null, ("order-" + p + "-" + i).getBytes()));
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @Test
    void listsDescribesWithLagResetsAndDeletesAGroup() throws Exception {
        commit("billing", Map.of(0, 4L, 1, 7L, 2, 10L));

        assertThat(tool("--list").output().lines().toList()).contains("billing");
        assertThat(tool("--list", "--state", "Empty").output()).contains("billing");
        assertThat(tool("--list", "--state", "Stable").output()).doesNotContain("billing");

        Result describe = tool("--describe", "--group", "billing");
        assertThat(describe.exitCode()).as(describe.output()).isZero();
        assertThat(describe.output()).contains("Consumer group 'billing' has no active members.");
        // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
        assertThat(rows(describe.output())).containsExactlyInAnyOrder(
            List.of("billing", TOPIC, "0", "4", "10", "6", "-", "-", "-"),
            List.of("billing", TOPIC, "1", "7", "10", "3", "-", "-", "-"),
            List.of("billing", TOPIC, "2", "10", "10", "0", "-", "-", "-"));

        Result earliest = tool("--reset-offsets", "--group", "billing", "--topic", TOPIC, "--to-earliest", "--execute");
        assertThat(earliest.exitCode()).as(earliest.output()).isZero();
        assertThat(committed("billing")).isEqualTo(Map.of(0, 0L, 1, 0L, 2, 0L));

        String datetime = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC)
            .format(Instant.ofEpochMilli(secondHalfTimestamp));
        Result toDatetime = tool("--reset-offsets", "--group", "billing", "--all-topics", "--to-datetime", datetime,
            "--execute");
        assertThat(toDatetime.exitCode()).as(toDatetime.output()).isZero();
        assertThat(committed("billing")).isEqualTo(Map.of(0, 5L, 1, 5L, 2, 5L));

        Result shift = tool("--reset-offsets", "--group", "billing", "--topic", TOPIC + ":0,1", "--shift-by", "3",
            "--execute");
        assertThat(shift.exitCode()).as(shift.output()).isZero();
        assertThat(committed("billing")).isEqualTo(Map.of(0, 8L, 1, 8L, 2, 5L));
        Result shiftPastTheEnd = tool("--reset-offsets", "--group", "billing", "--topic", TOPIC, "--shift-by", "4",
            "--execute");
        assertThat(shiftPastTheEnd.exitCode()).as(shiftPastTheEnd.output()).isZero();
        assertThat(committed("billing")).as("clamped to the log end").isEqualTo(Map.of(0, 10L, 1, 10L, 2, 9L));

        Result deleteOffsets = tool("--delete-offsets", "--group", "billing", "--topic", TOPIC + ":2");
        assertThat(deleteOffsets.exitCode()).as(deleteOffsets.output()).isZero();
        assertThat(committed("billing")).isEqualTo(Map.of(0, 10L, 1, 10L));

        Result delete = tool("--delete", "--group", "billing");
        assertThat(delete.output()).contains("Deletion of requested consumer groups ('billing') was successful.");
        assertThat(tool("--list").output().lines().toList()).doesNotContain("billing");
        assertThat(admin.listConsumerGroupOffsets("billing").partitionsToOffsetAndMetadata().get()).isEmpty();
    }

    @Test
    void describesTheMembersOfAnActiveGroupAndRefusesToDeleteIt() throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "live");
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "live-client");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (ConsumerLoop member = new ConsumerLoop("live", broker.consumer(settings), List.of(TOPIC),
                ConsumerLoop.CommitMode.SYNC)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> member.consumed().size() == PARTITIONS * PER_PARTITION);
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(tool("--describe", "--group", "live").output())
                .stream().allMatch(row -> row.get(5).equals("0")));

            List<List<String>> rows = rows(tool("--describe", "--group", "live").output());
            assertThat(rows).hasSize(PARTITIONS).allSatisfy(row -> {
                assertThat(row.subList(3, 6)).containsExactly("10", "10", "0");
                assertThat(row.get(6)).startsWith("live-client-");
                assertThat(row.get(8)).isEqualTo("live-client");
            });
            Result members = tool("--describe", "--group", "live", "--members");
            assertThat(members.output()).contains("live-client").contains(" 3 ");
            Result state = tool("--describe", "--group", "live", "--state");
            assertThat(state.output()).contains("Stable").contains("range");

            Result delete = tool("--delete", "--group", "live");
            assertThat(delete.output()).contains("The group is not empty");
        }
    }

    private static Result tool(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrapServers();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.run(null, TOOL, all);
    }

    /** The partition rows of a describe output: GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG ... */
    private static List<List<String>> rows(String output) {
        return output.lines().map(String::trim).filter(l -> l.contains(" " + TOPIC + " "))
            .map(l -> Arrays.asList(l.split("\\s+"))).toList();
    }

    private static void commit(String group, Map<Integer, Long> offsets) {
        Map<String, Object> settings = Map.of(ConsumerConfig.GROUP_ID_CONFIG, group);
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(settings)) {
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            offsets.forEach((p, o) -> commits.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(o)));
            consumer.commitSync(commits);
        }
    }

    private static Map<Integer, Long> committed(String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().stream()
            .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
    }
}
