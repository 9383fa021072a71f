package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ConsumerProcess;
import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share groups (KIP-932) with kafka-clients 4.4's {@link KafkaShareConsumer} and Kafka's
 * {@code kafka-console-share-consumer}: queue semantics with more consumers than partitions,
 * per-record acknowledgement (accept, release, reject), and records held by a consumer killed with
 * SIGKILL delivered again to another once its session or their acquisition lock expires.
 */
class ShareConsumerTest {

    private static final int LOCK_MS = 3000;

    @TempDir
    Path dir;

    private TestBroker broker;
    private final List<KafkaShareConsumer<String, String>> consumers = new ArrayList<>();

    @BeforeEach
    void start() {
        // Short locks and sessions so a dead member's records come back within seconds (the group
        // config bounds are widened to include the broker's own values).
        broker = TestBroker.start(dir.resolve("broker"), Map.of(
            "broker.group-share-record-lock-duration-ms", String.valueOf(LOCK_MS),
            "broker.group-share-session-timeout-ms", "6000",
            "broker.group-share-heartbeat-interval-ms", "1000"));
    }

    @AfterEach
    void stop() {
        consumers.forEach(KafkaShareConsumer::close);
        broker.close();
    }

    @Test
    void moreConsumersThanPartitionsShareTheRecordsAndEachIsDeliveredOnce() throws Exception {
        createTopic("jobs", 2);
        readFromTheStart("workers");
        for (int i = 0; i < 6; i++) {
            consumers.add(consumer("workers", "implicit", 10));
        }
        List<String> sent = produce("jobs", 600);

        Map<Integer, List<String>> byConsumer = new ConcurrentHashMap<>();
        List<String> received = new ArrayList<>();
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            for (int i = 0; i < consumers.size(); i++) {
                for (ConsumerRecord<String, String> r : consumers.get(i).poll(Duration.ofMillis(50))) {
                    received.add(r.value());
                    byConsumer.computeIfAbsent(i, k -> new ArrayList<>()).add(r.value());
                }
            }
            return new HashSet<>(received).size() == sent.size();
        });
        // Every record once (each was accepted by the next poll, well within its lock).
        assertThat(received).hasSameSizeAs(sent).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(byConsumer.keySet()).as("consumers that received records, of 6 on 2 partitions").hasSizeGreaterThan(2);

        // Accepted records are gone: a newcomer to the group gets only what is written later.
        consumers.forEach(c -> c.commitSync());
        KafkaShareConsumer<String, String> newcomer = consumer("workers", "implicit", 10);
        consumers.add(newcomer);
        produceValue("jobs", "after");
        List<String> late = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            for (KafkaShareConsumer<String, String> c : consumers) {
                c.poll(Duration.ofMillis(50)).forEach(r -> late.add(r.value()));
            }
            return late.contains("after");
        });
        assertThat(late).containsExactly("after");
    }

    @Test
    void releasedRecordsComeBackAndRejectedOnesDoNot() throws Exception {
        createTopic("tasks", 1);
        readFromTheStart("checkers");
        KafkaShareConsumer<String, String> consumer = consumer("checkers", "explicit", 100);
        consumers.add(consumer);
        List<String> sent = produce("tasks", 10);

        List<ConsumerRecord<String, String>> first = pollUntil(consumer, 10);
        assertThat(first).extracting(ConsumerRecord::value).containsExactlyElementsOf(sent);
        assertThat(first).allSatisfy(r -> assertThat(r.deliveryCount()).contains((short) 1));
        for (ConsumerRecord<String, String> r : first) {
            AcknowledgeType type = r.offset() < 3 ? AcknowledgeType.RELEASE
                : r.offset() == 3 ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT;
            consumer.acknowledge(r, type);
        }
        assertThat(consumer.commitSync().values()).allSatisfy(error -> assertThat(error).isEmpty());

        List<ConsumerRecord<String, String>> again = pollUntil(consumer, 3);
        assertThat(again).extracting(ConsumerRecord::value).containsExactlyElementsOf(sent.subList(0, 3));
        assertThat(again).allSatisfy(r -> assertThat(r.deliveryCount()).contains((short) 2));
        again.forEach(r -> consumer.acknowledge(r, AcknowledgeType.ACCEPT));
        consumer.commitSync();

        // The rejected record is archived: a record written later is the next one delivered.
        produceValue("tasks", "after");
        List<ConsumerRecord<String, String>> rest = pollUntil(consumer, 1);
        assertThat(rest).extracting(ConsumerRecord::value).containsExactly("after");
    }

    @Test
    void recordsHeldByAKilledConsumerAreDeliveredToAnother() throws Exception {
        createTopic("orders", 1);
        readFromTheStart("shippers");
        List<String> sent = produce("orders", 20);
        try (ConsumerProcess victim = ConsumerProcess.start(broker.bootstrapServers(), "shippers", "orders", 6000,
                "share-hold", dir.resolve("victim.log"))) {
            await().atMost(Duration.ofSeconds(60)).until(victim::holding);
            assertThat(victim.values()).isNotEmpty();
            victim.kill();

            KafkaShareConsumer<String, String> survivor = consumer("shippers", "explicit", 100);
            consumers.add(survivor);
            Map<String, Short> deliveries = new HashMap<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : survivor.poll(Duration.ofMillis(100))) {
                    deliveries.put(r.value(), r.deliveryCount().orElseThrow());
                    survivor.acknowledge(r, AcknowledgeType.ACCEPT);
                }
                return deliveries.size() == sent.size();
            });
            assertThat(deliveries.keySet()).containsExactlyInAnyOrderElementsOf(sent);
            for (String held : victim.values()) {
                assertThat(deliveries.get(held)).as("delivery count of %s, held by the killed member", held)
                    .isGreaterThanOrEqualTo((short) 2);
            }
        }
    }

    @Test
    void kafkaConsoleShareConsumerReadsAsTheGroupsMember() throws Exception {
        createTopic("alerts", 1);
        readFromTheStart("pagers");
        List<String> sent = produce("alerts", 3);
        KafkaTool.Result consume = KafkaTool.run(null, "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
            "--bootstrap-server", broker.bootstrapServers(), "--topic", "alerts", "--group", "pagers",
            "--max-messages", "3", "--timeout-ms", "30000");
        assertThat(consume.output()).contains(String.join("\n", sent) + "\n")
            .contains("Processed a total of 3 messages");
        // The console consumer accepted them: the group has nothing left to hand out.
        produceValue("alerts", "after");
        KafkaShareConsumer<String, String> next = consumer("pagers", "implicit", 10);
        consumers.add(next);
        assertThat(pollUntil(next, 1)).extracting(ConsumerRecord::value).containsExactly("after");
    }

    private List<ConsumerRecord<String, String>> pollUntil(KafkaShareConsumer<String, String> consumer, int count) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            return out.size() >= count;
        });
        return out;
    }

    private void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /** {@code share.auto.offset.reset=earliest} for the group (the default, latest, skips what is already written). */
    private void readFromTheStart(String group) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get();
        }
    }

    private KafkaShareConsumer<String, String> consumer(String group, String acknowledgementMode, int maxPollRecords) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        p.put("share.acknowledgement.mode", acknowledgementMode);
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p, new StringDeserializer(),
            new StringDeserializer());
        consumer.subscribe(List.of(topicOf(group)));
        return consumer;
    }

    private static String topicOf(String group) {
        return switch (group) {
            case "workers" -> "jobs";
            case "checkers" -> "tasks";
            case "pagers" -> "alerts";
            default -> "orders";
        };
    }

    private List<String> produce(String topic, int count) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(topic + "-" + i);
        }
        send(topic, values);
        return values;
    }

    private void produceValue(String topic, String value) {
        send(topic, List.of(value));
    }

    private void send(String topic, Collection<String> values) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            int i = 0;
            for (String v : values) {
                producer.send(new ProducerRecord<>(topic, null, v));
                if (++i % 10 == 0) {
                    producer.flush(); // batches of 10, so several members can hold parts of the log at once
                }
            }
            producer.flush();
        }
    }
}
