package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.TestBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log compaction survives SIGKILL of the broker process. One test kills it while it cleans the
 * fixed workload of {@link LogCompactionTest} and checks the exact result after the restart.
 *
 * <p>The other kills it while its log cleaner compacts a topic that a producer keeps updating (16 KiB segments, so a cleaning swaps many segments and is usually
 * under way: the test kills when the broker's log shows a cleaning begun and not finished).
 * After a restart, which settles any interrupted swap, and one more cleaning, the log reads
 * from offset 0 to its end with strictly increasing offsets, and for every key the latest
 * acknowledged update (or a later one the broker stored before dying) is there, with its value
 * at its offset: no acknowledged latest value is lost. Wherever the kill lands (before, during
 * or between cleanings) these checks hold.
 */
class CompactionCrashRecoveryTest {

    private static final String TOPIC = "compacted-crash";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final int KEYS = 100;
    private static final Pattern BEGUN = Pattern.compile("Beginning cleaning of " + TOPIC + "-0");
    private static final Pattern DONE = Pattern.compile("Cleaned " + TOPIC + "-0|Cleaning of " + TOPIC + "-0");

    @TempDir
    Path dir;

    private record Acked(long offset, String value) {
    }

    @Test
    void aBrokerKilledWhileCleaningRestartsWithEveryLatestValue() throws Exception {
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;
        List<String> args = BrokerProcess.singleNodeArgs(dir.resolve("data"), port, "--broker.log-segment-bytes=16384",
            "--broker.log-cleaner-backoff-ms=50", "--broker.log-cleaner-dedupe-buffer-size=4194304");
        Map<String, Acked> latestAcked = new ConcurrentHashMap<>();
        AtomicInteger acked = new AtomicInteger();
        AtomicBoolean producing = new AtomicBoolean(true);
        boolean killedMidClean;
        try (BrokerProcess first = BrokerProcess.start(dir, "first.log", args, Duration.ofSeconds(90))) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of(
                    "cleanup.policy", "compact", "min.cleanable.dirty.ratio", "0.01")))).all().get();
            }
            KafkaProducer<byte[], byte[]> producer = producer(bootstrap);
            Thread writer = new Thread(() -> {
                int i = 0;
                while (producing.get()) {
                    String key = "k" + (i % KEYS);
                    String value = "v" + i + "-" + "x".repeat(150);
                    try {
                        producer.send(new ProducerRecord<>(TOPIC, 0, key.getBytes(), value.getBytes()), (md, error) -> {
                            if (error == null) {
                                acked.incrementAndGet();
                                latestAcked.merge(key, new Acked(md.offset(), value),
                                    (a, b) -> a.offset() >= b.offset() ? a : b);
                            }
                        });
                    } catch (RuntimeException e) {
                        return;
                    }
                    i++;
                    if (i % 500 == 0) {
                        pace(2);
                    }
                }
            }, "compaction-crash-writer");
            writer.start();
            killedMidClean = killWhileCleaning(first, acked);
            producing.set(false);
            writer.join(10_000);
            producer.close(Duration.ZERO);
        }
        assertThat(acked.get()).as("updates acknowledged before the kill").isGreaterThanOrEqualTo(20_000);
        System.out.println("Killed the broker " + (killedMidClean ? "during" : "outside") + " a cleaning, after "
            + acked.get() + " acknowledged updates");

        try (BrokerProcess second = BrokerProcess.start(dir, "second.log", args, Duration.ofSeconds(90))) {
            assertThat(second.log()).contains("unclean shutdown");
            System.out.println("On restart the broker " + (second.log().contains("Completing the interrupted swap")
                ? "completed an interrupted swap" : second.log().contains("of an interrupted cleaning")
                ? "deleted the files of an interrupted cleaning" : "found no cleaning to settle"));
            second.awaitLog("Cleaned " + TOPIC + "-0", Duration.ofSeconds(60));
            List<ConsumerRecord<byte[], byte[]>> records = readAll(bootstrap);

            Map<String, ConsumerRecord<byte[], byte[]>> lastRead = new HashMap<>();
            for (int i = 0; i < records.size(); i++) {
                if (i > 0) {
                    assertThat(records.get(i).offset()).isGreaterThan(records.get(i - 1).offset());
                }
                lastRead.put(new String(records.get(i).key()), records.get(i));
            }
            assertThat(records.size()).as("compacted").isLessThan(acked.get() / 10);
            assertThat(lastRead.keySet()).hasSize(KEYS);
            for (Map.Entry<String, Acked> e : latestAcked.entrySet()) {
                ConsumerRecord<byte[], byte[]> last = lastRead.get(e.getKey());
                assertThat(last.offset()).as("latest of %s is at or after its last acknowledged update", e.getKey())
                    .isGreaterThanOrEqualTo(e.getValue().offset());
                if (last.offset() == e.getValue().offset()) {
                    assertThat(new String(last.value())).isEqualTo(e.getValue().value());
                }
            }
            assertThat(second.stop()).isIn(0, 143);
        }
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                .noneMatch(name -> name.endsWith(".cleaned") || name.endsWith(".swap"));
        }
    }

    /**
     * The workload of {@link LogCompactionTest} (10,000 updates over 100 keys, then tombstones for
     * 10 of them, {@code delete.retention.ms=0}) is written while the topic still has the delete
     * policy, then the topic is switched to compact and the broker process is killed as soon as its
     * log shows the cleaning begun. The broker comes back in this JVM on the same data, the log is
     * rolled so everything is cleanable, and a consumer from offset 0 then reads exactly the
     * latest value of each of the 90 live keys at its original offset and reaches the log end.
     */
    @Test
    void theWorkloadKilledDuringItsCleaningEndsWithExactlyTheLatestValueOfEachLiveKey() throws Exception {
        String topic = "compacted-crash-workload";
        TopicPartition tp = new TopicPartition(topic, 0);
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;
        Path data = dir.resolve("data");
        List<String> args = BrokerProcess.singleNodeArgs(data, port, "--broker.log-segment-bytes=16384",
            "--broker.log-cleaner-backoff-ms=50");
        Map<String, String> latest;
        boolean killedMidClean;
        try (BrokerProcess first = BrokerProcess.start(dir, "workload-first.log", args, Duration.ofSeconds(90));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<String, String> configs = new HashMap<>(LogCompactionTest.compactedTopicConfig(true));
            configs.put("cleanup.policy", "delete");
            configs.put("segment.ms", "3600000");
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(configs))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
                latest = LogCompactionTest.writeWorkload(producer, topic);
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET)))).all().get();
            killedMidClean = killOnceCleaningBegins(first, topic);
        }
        System.out.println("Killed the broker " + (killedMidClean ? "during" : "outside") + " the cleaning of " + topic);

        try (TestBroker broker = TestBroker.start(data, Map.of("broker.log-segment-bytes", "16384",
                "broker.log-cleaner-backoff-ms", "100"))) {
            broker.server().logManager().getLog(tp).orElseThrow().roll();
            try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of())) {
                List<ConsumerRecord<byte[], byte[]>> read = LogCompactionTest.awaitCleaned(consumer, tp,
                    r -> r.size() == LogCompactionTest.KEYS - LogCompactionTest.TOMBSTONES, Duration.ofSeconds(60));
                Map<String, String> live = new HashMap<>(latest);
                live.values().removeIf(v -> v == null);
                assertThat(LogCompactionTest.asMap(read)).isEqualTo(live);
                assertThat(read).extracting(ConsumerRecord::offset).as("original offsets of the last updates")
                    .containsExactlyElementsOf(LongStream.range(LogCompactionTest.UPDATES - LogCompactionTest.KEYS,
                        LogCompactionTest.UPDATES - LogCompactionTest.TOMBSTONES).boxed().toList());
                assertThat(consumer.endOffsets(List.of(tp)).get(tp)).as("log end offset")
                    .isEqualTo(LogCompactionTest.UPDATES + LogCompactionTest.TOMBSTONES);
            }
        }
        try (Stream<Path> files = Files.walk(data)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                .noneMatch(name -> name.endsWith(".cleaned") || name.endsWith(".swap"));
        }
    }

    /**
     * Kills the broker as soon as its log shows a cleaning of {@code topic} begun and not ended
     * (after 60 s it kills anyway).
     *
     * @return whether the kill landed during the cleaning, as far as the log tells
     */
    private static boolean killOnceCleaningBegins(BrokerProcess broker, String topic) throws Exception {
        Pattern begun = Pattern.compile("Beginning cleaning of " + topic + "-0");
        Pattern done = Pattern.compile("Cleaned " + topic + "-0|Cleaning of " + topic + "-0");
        String log;
        try {
            // Read every millisecond: the kill should land soon after the cleaning begins.
            log = await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .pollInSameThread().until(broker::log, text -> count(begun, text) > 0);
        } catch (ConditionTimeoutException e) {
            broker.kill();
            return false;
        }
        boolean during = count(begun, log) > count(done, log);
        broker.kill();
        return during;
    }

    /**
     * Waits until at least 20,000 updates were acknowledged and the broker's log shows a
     * cleaning begun but not ended, then kills it (after 60 s it kills anyway).
     *
     * @return whether the kill landed during a cleaning, as far as the log tells
     */
    private static boolean killWhileCleaning(BrokerProcess broker, AtomicInteger acked) throws Exception {
        try {
            await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2))
                .pollInSameThread().until(() -> acked.get() >= 20_000 && cleaningUnderWay(broker.log()));
        } catch (ConditionTimeoutException e) {
            broker.kill();
            return false;
        }
        broker.kill();
        return true;
    }

    private static boolean cleaningUnderWay(String log) {
        return count(BEGUN, log) > count(DONE, log);
    }

    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** Pauses the writer: paces the load (not a wait for a condition), leaving the broker some CPU. */
    private static void pace(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap) throws IOException {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            return LogCompactionTest.readToEnd(consumer, TP);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        return new KafkaProducer<>(p);
    }
}
