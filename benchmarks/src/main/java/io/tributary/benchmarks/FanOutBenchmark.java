package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Fan-out: one topic written once and read by many consumer groups at once, the publish-subscribe
 * case, with Apache Kafka (one KRaft node) and Tributary (one node, embedded ZooKeeper) taking turns.
 *
 * <p>Each measurement: one producer writes {@code benchmark.fanout-records} (1,000,000) records of
 * {@code benchmark.record-size} (100) bytes to a fresh topic of {@code benchmark.partitions} (6)
 * partitions (acks=1, linger 5 ms, lz4 off), which leaves them in the page cache; then
 * {@code benchmark.fanout-groups} (10) consumers, each the only member of a group of its own, start at
 * once, subscribe (the group join is included, as in Kafka's ConsumerPerformance) and read the
 * topic from the beginning. Reported, per broker:
 * <ul>
 *   <li><b>produce</b>: records/s of the producer alone;</li>
 *   <li><b>fan-out</b>: records delivered per second over all groups, from the consumers' start until
 *       the last group has read every record;</li>
 *   <li><b>CPU per delivered record</b>: the broker process's CPU time during the fan-out over the
 *       records delivered, microseconds.</li>
 * </ul>
 * Medians over {@code benchmark.rounds} (3) rounds, the brokers taking turns (the first alternates);
 * the ratio is Tributary / Kafka. All consumers share this JVM, one thread each.
 */
public final class FanOutBenchmark {

    private record Result(String broker, double produceRate, double fanOutRate, double cpuMicrosPerRecord) {
    }

    private final int groups = Integer.parseInt(prop("benchmark.fanout-groups", "10"));
    private final long records = Long.parseLong(prop("benchmark.fanout-records", "1000000"));
    private final int recordSize = Integer.parseInt(prop("benchmark.record-size", "100"));
    private final int partitions = Integer.parseInt(prop("benchmark.partitions", "6"));
    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "3"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> brokers = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new FanOutBenchmark().run());
    }

    private int run() throws Exception {
        if (groups <= 0 || records <= 0 || recordSize <= 0 || partitions <= 0 || rounds <= 0) {
            throw new IllegalArgumentException("benchmark.fanout-groups, fanout-records, record-size, partitions and"
                    + " rounds must be positive");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-fanout-bench-", this::cleanUp);
        System.out.printf("Fan-out benchmark: %,d records x %d B to %d partitions, read by %d groups at once;"
                + " %d round(s)%n", records, recordSize, partitions, groups, rounds);
        BrokerPair.start(workDir, jar, heap, brokers);
        List<Result> results = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (BrokerUnderTest broker : BrokerPair.inTurn(brokers, round)) {
                    Result r = measure(broker, round);
                    System.out.printf(Locale.ROOT, "  round %d %-9s produce %,10.0f records/s, fan-out %,11.0f records/s"
                            + " delivered, broker CPU %.2f us per delivered record%n", round, broker.name(),
                            r.produceRate(), r.fanOutRate(), r.cpuMicrosPerRecord());
                    results.add(r);
                }
            }
        } finally {
            cleanUp();
        }
        report(results);
        return 0;
    }

    private Result measure(BrokerUnderTest broker, int round) throws Exception {
        String topic = "fanout-r" + round;
        broker.createTopic(topic, partitions);
        double produceRate = produce(broker.bootstrap(), topic);
        ExecutorService pool = Executors.newFixedThreadPool(groups);
        try {
            double cpuBefore = broker.cpuSeconds();
            long start = System.nanoTime();
            List<Future<Long>> reads = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                String group = topic + "-group-" + g;
                reads.add(pool.submit(() -> readAll(broker.bootstrap(), topic, group)));
            }
            long delivered = 0;
            for (Future<Long> read : reads) {
                delivered += read.get(10, TimeUnit.MINUTES);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = broker.cpuSeconds() - cpuBefore;
            return new Result(broker.name(), produceRate, delivered / seconds, cpu * 1e6 / delivered);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Records/s of one producer writing {@link #records} records round-robin over the partitions. */
    private double produce(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(64 * 1024));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        byte[] value = new byte[recordSize];
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            long start = System.nanoTime();
            for (long i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, value));
            }
            producer.flush();
            return records / ((System.nanoTime() - start) / 1e9);
        }
    }

    /** Reads the whole topic as the only member of {@code group}; the records read. */
    private long readAll(String bootstrap, String topic, String group) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        long read = 0;
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            while (read < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(group + " read " + read + " of " + records + " records in 10 minutes");
                }
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
        }
        return read;
    }

    private void report(List<Result> results) {
        System.out.printf("%nMedians over %d round(s): %,d records x %d B, %d partitions, %d groups; ratio = Tributary"
                + " / Kafka%n", rounds, records, recordSize, partitions, groups);
        System.out.println("| measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|");
        row("produce, records/s (higher is better)", results, Result::produceRate, "%,.0f");
        row("fan-out, records delivered/s over all groups (higher is better)", results, Result::fanOutRate, "%,.0f");
        row("broker CPU per delivered record, us (lower is better)", results, Result::cpuMicrosPerRecord, "%.2f");
    }

    private static void row(String measure, List<Result> results, ToDoubleFunction<Result> f, String format) {
        double kafka = median(results, "kafka", f);
        double tributary = median(results, "tributary", f);
        System.out.printf(Locale.ROOT, "| %s | " + format + " | " + format + " | %.2f |%n", measure, kafka, tributary,
                tributary / kafka);
    }

    private static double median(List<Result> results, String broker, ToDoubleFunction<Result> f) {
        double[] values = results.stream().filter(r -> r.broker().equals(broker)).mapToDouble(f).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        brokers.forEach(b -> b.stop(Duration.ofSeconds(30)));
        WorkDirs.delete(workDir);
    }

}
