package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How close client byte-rate quotas (KIP-13, KIP-219) hold a consumer and a producer to their
 * quota: Apache Kafka (one KRaft node) and Tributary (one node, embedded ZooKeeper) taking turns,
 * the quotas set with the Admin client ({@code alterClientQuotas}, entity client-id), one client id
 * per measurement so each starts with a fresh rate.
 *
 * <p>Each broker configuration runs separately: first {@code quota.window.num=2} and
 * {@code quota.window.size.seconds=1} on both ({@code broker.quota-window-num} and
 * {@code broker.quota-window-size-seconds} on Tributary), as in Tributary's {@code ClientQuotasTest};
 * then both brokers with their defaults (11 windows of 1 s). Measured, for each number of records
 * of {@code benchmark.quota-sizes} (32 and 128 with two windows; {@code benchmark.quota-default-sizes},
 * 128, with the defaults, whose ten-second burst 32 records do not exceed; {@code none} skips a
 * configuration):
 * <ul>
 *   <li><b>consumer</b>: a consumer whose client id has {@code consumer_byte_rate} =
 *       {@code benchmark.quota-rate} (250,000) and {@code max.partition.fetch.bytes} =
 *       {@code benchmark.quota-partition-fetch-bytes} (100,000) reads a one-partition topic written
 *       beforehand (by a client without a quota) with that many records of
 *       {@code benchmark.quota-record-size} (50,000) bytes, one record per batch: assign,
 *       seekToBeginning, poll until every record is read. Reported: the value bytes read per second
 *       from the seek to the last record, divided by the quota;</li>
 *   <li><b>producer</b>: a producer whose client id has {@code producer_byte_rate} = the same rate
 *       sends that many records of that size one at a time ({@code linger.ms=0}, waiting for each
 *       acknowledgement). Reported: value bytes acknowledged per second, from the first send to the
 *       last acknowledgement, divided by the quota;</li>
 *   <li><b>max throttle</b>: the largest {@code fetch-throttle-time-max} or
 *       {@code produce-throttle-time-max} the client's metrics showed during the run, ms.</li>
 * </ul>
 * An initial burst above the quota is allowed by both brokers (the rate is measured over at least
 * all but one of the windows), so the fraction of a short run can exceed 1; the larger run shows the
 * held rate better. Medians over {@code benchmark.rounds} (3) rounds, alternating which broker goes
 * first; the ratio is Tributary / Kafka.
 */
public final class QuotaBenchmark {

    /** One broker configuration: its server properties on each broker and the record counts it runs. */
    private record Setup(String name, Map<String, String> kafka, Map<String, String> tributary, List<Integer> sizes) {
    }

    private record Result(String setup, String broker, String client, int records, double seconds,
                          double fractionOfQuota, double maxThrottleMs) {
    }

