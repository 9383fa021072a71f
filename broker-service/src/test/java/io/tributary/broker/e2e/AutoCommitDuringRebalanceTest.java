package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression for KIP-1251 (assignment epochs): kafka-clients 4.4 consumers with
 * {@code group.protocol=consumer} and auto-commit, reading while records flow, joined one by one.
 * Every join bumps the epochs of the members already there; an auto-commit a member sent with its
 * previous epoch, for partitions it keeps, must be accepted, as Kafka 4.4 accepts it. Before assignment
 * epochs, the broker answered STALE_MEMBER_EPOCH and the client logged "OffsetCommit failed for member X
 * with stale member epoch error".
 */
class AutoCommitDuringRebalanceTest {

    private static final String TOPIC = "rebalanced";
    private static final int PARTITIONS = 20;
    private static final int MEMBERS = 11;

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of("broker.group-consumer-heartbeat-interval-ms", "200"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static KafkaConsumer<byte[], byte[]> member() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "auto-committers");
        settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
        settings.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 5);
        return broker.consumer(settings);
    }

    /** A member polling on its own thread until stopped, as an application runs it; its assignment's size. */
    private static final class Member implements Runnable {
        final AtomicInteger owned = new AtomicInteger();
        final AtomicLong records = new AtomicLong();
        private final AtomicBoolean stop;

        Member(AtomicBoolean stop) {
            this.stop = stop;
        }

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> consumer = member()) {
                consumer.subscribe(List.of(TOPIC));
                while (!stop.get()) {
                    records.addAndGet(consumer.poll(Duration.ofMillis(10)).count());
                    owned.set(consumer.assignment().size());
                }
            }
        }
    }

    @Test
    void autoCommitsSentWithThePreviousEpochForKeptPartitionsAreAccepted() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService threads = Executors.newCachedThreadPool();
        List<Member> members = new ArrayList<>();
        try (LogCapture logs = LogCapture.open();
             KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            // Records keep flowing, so every member has new positions to auto-commit.
            Future<?> feeder = threads.submit(() -> {
                for (long i = 0; !stop.get(); i++) {
                    producer.send(new ProducerRecord<>(TOPIC, (int) (i % PARTITIONS), null,
                        ("r" + i).getBytes(StandardCharsets.UTF_8)));
                }
            });
            try {
                for (int joined = 1; joined <= MEMBERS; joined++) {
                    Member newcomer = new Member(stop);
                    members.add(newcomer);
                    threads.submit(newcomer);
                    int share = PARTITIONS / joined;
                    // Until the newcomer owns its share and every partition is owned again.
                    await().atMost(Duration.ofSeconds(60)).until(() ->
                        members.stream().mapToInt(m -> m.owned.get()).sum() == PARTITIONS
                            && members.stream().allMatch(m -> m.owned.get() >= share));
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> members.stream().allMatch(m -> m.records.get() > 0));
            } finally {
                stop.set(true);
                threads.shutdown();
                assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            }
            feeder.get();
            assertThat(logs.lines()).as("OffsetCommits refused for a stale member epoch")
                .noneMatch(l -> l.contains("stale member epoch"));
        }
    }
}
