package io.tributary.broker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.testing.BrokerProcess;
import io.tributary.broker.testing.TestBroker;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three broker processes and a ZooKeeper apart from them (in the test JVM); topic RF 3 with
 * {@code min.insync.replicas=2}; an idempotent producer with acks=all writes without pause while
 * a broker is stopped (and started again) {@code fault.rounds} times: the leader by SIGKILL, the
 * leader by SIGTERM (controlled shutdown), or the controller by SIGKILL. Afterwards every
 * acknowledged record is consumed, in order per partition, with no duplicate, and the replicas'
 * logs on disk are byte for byte the same.
 *
 * <p>The test command runs one round of the controller's SIGKILL: the fault campaign of the
 * {@code fault-campaign} module makes the other two ({@code kill-leader}, and the controlled shutdowns
 * of {@code rolling-restart}) under a larger workload. {@code fault.kinds} (comma-separated names of
 * {@link Fault}, or {@code all}) and {@code fault.rounds} (default 1) choose more; the longer run is
 * {@code mvn -B -pl broker-service surefire:test -Dtest=ProcessFaultTest -Dfault.kinds=all
 * -Dfault.rounds=10} (docs/tests.md).
 */
class ProcessFaultTest {

    private static final String TOPIC = "verified";
    private static final int PARTITIONS = 2;
    private static final int BROKERS = 3;
    /** Times each fault is made, one broker at a time. */
    private static final int ROUNDS = Integer.getInteger("fault.rounds", 1);

    enum Fault { SIGKILL_LEADER, SIGTERM_LEADER, SIGKILL_CONTROLLER }

    /** The faults {@code fault.kinds} names, by default the controller's SIGKILL only. */
    static Stream<Fault> faults() {
        String kinds = System.getProperty("fault.kinds", Fault.SIGKILL_CONTROLLER.name());
        if (kinds.equals("all")) {
            return Arrays.stream(Fault.values());
        }
        return Arrays.stream(kinds.split(",")).map(String::strip).map(Fault::valueOf);
    }

    @TempDir
    Path dir;

    private EmbeddedZooKeeper zooKeeper;
    private final Map<Integer, BrokerProcess> processes = new HashMap<>();
    private final Map<Integer, Integer> ports = new HashMap<>();
    private int starts;

    @AfterEach
    void stopAll() throws InterruptedException {
        for (BrokerProcess p : processes.values()) {
            p.close();
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    private void startBroker(int id) throws Exception {
        launchBroker(id).awaitStarted(Duration.ofSeconds(120));
    }

    private BrokerProcess launchBroker(int id) throws Exception {
        List<String> args = List.of("--broker.id=" + id, "--broker.data-dir=" + dir.resolve("broker-" + id),
            "--broker.listeners=PLAINTEXT://127.0.0.1:" + ports.get(id),
            "--broker.zookeeper-connect=" + zooKeeper.connectString(), "--broker.zookeeper-session-timeout-ms=3000",
            "--broker.replica-lag-time-max-ms=3000", "--broker.replica-fetch-backoff-ms=200",
            "--broker.offsets-topic-replication-factor=3", "--broker.offsets-topic-num-partitions=3",
            "--broker.controlled-shutdown-retry-backoff-ms=2000", "--server.port=0", "--broker.num-io-threads=2",
            "--broker.num-network-threads=2", "--broker.log-cleaner-dedupe-buffer-size=1048576");
        BrokerProcess process = BrokerProcess.launch(dir, "broker-" + id + "-" + (starts++) + ".log", args);
        processes.put(id, process);
        return process;
    }

    private String bootstrap() {
        return ports.values().stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        return Admin.create(p);
    }

    private static int leaderOfPartition0(Admin admin) throws Exception {
        return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC)
            .partitions().get(0).leader().id();
    }

    private boolean fullyInSync(Admin admin) {
        try {
            TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS).get(TOPIC);
            return d.partitions().stream().allMatch(p -> p.leader() != null && p.isr().size() == BROKERS);
        } catch (Exception e) {
            return false;
        }
    }

