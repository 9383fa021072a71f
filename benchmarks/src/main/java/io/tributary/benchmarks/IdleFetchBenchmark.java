package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What a quiet topic of many partitions costs the brokers: two-broker clusters of Apache Kafka
 * (KRaft: a combined node and a broker-only node) and of Tributary (one ZooKeeper, embedded in
 * broker 0), a topic of {@code benchmark.idle-partitions} partitions (1,000) with replication
 * factor 2, every partition led by the first broker and followed by the second, and one consumer
 * assigned every partition (no group). This is the case incremental fetch sessions (KIP-227) are
 * for: the follower and the consumer each fetch all partitions, about twice a second, with nothing
 * or little to read.
 *
 * <p>Taking turns, each round measures, for each cluster while the other is quiet:
 * <ul>
 *   <li><b>idle</b>: the brokers' CPU per second of wall time (user + system, both brokers and each)
 *       over {@code benchmark.idle-seconds} (30) with the consumer and the follower fetching;</li>
 *   <li><b>little traffic</b>: one producer (acks=all) sending {@code benchmark.idle-rate} records
 *       per second (200) of 100 bytes round-robin over the partitions for the same time; the
 *       brokers' CPU per record, whole and above idle. The consumer must read every record sent.</li>
 * </ul>
 * Ratios are Tributary / Kafka, medians over {@code benchmark.rounds} (2) rounds.
 */
public final class IdleFetchBenchmark {

    private record Cluster(String name, BrokerUnderTest leader, BrokerUnderTest follower, int leaderId,
                           int followerId) {
        double cpuSeconds() {
            return leader.cpuSeconds() + follower.cpuSeconds();
        }
    }

    /** One measurement: CPU seconds of the leader and the follower over a window. */
    private record Window(double seconds, double leaderCpu, double followerCpu, long records) {
        double cpu() {
            return leaderCpu + followerCpu;
        }
    }

    private record Result(String cluster, int round, Window idle, Window traffic) {
    }

    private static final String TOPIC = "quiet";

