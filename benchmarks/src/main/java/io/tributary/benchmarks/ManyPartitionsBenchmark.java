package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Many partitions on one broker: Apache Kafka (one KRaft node) and Tributary (one node, embedded
 * ZooKeeper), a fresh pair for each partition count of {@code benchmark.many-partitions} (1000;
 * comma-separated, e.g. {@code 1000,10000}). For each broker, one after the other:
 * <ul>
 *   <li><b>create</b>: a topic of that many partitions (replication factor 1), until every partition
 *       has a leader, ms;</li>
 *   <li><b>Metadata</b>: the median and p99 of 50 Metadata requests for that topic (an Admin
 *       {@code describeTopics}), ms;</li>
 *   <li><b>produce</b>: {@code benchmark.many-producers} (10) producers at once, each sending
 *       {@code benchmark.many-records} / producers records of 100 bytes round-robin over every
 *       partition (acks=1, linger 5 ms), records/s;</li>
 *   <li><b>idle CPU</b>: the broker's CPU per second over 10 s without clients, ms/s, and its RSS then, MiB;</li>
 *   <li><b>recovery</b>: after SIGKILL, from the relaunch until it answers an Admin client, ms (the
 *       logs of every partition are recovered).</li>
 * </ul>
 * One measurement per broker and partition count (the run is long); the ratio is Tributary / Kafka.
 */
public final class ManyPartitionsBenchmark {

    private record Result(String broker, int partitions, double createMs, double metadataP50Ms, double metadataP99Ms,
                          double produceRate, double idleCpuMsPerSecond, double rssMiB, double recoveryMs) {
    }

    private static final int RECORD_SIZE = 100;
    private static final int METADATA_SAMPLES = 50;

    private final List<Integer> partitionCounts = Arrays.stream(prop("benchmark.many-partitions", "1000").split(","))
            .map(String::strip).map(Integer::parseInt).toList();
    private final int producers = Integer.parseInt(prop("benchmark.many-producers", "10"));
    private final long records = Long.parseLong(prop("benchmark.many-records", "1000000"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> brokers = new ArrayList<>();
    private Path workDir;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new ManyPartitionsBenchmark().run());
    }

