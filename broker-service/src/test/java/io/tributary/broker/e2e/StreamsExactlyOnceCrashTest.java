package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestJvm;
import io.tributary.broker.testing.WordCountApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams' {@code exactly_once_v2} under crashes: while input keeps arriving, the word count
 * process ({@link WordCountApp}) is SIGKILLed twice mid-run and started again on the same state
 * directory; it restores its store from the changelog, the killed instance's open transaction is
 * aborted, and read_committed, the last count of each word is exact.
 */
class StreamsExactlyOnceCrashTest {

    private static final List<String> LINES = List.of("the quick brown fox", "jumps over the lazy dog",
        "the dog sleeps", "a quick fox", "the end");
    private static final int ROUNDS = 1500;

    @TempDir
    Path dir;

    @Test
    void theFinalCountsAreExactAfterTheApplicationIsKilledTwice() throws Exception {
        Map<String, Long> expected = new HashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (String line : LINES) {
                Arrays.stream(line.split(" ")).forEach(w -> expected.merge(w, 1L, Long::sum));
            }
        }
        ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
        try (TestBroker broker = TestBroker.start(dir.resolve("broker"), Map.of());
             Admin admin = broker.admin();
             KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of());
             KafkaConsumer<byte[], byte[]> output = broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                 "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
            admin.createTopics(List.of(new NewTopic("lines", 2, (short) 1), new NewTopic("word-counts", 2, (short) 1)))
                .all().get();
            // Input keeps coming while the application is killed: 5 lines every 20 ms (a round a tick),
            // then, once the last instance runs, ten rounds a tick: the rest need not take 30 s.
            AtomicInteger rounds = new AtomicInteger();
            AtomicInteger roundsPerTick = new AtomicInteger(1);
            feeder.scheduleAtFixedRate(() -> {
                for (int i = 0; i < roundsPerTick.get() && rounds.get() < ROUNDS; i++) {
                    LINES.forEach(line -> producer.send(new ProducerRecord<>("lines", null, bytes(line))));
                    rounds.incrementAndGet();
                }
            }, 0, 20, TimeUnit.MILLISECONDS);
            output.assign(List.of(new org.apache.kafka.common.TopicPartition("word-counts", 0),
                new org.apache.kafka.common.TopicPartition("word-counts", 1)));
            Map<String, Long> latest = new HashMap<>();

            for (int kill = 0; kill < 2; kill++) {
                Process app = startApp(broker, kill);
                long seen = latest.getOrDefault("the", 0L);
                await().atMost(Duration.ofSeconds(90)).until(() -> {
                    poll(output, latest);
                    return latest.getOrDefault("the", 0L) > seen;
                });
                assertThat(rounds.get()).as("input is still arriving at kill %d", kill).isLessThan(ROUNDS);
                app.destroyForcibly(); // SIGKILL, mid-run
                assertThat(app.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            Process last = startApp(broker, 2);
            roundsPerTick.set(10);
            try {
                await().atMost(Duration.ofSeconds(120)).until(() -> {
                    poll(output, latest);
                    return rounds.get() == ROUNDS && latest.equals(expected);
                });
            } finally {
                last.destroyForcibly();
                last.waitFor(30, TimeUnit.SECONDS);
            }
            assertThat(latest).isEqualTo(expected);
        } finally {
            feeder.shutdownNow();
        }
    }

    private static void poll(KafkaConsumer<byte[], byte[]> output, Map<String, Long> latest) {
        for (ConsumerRecord<byte[], byte[]> r : output.poll(Duration.ofMillis(200))) {
            latest.put(new String(r.key(), StandardCharsets.UTF_8),
                Serdes.Long().deserializer().deserialize("word-counts", r.value()));
        }
    }

    private Process startApp(TestBroker broker, int instance) throws IOException {
        return TestJvm.startMain(WordCountApp.class, "192m", dir.resolve("streams-" + instance + ".log"),
            broker.bootstrapServers(), "word-count-crash", dir.resolve("streams-state").toString());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