    @ParameterizedTest
    @MethodSource("faults")
    void everyAcknowledgedRecordSurvivesRepeatedBrokerFailures(Fault fault) throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile(), 0, 200, true);
        for (int id = 0; id < BROKERS; id++) {
            ports.put(id, TestBroker.freePort());
        }
        for (int id = 0; id < BROKERS; id++) {
            launchBroker(id); // side by side: the starts overlap
        }
        for (int id = 0; id < BROKERS; id++) {
            processes.get(id).awaitStarted(Duration.ofSeconds(120));
        }
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> fullyInSync(admin));

            Map<Integer, List<Long>> acked = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                acked.put(p, Collections.synchronizedList(new ArrayList<>()));
            }
            List<Exception> errors = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean producing = new AtomicBoolean(true);
            Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100, ProducerConfig.LINGER_MS_CONFIG, 5);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                    new StringSerializer())) {
                Thread writer = new Thread(() -> {
                    long seq = 0;
                    while (producing.get()) {
                        long s = seq++;
                        int partition = (int) (s % PARTITIONS);
                        producer.send(new ProducerRecord<>(TOPIC, partition, null, Long.toString(s)), (md, e) -> {
                            if (e == null) {
                                acked.get(partition).add(s);
                            } else {
                                errors.add(e);
                            }
                        });
                        try {
                            Thread.sleep(1); // paces the load, not a wait: bounds what the test reads back
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                writer.start();
                for (int round = 0; round < ROUNDS; round++) {
                    int before = acked.values().stream().mapToInt(List::size).sum();
                    await().atMost(Duration.ofSeconds(60))
                        .until(() -> acked.values().stream().mapToInt(List::size).sum() > before + 300);
                    int victim = fault == Fault.SIGKILL_CONTROLLER
                        ? admin.describeCluster().controller().get(30, TimeUnit.SECONDS).id()
                        : leaderOfPartition0(admin);
                    if (fault == Fault.SIGTERM_LEADER) {
                        processes.remove(victim).stop();
                    } else {
                        processes.remove(victim).kill();
                    }
                    int during = acked.values().stream().mapToInt(List::size).sum();
                    await().atMost(Duration.ofSeconds(60))
                        .until(() -> acked.values().stream().mapToInt(List::size).sum() > during + 100);
                    startBroker(victim);
                    await().atMost(Duration.ofSeconds(60)).until(() -> fullyInSync(admin));
                }
                producing.set(false);
                writer.join();
                producer.flush();
            }
            assertThat(errors).isEmpty();
            await().atMost(Duration.ofSeconds(60)).until(() -> fullyInSync(admin));

            Map<Integer, List<Long>> consumed = consumeAll();
            for (int p = 0; p < PARTITIONS; p++) {
                List<Long> values = consumed.get(p);
                for (int i = 1; i < values.size(); i++) {
                    assertThat(values.get(i)).as("partition %d in order, no duplicate", p).isGreaterThan(values.get(i - 1));
                }
                assertThat(values).as("partition %d holds every acknowledged record", p).containsAll(acked.get(p));
            }
        }
        for (int id = 0; id < BROKERS; id++) {
            processes.get(id).signalStop();
        }
        for (int id = 0; id < BROKERS; id++) {
            processes.remove(id).awaitExit();
        }
        for (int p = 0; p < PARTITIONS; p++) {
            byte[] first = logBytes(0, p);
            assertThat(first.length).isPositive();
            for (int id = 1; id < BROKERS; id++) {
                assertThat(Arrays.equals(logBytes(id, p), first)).as("partition %d on broker %d equals broker 0", p, id)
                    .isTrue();
            }
        }
    }

    private Map<Integer, List<Long>> consumeAll() {
        Map<Integer, List<Long>> consumed = new HashMap<>();
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                tps.add(new TopicPartition(TOPIC, p));
                consumed.put(p, new ArrayList<>());
            }
            consumer.assign(tps);
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    consumed.get(r.partition()).add(Long.parseLong(r.value()));
                }
                return tps.stream().allMatch(tp -> consumer.position(tp) >= ends.get(tp));
            });
        }
        return consumed;
    }

    /** Every batch of a partition's log on one broker, in offset order, as stored. */
    private byte[] logBytes(int broker, int partition) throws Exception {
        File partitionDir = dir.resolve("broker-" + broker).resolve("kafka-logs").resolve(TOPIC + "-" + partition).toFile();
        File[] segments = partitionDir.listFiles((d, name) -> name.endsWith(".log"));
        assertThat(segments).isNotEmpty();
        Arrays.sort(segments);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (File segment : segments) {
            try (FileRecords records = FileRecords.open(segment, false)) {
                for (RecordBatch batch : records.batches()) {
                    ByteBuffer buffer = ByteBuffer.allocate(batch.sizeInBytes());
                    batch.writeTo(buffer);
                    out.write(buffer.array(), 0, buffer.position());
                }
            }
        }
        return out.toByteArray();
    }
}
