package io.tributary.faults.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's garbage input against a broker process (broker-service's packaged jar, embedded ZooKeeper, loopback):
 * {@link BrokerFuzzer} sends {@code fuzz.frames} mutated requests (default 60,000; the long run 1,000,000) of every
 * API and version the broker advertises from {@code fuzz.connections} connections (default 32), seeded by
 * {@code fuzz.seed} (default 1), while a kafka-clients producer and consumer on connections of their own keep
 * writing and reading a canary topic. Afterwards: the broker runs and answers ApiVersions and Metadata, every
 * acknowledged canary record was read back and no canary send failed, every frame was answered or its
 * connection closed within 5 s (but those with acks=0, which get no answer by protocol), its heap after a full GC grew by at most
 * {@value #HEAP_GROWTH_BOUND_MB} MB, and its log holds at most a few lines per kind per log interval about
 * refused requests and closed connections, however many frames it dropped.
 */
class BrokerFuzzIT {

    /** Log interval of the broker under test (broker.refused-request-log-interval-ms), ms. */
    private static final long LOG_INTERVAL_MS = 1000;
    /**
     * Heap growth allowed over the run, measured after a full GC before and after. What the broker keeps is its
     * partitions' state (two small topics), metrics series per API and version, and nothing per closed connection;
     * a leak of even 100 bytes per frame or of one buffer per connection grows past this in a 60,000-frame run.
     */
    private static final long HEAP_GROWTH_BOUND_MB = 48;
    /** Kinds of lines about refused requests and dropped connections, each logged at most once per interval. */
    private static final int LOG_KINDS = 8;

    private static JarProcess broker;
    private static InetSocketAddress address;
    private static String actuator;

    @TempDir
    static Path work;

    @BeforeAll
    static void startBroker() throws Exception {
        int port = JarProcess.freePort();
        int httpPort = JarProcess.freePort();
        List<String> flags = new ArrayList<>(JarProcess.testJvmFlags());
        flags.add("-Xmx256m");
        Path log = Path.of("target", "fuzz", "broker-" + System.currentTimeMillis() + ".log");
        broker = JarProcess.start("broker", Path.of(System.getProperty("broker.jar",
                        "../broker-service/target/broker-service-0.1.0-SNAPSHOT.jar")), flags,
                List.of("--broker.listeners=PLAINTEXT://127.0.0.1:" + port, "--broker.data-dir=" + work.resolve("data"),
                        "--server.port=" + httpPort, "--broker.refused-request-log-interval-ms=" + LOG_INTERVAL_MS,
                        "--broker.num-network-threads=2", "--broker.num-io-threads=2"), log);
        broker.awaitLog("Started BrokerApplication", Duration.ofMinutes(2));
        address = new InetSocketAddress("127.0.0.1", port);
        actuator = "http://127.0.0.1:" + httpPort;
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void brokerSurvivesGarbageAndKeepsServingOthers() throws Exception {
        long seed = Long.getLong("fuzz.seed", 1);
        long frames = Long.getLong("fuzz.frames", 60_000);
        int connections = Integer.getInteger("fuzz.connections", 32);
        Uuid fuzzTopicId;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(List.of(new NewTopic("fuzz", 1, (short) 1), new NewTopic("canary", 2, (short) 1)))
                    .all().get();
            fuzzTopicId = admin.describeTopics(List.of("fuzz")).allTopicNames().get().get("fuzz").topicId();
        }
        Map<ApiKeys, short[]> advertised = ApiVersionsProbe.advertised(address);
        List<SampleRequest> samples = new SampleRequests(advertised, "fuzz", fuzzTopicId).all();
        HeapProbe heap = new HeapProbe();
        long heapBefore = heap.heapUsedAfterGc(broker.pid(), actuator);
        int logLinesBefore = broker.logLines().size();
        System.out.printf("fuzzing %d APIs, %d sample requests; seed %d, %d frames, %d connections%n",
                advertised.size(), samples.size(), seed, frames, connections);

        Canary canary = new Canary(bootstrap());
        canary.start();
        FuzzReport report = new BrokerFuzzer(new BrokerFuzzer.Settings(address, seed, frames, connections,
                Duration.ofSeconds(5)), samples).run();
        long ackedDuringFuzz = canary.acked();
        canary.stopProducing();
        System.out.print(report.table());
        report.timeoutExamples().forEach(e -> System.out.println("timed out: " + e));
        System.out.println("valid requests the broker closed the connection on: " + report.closedValid());

        assertThat(broker.isAlive()).as("broker process alive").isTrue();
        assertThat(report.frames()).isEqualTo(frames);
        assertThat(report.count(Mutation.NONE, FrameOutcome.ANSWERED)).as("valid frames answered").isPositive();
        assertThat(report.timeoutExamples()).as("frames the broker neither answered nor closed within 5 s").isEmpty();
        assertThat(ApiVersionsProbe.advertised(address)).as("ApiVersions after the run").containsKey(ApiKeys.PRODUCE);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            assertThat(admin.listTopics().names().get()).as("Metadata after the run").contains("fuzz", "canary");
        }
        assertThat(ackedDuringFuzz).as("canary records acknowledged while fuzzed").isPositive();
        canary.awaitAllRead(Duration.ofMinutes(1));
        assertThat(canary.failures()).as("canary sends that failed").isEmpty();
        canary.close();

        long heapAfter = heap.heapUsedAfterGc(broker.pid(), actuator);
        System.out.printf("broker heap after GC: %.1f MB before, %.1f MB after%n", heapBefore / 1e6, heapAfter / 1e6);
        System.out.println(heap.classHistogram(broker.pid(), 18));
        assertThat(heapAfter - heapBefore).as("heap growth, bytes").isLessThan(HEAP_GROWTH_BOUND_MB << 20);

        List<String> lines = broker.logLines();
        List<String> runLines = lines.subList(Math.min(logLinesBefore, lines.size()), lines.size());
        long connectionLines = runLines.stream().filter(BrokerFuzzIT::isAboutDroppedConnection).count();
        long seconds = report.elapsed().toSeconds() + 1;
        long bound = (seconds * 1000 / LOG_INTERVAL_MS + 2) * LOG_KINDS;
        System.out.printf("%d log lines about refused requests and closed connections in %d s (bound %d), "
                + "%d log lines in all; %d frames closed by the broker%n", connectionLines, seconds, bound,
                runLines.size(), report.count(FrameOutcome.CLOSED));
        assertThat(connectionLines).as("lines about dropped connections").isLessThanOrEqualTo(bound);
        assertThat(runLines).as("broker log during the run").noneMatch(l -> l.contains("OutOfMemoryError"));
    }

    private static boolean isAboutDroppedConnection(String line) {
        return line.contains("Closing connection") || line.contains("Refused ") || line.contains("onnection")
                && (line.contains(" WARN ") || line.contains(" ERROR "));
    }

    private static String bootstrap() {
        return address.getHostString() + ":" + address.getPort();
    }

    /**
     * An idempotent acks=all producer writing unique values to topic canary and an assigned consumer reading
     * them, each on connections of its own; records every acknowledged value and every failed send.
     */
    private static final class Canary implements AutoCloseable {

        private final KafkaProducer<String, String> producer;
        private final KafkaConsumer<String, String> consumer;
        private final Set<String> acked = ConcurrentHashMap.newKeySet();
        private final Set<String> read = ConcurrentHashMap.newKeySet();
        private final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final AtomicLong sent = new AtomicLong();
        private volatile boolean producing = true;
        private volatile boolean consuming = true;
        private final AtomicReference<Throwable> consumerError = new AtomicReference<>();
        private Thread producerThread;
        private Thread consumerThread;

        Canary(String bootstrap) {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
            Properties c = new Properties();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
            consumer.assign(List.of(new TopicPartition("canary", 0), new TopicPartition("canary", 1)));
            consumer.seekToBeginning(consumer.assignment());
        }

        void start() {
            producerThread = new Thread(() -> {
                while (producing) {
                    String value = "canary-" + sent.getAndIncrement();
                    try {
                        producer.send(new ProducerRecord<>("canary", value, value), (m, e) -> {
                            if (e == null) {
                                acked.add(value);
                            } else {
                                failures.add(value + ": " + e);
                            }
                        }).get();
                    } catch (Exception e) {
                        failures.add(value + ": " + e);
                    }
                }
            }, "canary-producer");
            consumerThread = new Thread(() -> {
                try {
                    while (consuming) {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                            read.add(r.value());
                        }
                    }
                } catch (Throwable t) {
                    consumerError.set(t);
                }
            }, "canary-consumer");
            producerThread.start();
            consumerThread.start();
        }

        long acked() {
            return acked.size();
        }

        List<String> failures() {
            return failures;
        }

        void stopProducing() throws InterruptedException {
            producing = false;
            producerThread.join(60_000);
            producer.flush();
        }

        void awaitAllRead(Duration timeout) {
            await("every acknowledged canary record read").atMost(timeout).untilAsserted(() -> {
                assertThat(consumerError.get()).isNull();
                assertThat(read).containsAll(acked);
            });
        }

        @Override
        public void close() throws InterruptedException {
            consuming = false;
            consumerThread.join(10_000);
            consumer.close();
            producer.close();
        }
    }
}
