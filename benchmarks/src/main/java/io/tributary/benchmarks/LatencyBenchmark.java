package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end latency, from a record's send to its receipt by a consumer, on 3-broker clusters of
 * Apache Kafka (a KRaft quorum of combined nodes) and Tributary (brokers on one ZooKeeper embedded in
 * broker 0), the same clusters as {@code exec:exec@replicated} ({@link BrokerCluster}): topics with
 * replication factor 3 and {@code min.insync.replicas=2}, producers with {@code acks=all}. Both
 * clusters run side by side; in each round they take turns, the first alternating between rounds.
 *
 * <p>Two measurements per cluster and round:
 * <ul>
 *   <li><b>fixed rate</b>: one producer ({@code acks=all}, {@code linger.ms=0}) sends 100 B records at
 *       {@code benchmark.latency-rate} (20,000) records per second, round-robin over
 *       {@code benchmark.latency-partitions} (3) partitions; one consumer, assigned every partition and
 *       reading from the end, receives them. Record {@code i}'s value starts with {@code i}; its
 *       <i>intended</i> send time is {@code start + i / rate}, and its latency is its receive time (when
 *       the consumer's poll returned it) minus that intended time, not minus the moment {@code send()}
 *       was called: a producer held up (a full buffer, a stalled broker, a GC pause) sends late, and
 *       the wait counts, so a stall is not hidden (no coordinated omission). The first 5 s are a
 *       warm-up, not counted; then {@code benchmark.latency-seconds} (30) s are. Reported: p50, p99,
 *       p99.9 and max in ms, when into the measured window the max occurred, the achieved send rate
 *       (measured records / time from the window's start until the last of them was handed to
 *       {@code send()}), and records not received within 60 s of the last send (lost).</li>
 *   <li><b>EndToEndLatency</b>: Kafka's own tool ({@code org.apache.kafka.tools.EndToEndLatency}, in its
 *       own JVM as {@link PerfToolRun} runs the perf tools), {@code benchmark.latency-tool-records}
 *       (5,000) records of 100 B with {@code acks=all}, one at a time (each sent when the previous
 *       was received), on a one-partition topic created first with the cluster's replication; its
 *       printed average and p50, p99, p99.9 (ms) are parsed.</li>
 * </ul>
 * Before the rounds, each cluster gets one fixed-rate run of {@code benchmark.latency-warmup-s} (20) s
 * after the 5 s warm-up, and one EndToEndLatency run, not reported (0 skips them): freshly started
 * brokers are still compiling their produce, replication and fetch paths. Medians over
 * {@code benchmark.rounds} (3) rounds; ratios are Tributary / Kafka (lower is better, except the
 * achieved rate). Other properties: {@code benchmark.broker-heap} (1g),
 * {@code benchmark.tributary-jar} (this repository's broker-service jar).
 */
public final class LatencyBenchmark {

    private static final int CLUSTER_SIZE = 3;
    private static final int RECORD_SIZE = 100;
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern TOOL_AVG = Pattern.compile("Avg latency:\\s*([0-9.]+)\\s*ms");
    private static final Pattern TOOL_PERCENTILES =
            Pattern.compile("Percentiles:\\s*50th\\s*=\\s*([0-9.]+),\\s*99th\\s*=\\s*([0-9.]+),\\s*99\\.9th\\s*=\\s*([0-9.]+)");

    /** One fixed-rate run: latencies in ms; {@code maxAtS}, seconds into the measured window; rate in records/s. */
    private record RateResult(String broker, int round, double p50, double p99, double p999, double max, double maxAtS,
                              double achievedRate, long lost, long sendErrors) {
    }

    /** One EndToEndLatency run, ms. */
    private record ToolResult(String broker, int round, double avg, double p50, double p99, double p999) {
    }

    private final int rate = Integer.parseInt(prop("benchmark.latency-rate", "20000"));
    private final int seconds = Integer.parseInt(prop("benchmark.latency-seconds", "30"));
    private final int partitions = Integer.parseInt(prop("benchmark.latency-partitions", "3"));
    private final int toolRecords = Integer.parseInt(prop("benchmark.latency-tool-records", "5000"));
    private final int warmUpRunSeconds = Integer.parseInt(prop("benchmark.latency-warmup-s", "20"));
    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "3"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerCluster> clusters = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;
    private PerfToolRun tool;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new LatencyBenchmark().run());
    }

    private int run() throws Exception {
        if (rate <= 0 || seconds <= 0 || partitions <= 0 || toolRecords <= 0 || rounds <= 0 || warmUpRunSeconds < 0) {
            throw new IllegalArgumentException("benchmark.latency-rate, latency-seconds, latency-partitions,"
                    + " latency-tool-records and rounds must be positive");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-latency-bench-", this::cleanUp);
        JavaLauncher launcher = new JavaLauncher(BrokerBenchmark.writeLog4jConfig(workDir));
        BenchmarkSecurity plaintext = BenchmarkSecurity.create(BenchmarkSecurity.Mode.PLAINTEXT, workDir.resolve("tls"));
        tool = new PerfToolRun(launcher, plaintext, Files.createDirectories(workDir.resolve("runs")),
                Duration.ofMinutes(10));
        System.out.printf("Latency benchmark: %d-broker clusters, RF %d, min.insync.replicas=%d, acks=all, %d B records;"
                        + " fixed rate %,d records/s over %d partition(s) for %d s after a %d s warm-up;"
                        + " EndToEndLatency %,d records; %d round(s)%n", CLUSTER_SIZE, CLUSTER_SIZE, CLUSTER_SIZE - 1,
                RECORD_SIZE, rate, partitions, seconds, WARM_UP.toSeconds(), toolRecords, rounds);
        System.out.printf("Java %s, %d cores, load average %s, broker heap %s, work dir %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), loadAverage(), heap, workDir);
        clusters.add(BrokerCluster.kafka(CLUSTER_SIZE, workDir.resolve("kafka"), launcher, heap, plaintext));
        clusters.add(BrokerCluster.tributary("tributary", CLUSTER_SIZE, workDir.resolve("tributary"), launcher, jar,
                heap, plaintext));
        List<RateResult> rateResults = new ArrayList<>();
        List<ToolResult> toolResults = new ArrayList<>();
        boolean allOk = true;
        try {
            for (BrokerCluster cluster : clusters) {
                Duration took = cluster.start();
                System.out.printf("%s started in %.1f s (%s)%n", cluster.name(), took.toMillis() / 1e3,
                        cluster.describe());
            }
            if (warmUpRunSeconds > 0) {
                // Fresh brokers compile their produce, replication and fetch paths during the first seconds
                // at this rate; a first run would measure the JIT more than the broker.
                System.out.printf("%nWarm-up (not reported): one fixed-rate run of %d s per cluster, then EndToEndLatency%n",
                        warmUpRunSeconds);
                for (BrokerCluster cluster : clusters) {
                    RateResult r = fixedRate(cluster, "latency-warmup", warmUpRunSeconds, 0);
                    System.out.printf(Locale.ROOT, "  %-9s warm-up: p50 %.1f ms, p99 %.1f, max %.1f (at %.1f s)%n",
                            r.broker(), r.p50(), r.p99(), r.max(), r.maxAtS());
                    endToEndLatency(cluster, 0);
                }
            }
            for (int round = 1; round <= rounds; round++) {
                System.out.printf("%nRound %d of %d (load average %s)%n", round, rounds, loadAverage());
                List<BrokerCluster> order = new ArrayList<>(clusters);
                java.util.Collections.rotate(order, -(round % order.size()));
                for (BrokerCluster cluster : order) {
                    try {
                        RateResult r = fixedRate(cluster, "latency-r" + round, seconds, round);
                        System.out.printf(Locale.ROOT, "  %-9s fixed rate: p50 %.1f ms, p99 %.1f, p99.9 %.1f, max %.1f"
                                        + " (at %.1f s), achieved %,.0f records/s, lost %d, send errors %d%n",
                                r.broker(), r.p50(), r.p99(), r.p999(), r.max(), r.maxAtS(), r.achievedRate(), r.lost(),
                                r.sendErrors());
                        rateResults.add(r);
                    } catch (Exception e) {
                        allOk = false;
                        System.out.printf("  %-9s fixed rate FAILED: %s%n  %s%n", cluster.name(), e, cluster.logTail(20));
                    }
                    ToolResult t = endToEndLatency(cluster, round);
                    if (t != null) {
                        System.out.printf(Locale.ROOT, "  %-9s EndToEndLatency: avg %.2f ms, p50 %.0f, p99 %.0f,"
                                + " p99.9 %.0f%n", t.broker(), t.avg(), t.p50(), t.p99(), t.p999());
                        toolResults.add(t);
                    } else {
                        allOk = false;
                    }
                }
            }
        } finally {
            cleanUp();
        }
        report(rateResults, toolResults);
        System.out.printf("%nLoad average at the end: %s%n", loadAverage());
        return allOk ? 0 : 1;
    }

    /** The fixed-rate measurement on a fresh topic, {@code measuredSeconds} after {@link #WARM_UP}. */
    private RateResult fixedRate(BrokerCluster cluster, String topic, int measuredSeconds, int round) throws Exception {
        cluster.createTopic(topic, partitions, Map.of());
        long intervalTotal = (long) rate * (WARM_UP.toSeconds() + measuredSeconds);
        long warmUpRecords = (long) rate * WARM_UP.toSeconds();
        int measured = Math.toIntExact(intervalTotal - warmUpRecords);
        long[] latencyNanos = new long[measured];
        Arrays.fill(latencyNanos, -1);
        AtomicLong received = new AtomicLong();
        AtomicLong sendErrors = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long[] start = new long[1];

        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        cp.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        cp.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());

        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pp)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            consumer.seekToEnd(tps);
            tps.forEach(tp -> consumer.position(tp, Duration.ofSeconds(60))); // the end, resolved before sending
            // The producer's metadata too, so its first sends do not wait for it.
            producer.partitionsFor(topic);

            Thread receiver = new Thread(() -> {
                long measuredStart = 0;
                while (!stop.get()) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                    long now = System.nanoTime();
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        long i = ByteBuffer.wrap(r.value()).getLong();
                        received.incrementAndGet();
                        if (i >= warmUpRecords && i < intervalTotal) {
                            latencyNanos[(int) (i - warmUpRecords)] = now - intended(start[0], i);
                        }
                    }
                }
            }, "latency-consumer");

            byte[] value = new byte[RECORD_SIZE];
            start[0] = System.nanoTime() + 50_000_000L; // set before the receiver starts (Thread.start orders it)
            receiver.start();
            long lastMeasuredSent = 0;
            try {
                for (long i = 0; i < intervalTotal; i++) {
                    long wait = intended(start[0], i) - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    byte[] v = value.clone();
                    ByteBuffer.wrap(v).putLong(i);
                    producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, v), (md, e) -> {
                        if (e != null) {
                            sendErrors.incrementAndGet();
                        }
                    });
                    if (i == intervalTotal - 1) {
                        lastMeasuredSent = System.nanoTime();
                    }
                }
                producer.flush();
                long drainDeadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
                while (received.get() < intervalTotal - sendErrors.get() && System.nanoTime() < drainDeadline) {
                    Thread.sleep(20);
                }
            } finally {
                stop.set(true);
                receiver.join(30_000);
            }
            long measuredWindowStart = intended(start[0], warmUpRecords);
            double achieved = (measured - 1) / ((lastMeasuredSent - measuredWindowStart) / 1e9);
            long lost = 0;
            long maxNanos = -1;
            long maxIndex = 0;
            long[] got = new long[measured];
            int n = 0;
            for (int k = 0; k < measured; k++) {
                long l = latencyNanos[k];
                if (l < 0) {
                    lost++;
                    continue;
                }
                got[n++] = l;
                if (l > maxNanos) {
                    maxNanos = l;
                    maxIndex = k;
                }
            }
            if (n == 0) {
                throw new IllegalStateException("no measured record was received (" + received.get() + " in all, "
                        + sendErrors.get() + " send errors)");
            }
            long[] sorted = Arrays.copyOf(got, n);
            Arrays.sort(sorted);
            return new RateResult(cluster.name(), round, percentileMs(sorted, 50), percentileMs(sorted, 99),
                    percentileMs(sorted, 99.9), sorted[n - 1] / 1e6, (double) maxIndex / rate, achieved, lost,
                    sendErrors.get());
        }
    }

    /** Record {@code i}'s intended send time: {@code start + i / rate}, in nanoTime. */
    private long intended(long start, long i) {
        return start + i * 1_000_000_000L / rate;
    }

    /** The {@code pct} percentile (nearest rank) of ascending nanoseconds, in ms. */
    private static double percentileMs(long[] sorted, double pct) {
        int rank = (int) Math.ceil(pct / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
    }

    /**
     * Kafka's EndToEndLatency on a fresh one-partition topic ({@code round} 0: the warm-up); null (and the
     * reason printed) if it failed.
     */
    private ToolResult endToEndLatency(BrokerCluster cluster, int round) throws Exception {
        String topic = round == 0 ? "e2e-tool-warmup" : "e2e-tool-r" + round;
        cluster.createTopic(topic, 1, Map.of());
        List<String> args = List.of("--bootstrap-server", cluster.bootstrap(), "--topic", topic,
                "--num-records", Integer.toString(toolRecords), "--producer-acks", "all",
                "--record-size", Integer.toString(RECORD_SIZE));
        PerfToolRun.Measured m = tool.run(cluster, "org.apache.kafka.tools.EndToEndLatency", args,
                topic + "-" + cluster.name() + ".out");
        String out = Files.readString(m.output());
        Matcher avg = TOOL_AVG.matcher(out);
        Matcher pct = TOOL_PERCENTILES.matcher(out);
        if (m.exitCode() != 0 || !avg.find() || !pct.find()) {
            System.out.printf("  %-9s EndToEndLatency FAILED (exit %d%s); its output ends with:%n%s%n", cluster.name(),
                    m.exitCode(), m.timedOut() ? ", timed out" : "", LogTail.of(m.output(), 20));
            return null;
        }
        return new ToolResult(cluster.name(), round, Double.parseDouble(avg.group(1)),
                Double.parseDouble(pct.group(1)), Double.parseDouble(pct.group(2)), Double.parseDouble(pct.group(3)));
    }

    private void report(List<RateResult> rateResults, List<ToolResult> toolResults) {
        System.out.printf("%nMedians over %d round(s); %d-broker clusters, RF %d, min.insync.replicas=%d, acks=all,"
                        + " %d B records; ratio = Tributary / Kafka%n", rounds, CLUSTER_SIZE, CLUSTER_SIZE,
                CLUSTER_SIZE - 1, RECORD_SIZE);
        System.out.printf("%nFixed rate %,d records/s, %d partition(s), %d s measured after %d s warm-up; latency from"
                + " each record's intended send time to its receipt%n", rate, partitions, seconds, WARM_UP.toSeconds());
        System.out.println("| measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|");
        rateRow(rateResults, "p50 (ms)", RateResult::p50, "%.1f");
        rateRow(rateResults, "p99 (ms)", RateResult::p99, "%.1f");
        rateRow(rateResults, "p99.9 (ms)", RateResult::p999, "%.1f");
        rateRow(rateResults, "max (ms)", RateResult::max, "%.1f");
        rateRow(rateResults, "achieved rate (records/s)", RateResult::achievedRate, "%,.0f");
        rateRow(rateResults, "lost records", r -> r.lost(), "%.0f");
        System.out.printf("%nKafka's EndToEndLatency, %,d records, one at a time, acks=all, one partition%n", toolRecords);
        System.out.println("| measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|");
        toolRow(toolResults, "avg (ms)", ToolResult::avg, "%.2f");
        toolRow(toolResults, "p50 (ms)", ToolResult::p50, "%.1f");
        toolRow(toolResults, "p99 (ms)", ToolResult::p99, "%.1f");
        toolRow(toolResults, "p99.9 (ms)", ToolResult::p999, "%.1f");
    }

    private static void rateRow(List<RateResult> results, String measure, ToDoubleFunction<RateResult> f, String format) {
        row(measure, median(results.stream().filter(r -> r.broker().equals("kafka")).mapToDouble(f).toArray()),
                median(results.stream().filter(r -> r.broker().equals("tributary")).mapToDouble(f).toArray()), format);
    }

    private static void toolRow(List<ToolResult> results, String measure, ToDoubleFunction<ToolResult> f, String format) {
        row(measure, median(results.stream().filter(r -> r.broker().equals("kafka")).mapToDouble(f).toArray()),
                median(results.stream().filter(r -> r.broker().equals("tributary")).mapToDouble(f).toArray()), format);
    }

    private static void row(String measure, double kafka, double tributary, String format) {
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", measure, String.format(Locale.ROOT, format, kafka),
                String.format(Locale.ROOT, format, tributary),
                kafka > 0 ? String.format(Locale.ROOT, "%.2f", tributary / kafka) : "-");
    }

    /** The median (mean of the middle two for an even count), NaN if none. */
    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "n/a";
        }
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        if (tool != null) {
            tool.killCurrent();
        }
        clusters.forEach(c -> c.stop(Duration.ofSeconds(20)));
        WorkDirs.delete(workDir);
    }

}