    private static final List<String> CLIENTS = List.of("consumer", "producer");

    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "3"));
    private final int rate = Integer.parseInt(prop("benchmark.quota-rate", "250000"));
    private final int recordSize = Integer.parseInt(prop("benchmark.quota-record-size", "50000"));
    private final int partitionFetchBytes = Integer.parseInt(prop("benchmark.quota-partition-fetch-bytes", "100000"));
    private final List<Integer> sizes = sizes(prop("benchmark.quota-sizes", "32,128"));
    private final List<Integer> defaultSizes = sizes(prop("benchmark.quota-default-sizes", "128"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> brokers = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new QuotaBenchmark().run());
    }

    private int run() throws Exception {
        if (rounds <= 0 || rate <= 0 || recordSize <= 0 || partitionFetchBytes <= 0
                || sizes.stream().anyMatch(n -> n <= 0) || defaultSizes.stream().anyMatch(n -> n <= 0)) {
            throw new IllegalArgumentException("benchmark.rounds, quota-rate, quota-record-size,"
                    + " quota-partition-fetch-bytes, quota-sizes and quota-default-sizes must be positive");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-quota-bench-", this::cleanUp);
        JavaLauncher launcher = new JavaLauncher(BrokerBenchmark.writeLog4jConfig(workDir));
        BenchmarkSecurity plaintext = BenchmarkSecurity.create(BenchmarkSecurity.Mode.PLAINTEXT, workDir.resolve("tls"));
        List<Setup> setups = new ArrayList<>();
        if (!sizes.isEmpty()) {
            setups.add(new Setup("2 windows of 1 s",
                    Map.of("quota.window.num", "2", "quota.window.size.seconds", "1"),
                    Map.of("broker.quota-window-num", "2", "broker.quota-window-size-seconds", "1"), sizes));
        }
        if (!defaultSizes.isEmpty()) {
            setups.add(new Setup("defaults (11 windows of 1 s)", Map.of(), Map.of(), defaultSizes));
        }
        System.out.printf(Locale.ROOT, "Quota benchmark: consumer_byte_rate and producer_byte_rate %,d B/s, records of %,d B,"
                + " max.partition.fetch.bytes %,d; %d round(s)%n", rate, recordSize, partitionFetchBytes, rounds);
        System.out.printf("Java %s, %d cores, broker heap %s, work dir %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), heap, workDir);
        List<Result> results = new ArrayList<>();
        try {
            for (int s = 0; s < setups.size(); s++) {
                results.addAll(runSetup(setups.get(s), s, launcher, plaintext));
            }
        } finally {
            cleanUp();
        }
        report(setups, results);
        return 0;
    }

    private List<Result> runSetup(Setup setup, int index, JavaLauncher launcher, BenchmarkSecurity plaintext)
            throws Exception {
        System.out.printf("%n%s: records %s%n", setup.name(), setup.sizes());
        List<BrokerUnderTest> pair = List.of(
                new KafkaBroker(workDir.resolve("kafka-" + index), launcher, heap, plaintext, setup.kafka()),
                new TributaryBroker("tributary", workDir.resolve("tributary-" + index), launcher, jar, heap, plaintext,
                        setup.tributary()));
        brokers.addAll(pair);
        List<Result> results = new ArrayList<>();
        try {
            for (BrokerUnderTest broker : pair) {
                Duration took = broker.start();
                System.out.printf("%s started in %.1f s (%s)%n", broker.name(), took.toMillis() / 1e3, broker.bootstrap());
                prepare(broker, setup);
            }
            for (int round = 1; round <= rounds; round++) {
                List<BrokerUnderTest> order = new ArrayList<>(pair);
                java.util.Collections.rotate(order, -(round % order.size()));
                for (BrokerUnderTest broker : order) {
                    for (int records : setup.sizes()) {
                        for (String client : CLIENTS) {
                            Result r = client.equals("consumer") ? consume(setup, broker, records, round)
                                    : produce(setup, broker, records, round);
                            System.out.printf(Locale.ROOT, "  round %d %-9s %-8s %4d records: %6.1f s, %,9.0f B/s = %.2f"
                                    + " of the quota, max throttle %,6.0f ms%n", round, broker.name(), client, records,
                                    r.seconds(), r.fractionOfQuota() * rate, r.fractionOfQuota(), r.maxThrottleMs());
                            results.add(r);
                        }
                    }
                }
            }
        } finally {
            pair.forEach(b -> b.stop(Duration.ofSeconds(30)));
        }
        return results;
    }

    /** Topics (one written beforehand per record count, one to produce to) and every client id's quotas. */
    private void prepare(BrokerUnderTest broker, Setup setup) throws Exception {
        for (int records : setup.sizes()) {
            broker.createTopic(prefilled(records), 1, Map.of());
        }
        broker.createTopic("produced", 1, Map.of());
        try (KafkaProducer<byte[], byte[]> filler = producer(broker, "filler")) {
            for (int records : setup.sizes()) {
                for (int i = 0; i < records; i++) {
                    filler.send(new ProducerRecord<>(prefilled(records), new byte[recordSize])).get();
                }
            }
        }
        List<ClientQuotaAlteration> alterations = new ArrayList<>();
        Set<ClientQuotaEntity> entities = new HashSet<>();
        for (int round = 1; round <= rounds; round++) {
            for (int records : setup.sizes()) {
                for (String client : CLIENTS) {
                    ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID,
                            clientId(client, records, round)));
                    entities.add(entity);
                    alterations.add(new ClientQuotaAlteration(entity, List.of(new ClientQuotaAlteration.Op(
                            client.equals("consumer") ? "consumer_byte_rate" : "producer_byte_rate", (double) rate))));
                }
            }
        }
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        try (Admin admin = Admin.create(props)) {
            admin.alterClientQuotas(alterations).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(10, TimeUnit.SECONDS).keySet()
                    .containsAll(entities)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(broker.name() + " does not describe the quotas set within 60 s");
                }
                Thread.sleep(200);
            }
        }
    }

    private Result consume(Setup setup, BrokerUnderTest broker, int records, int round) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId("consumer", records, round));
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(partitionFetchBytes));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            TopicPartition tp = new TopicPartition(prefilled(records), 0);
            consumer.assign(List.of(tp));
            long begin = System.nanoTime();
            consumer.seekToBeginning(List.of(tp));
            long deadline = begin + Duration.ofSeconds(600).toNanos();
            int read = 0;
            long bytes = 0;
            double maxThrottle = 0;
            while (read < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(broker.name() + ": the consumer read " + read + " of " + records
                            + " records in 600 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read++;
                    bytes += r.value().length;
                }
                maxThrottle = Math.max(maxThrottle, metric(consumer.metrics(), "fetch-throttle-time-max"));
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            return new Result(setup.name(), broker.name(), "consumer", records, seconds, bytes / seconds / rate,
                    maxThrottle);
        }
    }

    private Result produce(Setup setup, BrokerUnderTest broker, int records, int round) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(broker, clientId("producer", records, round))) {
            long begin = System.nanoTime();
            double maxThrottle = 0;
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>("produced", new byte[recordSize])).get(600, TimeUnit.SECONDS);
                maxThrottle = Math.max(maxThrottle, metric(producer.metrics(), "produce-throttle-time-max"));
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            return new Result(setup.name(), broker.name(), "producer", records, seconds,
                    (double) records * recordSize / seconds / rate, maxThrottle);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(BrokerUnderTest broker, String clientId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    /** The largest value of the client metrics named {@code name} (NaN, before any sample, as 0). */
    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> e.getValue().metricValue() instanceof Double d && !d.isNaN() ? d : 0).max().orElse(0);
    }

    private static String prefilled(int records) {
        return "prefilled-" + records;
    }

    private static String clientId(String client, int records, int round) {
        return "quota-" + client + "-" + records + "-r" + round;
    }

    private void report(List<Setup> setups, List<Result> results) {
        System.out.printf(Locale.ROOT, "%nMedians over %d round(s); quota %,d B/s, records of %,d B,"
                + " max.partition.fetch.bytes %,d; fraction = value bytes per second / quota; ratio = Tributary / Kafka%n",
                rounds, rate, recordSize, partitionFetchBytes);
        System.out.println("| quota windows | client | records | measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Setup setup : setups) {
            for (String client : CLIENTS) {
                for (int records : setup.sizes()) {
                    row(setup, client, records, "fraction of quota", "%.2f", results, Result::fractionOfQuota);
                    row(setup, client, records, "max throttle (ms)", "%,.0f", results, Result::maxThrottleMs);
                }
            }
        }
    }

    private static void row(Setup setup, String client, int records, String measure, String format,
                            List<Result> results, ToDoubleFunction<Result> f) {
        double kafka = median(results, setup, "kafka", client, records, f);
        double tributary = median(results, setup, "tributary", client, records, f);
        System.out.printf(Locale.ROOT, "| %s | %s | %d | %s | " + format + " | " + format + " | %.2f |%n", setup.name(),
                client, records, measure, kafka, tributary, kafka > 0 ? tributary / kafka : Double.NaN);
    }

    private static double median(List<Result> results, Setup setup, String broker, String client, int records,
                                 ToDoubleFunction<Result> f) {
        double[] values = results.stream().filter(r -> r.setup().equals(setup.name()) && r.broker().equals(broker)
                && r.client().equals(client) && r.records() == records).mapToDouble(f).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    /** A comma-separated list of record counts; {@code none} for none. */
    private static List<Integer> sizes(String list) {
        if (list.equalsIgnoreCase("none")) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Integer::valueOf).toList();
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        brokers.forEach(b -> b.stop(Duration.ofSeconds(30)));
        WorkDirs.delete(workDir);
    }

}