    private int run() throws Exception {
        if (partitionCounts.stream().anyMatch(n -> n <= 0) || producers <= 0 || records < producers) {
            throw new IllegalArgumentException("benchmark.many-partitions and many-producers must be positive, and"
                    + " many-records at least many-producers");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-many-partitions-bench-", this::cleanUp);
        System.out.printf("Many-partitions benchmark: %s partitions, %d producers, %,d records of %d B%n",
                partitionCounts, producers, records, RECORD_SIZE);
        List<Result> results = new ArrayList<>();
        try {
            for (int count : partitionCounts) {
                List<BrokerUnderTest> pair = BrokerPair.start(workDir.resolve("p" + count), jar, heap, brokers);
                for (BrokerUnderTest broker : pair) {
                    Result r = measure(broker, count);
                    System.out.printf(Locale.ROOT, "  %-9s %,6d partitions: create %,7.0f ms, Metadata p50 %6.1f ms"
                            + " p99 %6.1f ms, produce %,9.0f records/s, idle CPU %5.1f ms/s, RSS %5.0f MiB,"
                            + " recovery %,7.0f ms%n", broker.name(), count, r.createMs(), r.metadataP50Ms(),
                            r.metadataP99Ms(), r.produceRate(), r.idleCpuMsPerSecond(), r.rssMiB(), r.recoveryMs());
                    results.add(r);
                }
                pair.forEach(b -> b.stop(Duration.ofSeconds(60)));
                brokers.clear();
            }
        } finally {
            cleanUp();
        }
        report(results);
        return 0;
    }

    private Result measure(BrokerUnderTest broker, int count) throws Exception {
        String topic = "many-" + count;
        long begin = System.nanoTime();
        broker.createTopic(topic, count);
        double createMs = (System.nanoTime() - begin) / 1e6;
        double[] metadata = metadataLatencies(broker.bootstrap(), topic);
        double produceRate = produce(broker.bootstrap(), topic, count);
        double cpuBefore = broker.cpuSeconds();
        long idleBegin = System.nanoTime();
        Thread.sleep(10_000); // idle on purpose: the broker's own CPU with no client
        double idleCpu = (broker.cpuSeconds() - cpuBefore) * 1e3 / ((System.nanoTime() - idleBegin) / 1e9);
        double rss = broker.rssMiB();
        broker.kill();
        Instant relaunch = Instant.now();
        broker.launchProcess();
        broker.awaitAdmin(relaunch);
        double recoveryMs = Duration.between(relaunch, Instant.now()).toMillis();
        return new Result(broker.name(), count, createMs, metadata[0], metadata[1], produceRate, idleCpu, rss,
                recoveryMs);
    }

    /** The median and p99 of {@link #METADATA_SAMPLES} Metadata requests for {@code topic}, ms (after 5 unmeasured). */
    private static double[] metadataLatencies(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            double[] samples = new double[METADATA_SAMPLES];
            for (int i = -5; i < METADATA_SAMPLES; i++) {
                long start = System.nanoTime();
                admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS);
                if (i >= 0) {
                    samples[i] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(samples);
            return new double[] {samples[samples.length / 2], samples[(int) Math.ceil(samples.length * 0.99) - 1]};
        }
    }

    /** Records/s of {@link #producers} producers at once, each round-robin over every partition. */
    private double produce(String bootstrap, String topic, int partitions) throws Exception {
        long perProducer = records / producers;
        ExecutorService pool = Executors.newFixedThreadPool(producers);
        try {
            long start = System.nanoTime();
            List<Future<?>> sends = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p;
                sends.add(pool.submit(() -> {
                    Properties props = new Properties();
                    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                    props.put(ProducerConfig.ACKS_CONFIG, "1");
                    props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
                    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
                    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
                    byte[] value = new byte[RECORD_SIZE];
                    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
                        for (long i = 0; i < perProducer; i++) {
                            producer.send(new ProducerRecord<>(topic, (int) ((first + i) % partitions), null, value));
                        }
                        producer.flush();
                    }
                    return null;
                }));
            }
            for (Future<?> send : sends) {
                send.get(30, TimeUnit.MINUTES);
            }
            return perProducer * producers / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private void report(List<Result> results) {
        System.out.printf("%nOne measurement per broker; ratio = Tributary / Kafka%n");
        System.out.println("| partitions | measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|---|");
        for (int count : partitionCounts) {
            row(results, count, "create the topic, ms", Result::createMs, "%,.0f");
            row(results, count, "Metadata p50, ms", Result::metadataP50Ms, "%.1f");
            row(results, count, "Metadata p99, ms", Result::metadataP99Ms, "%.1f");
            row(results, count, "produce, records/s", Result::produceRate, "%,.0f");
            row(results, count, "idle broker CPU, ms per s", Result::idleCpuMsPerSecond, "%.1f");
            row(results, count, "RSS when idle, MiB", Result::rssMiB, "%.0f");
            row(results, count, "recovery after SIGKILL to ready, ms", Result::recoveryMs, "%,.0f");
        }
    }

    private static void row(List<Result> results, int count, String measure, ToDoubleFunction<Result> f, String format) {
        double kafka = value(results, "kafka", count, f);
        double tributary = value(results, "tributary", count, f);
        System.out.printf(Locale.ROOT, "| %,d | %s | " + format + " | " + format + " | %.2f |%n", count, measure, kafka,
                tributary, tributary / kafka);
    }

    private static double value(List<Result> results, String broker, int count, ToDoubleFunction<Result> f) {
        return results.stream().filter(r -> r.broker().equals(broker) && r.partitions() == count).mapToDouble(f)
                .findFirst().orElse(Double.NaN);
    }

    private synchronized void cleanUp() {
        brokers.forEach(b -> b.stop(Duration.ofSeconds(30)));
        brokers.clear();
        WorkDirs.delete(workDir);
        workDir = null;
    }
}