    private final int partitions = Integer.parseInt(prop("benchmark.idle-partitions", "1000"));
    private final Duration window = Duration.ofSeconds(Long.parseLong(prop("benchmark.idle-seconds", "30")));
    private final int rate = Integer.parseInt(prop("benchmark.idle-rate", "200"));
    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "2"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> processes = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new IdleFetchBenchmark().run());
    }

    private int run() throws Exception {
        if (partitions <= 0 || rate <= 0 || rounds <= 0 || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("benchmark.idle-partitions, idle-rate, rounds and idle-seconds must be positive");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-idle-bench-", this::cleanUp);
        JavaLauncher launcher = new JavaLauncher(BrokerBenchmark.writeLog4jConfig(workDir));
        BenchmarkSecurity plaintext = BenchmarkSecurity.create(BenchmarkSecurity.Mode.PLAINTEXT, workDir.resolve("tls"));
        System.out.printf("Idle fetch benchmark: %,d partitions, RF 2, all led by one broker and followed by the other;"
                + " one consumer of every partition; idle and %d records/s windows of %d s; %d round(s)%n",
                partitions, rate, window.toSeconds(), rounds);
        System.out.printf("Java %s, %d cores, broker heap %s, work dir %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), heap, workDir);

        KafkaBroker kafkaLeader = new KafkaBroker(workDir.resolve("kafka-1"), launcher, heap, plaintext);
        KafkaBroker kafkaFollower = KafkaBroker.joining(kafkaLeader, "kafka-2", workDir.resolve("kafka-2"), 2);
        int zooKeeperPort = BrokerUnderTest.freePort();
        TributaryBroker tributaryLeader = TributaryBroker.ofCluster("tributary-0", workDir.resolve("tributary-0"),
                launcher, jar, heap, plaintext, 0, zooKeeperPort);
        TributaryBroker tributaryFollower = TributaryBroker.ofCluster("tributary-1", workDir.resolve("tributary-1"),
                launcher, jar, heap, plaintext, 1, zooKeeperPort);
        List<Cluster> clusters = List.of(new Cluster("kafka", kafkaLeader, kafkaFollower, 1, 2),
                new Cluster("tributary", tributaryLeader, tributaryFollower, 0, 1));
        for (Cluster cluster : clusters) {
            for (BrokerUnderTest broker : List.of(cluster.leader(), cluster.follower())) {
                processes.add(broker);
                Duration took = broker.start();
                System.out.printf("%s started in %.1f s (pid %d, %s)%n", broker.name(), took.toMillis() / 1e3,
                        broker.pid(), broker.bootstrap());
            }
            Instant begin = Instant.now();
            createTopic(cluster);
            System.out.printf("%s: %,d partitions in sync after %.1f s%n", cluster.name(), partitions,
                    Duration.between(begin, Instant.now()).toMillis() / 1e3);
        }

        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<Cluster> order = new ArrayList<>(clusters);
            java.util.Collections.rotate(order, round);
            for (Cluster cluster : order) {
                Result result = measure(cluster, round);
                results.add(result);
                System.out.printf("round %d %-9s idle %6.1f ms CPU/s (leader %.1f, follower %.1f); "
                                + "%d rec/s: %7.1f us CPU/record (%.1f above idle), %,d records%n",
                        round, cluster.name(), idleMsPerSecond(result), perSecondMs(result.idle().leaderCpu(),
                                result.idle().seconds()), perSecondMs(result.idle().followerCpu(), result.idle().seconds()),
                        rate, perRecordUs(result), aboveIdleUs(result), result.traffic().records());
            }
        }
        report(results);
        return 0;
    }

    private void createTopic(Cluster cluster) throws Exception {
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            assignment.put(p, List.of(cluster.leaderId(), cluster.followerId()));
        }
        try (Admin admin = admin(cluster.leader().bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, assignment))).all().get(120, TimeUnit.SECONDS);
            Instant deadline = Instant.now().plusSeconds(300);
            while (true) {
                try {
                    TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS)
                            .get(TOPIC);
                    if (d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null
                            && p.leader().id() == cluster.leaderId() && p.isr().size() == 2)) {
                        return;
                    }
                } catch (Exception e) {
                    if (Instant.now().isAfter(deadline)) {
                        throw e;
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(cluster.name() + ": partitions not in sync after 300 s");
                }
                Thread.sleep(500);
            }
        }
    }

    private Result measure(Cluster cluster, int round) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong consumed = new AtomicLong();
        AtomicLong polls = new AtomicLong();
        Thread consumerThread = new Thread(() -> consume(cluster.leader().bootstrap(), stop, consumed, polls),
                "consumer-" + cluster.name());
        consumerThread.start();
        try {
            // Until the consumer has its positions and fetches (and the JIT has seen the path).
            Instant settle = Instant.now().plusSeconds(30);
            while (polls.get() < 10 && Instant.now().isBefore(settle)) {
                Thread.sleep(100);
            }
            Thread.sleep(5000);
            Window idle = window(cluster, () -> { });
            Window traffic;
            try (KafkaProducer<byte[], byte[]> producer = producer(cluster.leader().bootstrap())) {
                long[] sent = {0};
                traffic = window(cluster, () -> sent[0] = produce(producer));
                traffic = new Window(traffic.seconds(), traffic.leaderCpu(), traffic.followerCpu(), sent[0]);
            }
            Instant deadline = Instant.now().plusSeconds(60);
            while (consumed.get() < traffic.records() && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            if (consumed.get() != traffic.records()) {
                throw new IllegalStateException(cluster.name() + ": the consumer read " + consumed.get() + " of "
                        + traffic.records() + " records sent");
            }
            return new Result(cluster.name(), round, idle, traffic);
        } finally {
            stop.set(true);
            consumerThread.join(30_000);
        }
    }

    /** Runs {@code during} (or just waits, if it returns at once) and measures the brokers' CPU over one window. */
    private Window window(Cluster cluster, Runnable during) throws InterruptedException {
        double leader0 = cluster.leader().cpuSeconds();
        double follower0 = cluster.follower().cpuSeconds();
        long begin = System.nanoTime();
        during.run();
        long remaining = window.toNanos() - (System.nanoTime() - begin);
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        return new Window(seconds, cluster.leader().cpuSeconds() - leader0, cluster.follower().cpuSeconds() - follower0, 0);
    }

    /** Sends {@link #rate} records per second for one window, paced by the intended send time; returns the count acknowledged. */
    private long produce(KafkaProducer<byte[], byte[]> producer) {
        long records = rate * window.toSeconds();
        long intervalNanos = 1_000_000_000L / rate;
        long start = System.nanoTime();
        AtomicLong acked = new AtomicLong();
        byte[] value = new byte[100];
        for (long i = 0; i < records; i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            producer.send(new ProducerRecord<>(TOPIC, (int) (i % partitions), null, value), (metadata, e) -> {
                if (e == null) {
                    acked.incrementAndGet();
                }
            });
        }
        producer.flush();
        return acked.get();
    }

    private void consume(String bootstrap, AtomicBoolean stop, AtomicLong consumed, AtomicLong polls) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(TOPIC, p));
            }
            consumer.assign(all);
            consumer.seekToEnd(all);
            all.forEach(consumer::position);
            while (!stop.get()) {
                consumed.addAndGet(consumer.poll(Duration.ofMillis(200)).count());
                polls.incrementAndGet();
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    private static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "120000");
        return Admin.create(props);
    }

    private void report(List<Result> results) {
        double kIdle = median(results, "kafka", IdleFetchBenchmark::idleMsPerSecond);
        double tIdle = median(results, "tributary", IdleFetchBenchmark::idleMsPerSecond);
        double kLeaderIdle = median(results, "kafka", r -> perSecondMs(r.idle().leaderCpu(), r.idle().seconds()));
        double tLeaderIdle = median(results, "tributary", r -> perSecondMs(r.idle().leaderCpu(), r.idle().seconds()));
        double kFollowerIdle = median(results, "kafka", r -> perSecondMs(r.idle().followerCpu(), r.idle().seconds()));
        double tFollowerIdle = median(results, "tributary", r -> perSecondMs(r.idle().followerCpu(), r.idle().seconds()));
        double kRecord = median(results, "kafka", IdleFetchBenchmark::perRecordUs);
        double tRecord = median(results, "tributary", IdleFetchBenchmark::perRecordUs);
        double kAbove = median(results, "kafka", IdleFetchBenchmark::aboveIdleUs);
        double tAbove = median(results, "tributary", IdleFetchBenchmark::aboveIdleUs);
        System.out.printf("%nMedians over %d round(s); %,d partitions; ratio = Tributary / Kafka (goal: at most 1)%n",
                rounds, partitions);
        System.out.println("| measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|");
        row("idle CPU, both brokers (ms per s)", kIdle, tIdle);
        row("idle CPU, leader (ms per s)", kLeaderIdle, tLeaderIdle);
        row("idle CPU, follower (ms per s)", kFollowerIdle, tFollowerIdle);
        row("CPU per record at " + rate + " rec/s, both brokers (us)", kRecord, tRecord);
        row("CPU per record above idle (us)", kAbove, tAbove);
    }

    private static void row(String measure, double kafka, double tributary) {
        System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |%n", measure, kafka, tributary,
                kafka > 0 ? tributary / kafka : Double.NaN);
    }

    private static double median(List<Result> results, String cluster, java.util.function.ToDoubleFunction<Result> f) {
        double[] values = results.stream().filter(r -> r.cluster().equals(cluster)).mapToDouble(f).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static double idleMsPerSecond(Result r) {
        return perSecondMs(r.idle().cpu(), r.idle().seconds());
    }

    private static double perSecondMs(double cpuSeconds, double wallSeconds) {
        return cpuSeconds * 1000 / wallSeconds;
    }

    private static double perRecordUs(Result r) {
        return r.traffic().cpu() * 1e6 / Math.max(1, r.traffic().records());
    }

    private static double aboveIdleUs(Result r) {
        double idlePerSecond = r.idle().cpu() / r.idle().seconds();
        return (r.traffic().cpu() - idlePerSecond * r.traffic().seconds()) * 1e6 / Math.max(1, r.traffic().records());
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        // Followers first, so that no leader waits on them while stopping.
        List<BrokerUnderTest> reversed = new ArrayList<>(processes);
        java.util.Collections.reverse(reversed);
        reversed.forEach(b -> b.stop(Duration.ofSeconds(20)));
        WorkDirs.delete(workDir);
    }

}
