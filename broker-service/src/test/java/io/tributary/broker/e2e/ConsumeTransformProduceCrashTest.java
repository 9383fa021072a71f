package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestJvm;
import io.tributary.broker.testing.TransformApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once consume-transform-produce under crashes (KIP-98, KIP-447): a {@link TransformApp}
 * process is SIGKILLed at seeded random moments, mostly inside a transaction, and started again,
 * several times, then left to finish. Each new instance fences the killed one and its open
 * transaction is aborted. At the end the output topic read with read_committed holds each input
 * record's result exactly once, in input order per partition, and the group's committed offsets
 * are the input's end offsets.
 */
class ConsumeTransformProduceCrashTest {

    private static final String IN = "crash-in";
    private static final String OUT = "crash-out";
    private static final String GROUP = "crash-transformer";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 1200;
    private static final int KILLS = 5;
    private static final long SEED = 20261202L;

    @TempDir
    Path dir;

    @Test
    void eachInputIsTransformedExactlyOnceAcrossKills() throws Exception {
        Random random = new Random(SEED);
        try (TestBroker broker = TestBroker.start(dir.resolve("broker"), Map.of());
             Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(IN, PARTITIONS, (short) 1), new NewTopic(OUT, PARTITIONS, (short) 1)))
                .all().get();
            try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>(IN, i % PARTITIONS, bytes("k" + i), bytes("in-" + i)));
                }
            }
            long committedBefore = 0;
            for (int kill = 0; kill < KILLS; kill++) {
                Process app = startApp(broker, kill);
                long floor = committedBefore;
                // Let it commit some transactions, then kill it at a random moment of a later one.
                await().atMost(Duration.ofSeconds(60)).until(() -> committed(admin) > floor);
                long pauseUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(random.nextInt(400));
                await().pollInterval(Duration.ofMillis(10)).until(() -> System.nanoTime() >= pauseUntil);
                app.destroyForcibly(); // SIGKILL
                assertThat(app.waitFor(30, TimeUnit.SECONDS)).isTrue();
                committedBefore = committed(admin);
                assertThat(committedBefore).as("kill %d (seed %d)", kill, SEED).isLessThan(RECORDS);
            }
            Process last = startApp(broker, KILLS);
            try {
                await().atMost(Duration.ofSeconds(90)).until(() -> committed(admin) == RECORDS);
            } finally {
                last.destroyForcibly();
                last.waitFor(30, TimeUnit.SECONDS);
            }

            Map<TopicPartition, Long> inputEnds = new HashMap<>();
            admin.listOffsets(partitions(IN).stream().collect(java.util.stream.Collectors.toMap(tp -> tp,
                tp -> OffsetSpec.latest()))).all().get().forEach((tp, info) -> inputEnds.put(tp, info.offset()));
            Map<TopicPartition, Long> committedOffsets = new HashMap<>();
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get()
                .forEach((tp, o) -> committedOffsets.put(tp, o.offset()));
            assertThat(committedOffsets).as("committed offsets (seed %d)", SEED).isEqualTo(inputEnds);

            Map<Integer, List<Integer>> byPartition = readCommitted(broker);
            List<Integer> all = byPartition.values().stream().flatMap(List::stream).sorted().toList();
            assertThat(all).as("each input exactly once (seed %d)", SEED)
                .isEqualTo(java.util.stream.IntStream.range(0, RECORDS).boxed().toList());
            byPartition.forEach((p, values) -> assertThat(values).as("partition %d in input order", p).isSorted());
            long uncommitted = admin.listOffsets(partitions(OUT).stream().collect(java.util.stream.Collectors.toMap(
                tp -> tp, tp -> OffsetSpec.latest())), new org.apache.kafka.clients.admin.ListOffsetsOptions(
                IsolationLevel.READ_UNCOMMITTED)).all().get().values().stream().mapToLong(i -> i.offset()).sum();
            System.out.printf("seed %d: %d output log entries (records, aborted records and markers) for %d inputs%n",
                SEED, uncommitted, RECORDS);
        }
    }

    private Process startApp(TestBroker broker, int instance) throws IOException {
        return TestJvm.startMain(TransformApp.class, "128m", dir.resolve("app-" + instance + ".log"),
            broker.bootstrapServers(), IN, OUT, GROUP, "crash-transformer-0", "100");
    }

    private static long committed(Admin admin) throws Exception {
        return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get().values().stream()
            .filter(java.util.Objects::nonNull).mapToLong(OffsetAndMetadata::offset).sum();
    }

    private static List<TopicPartition> partitions(String topic) {
        return java.util.stream.IntStream.range(0, PARTITIONS).mapToObj(p -> new TopicPartition(topic, p)).toList();
    }

    /** The output's input numbers per partition, read to the end with read_committed. */
    private static Map<Integer, List<Integer>> readCommitted(TestBroker broker) {
        Map<Integer, List<Integer>> byPartition = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
            consumer.assign(partitions(OUT));
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions(OUT));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    String value = new String(r.value(), StandardCharsets.UTF_8);
                    byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>())
                        .add(Integer.parseInt(value.substring("out-in-".length())));
                }
                return partitions(OUT).stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
            });
        }
        return byPartition;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
