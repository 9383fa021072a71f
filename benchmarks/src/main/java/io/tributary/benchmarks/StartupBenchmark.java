package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How fast a broker starts and how much memory it holds once idle: Apache Kafka (one KRaft node,
 * broker and controller) and Tributary (one node, embedded ZooKeeper) taking turns, and Tributary
 * again with a class data sharing (CDS) archive, each in a JVM of its own (the JVM running the
 * benchmark, the same heap for all). Per start:
 * <ul>
 *   <li><b>launch to listening</b>: from the broker process's launch to the moment its client port
 *       accepts a TCP connection, ms;</li>
 *   <li><b>launch to ready</b>: until an Admin client's {@code describeCluster().nodes()} returns
 *       the broker (it answers Metadata), ms;</li>
 *   <li><b>CPU to ready</b>: CPU time the broker process used until then (user + system), s;</li>
 *   <li><b>idle RSS</b>: the process's {@code VmRSS} ({@code /proc/<pid>/status})
 *       {@code benchmark.startup-idle-s} (10) seconds after it was ready, MiB.</li>
 * </ul>
 * Every start is from an empty data directory: Kafka's storage is formatted first
 * ({@code kafka.tools.StorageTool}, a JVM of its own), timed apart and not counted in its launch
 * to listening or ready; Tributary's jar is copied into its directory before the launch.
 *
 * <p>The CDS archive is made once before the rounds, as Spring Boot documents it: the jar is
 * extracted ({@code java -Djarmode=tools -jar broker.jar extract}), a training run of the extracted
 * jar with {@code -XX:ArchiveClassesAtExit} and {@code -Dspring.context.exit=onRefresh} writes
 * {@code app.jsa}, and the measured starts run the extracted jar with
 * {@code -XX:SharedArchiveFile=app.jsa -Xlog:cds=off}; a {@code -Xshare:on} check first makes sure
 * the JVM can map the archive (the measured starts would silently run without it).
 *
 * <p>With {@code benchmark.startup-partitions} (0) above 0, each broker instead gets, before the
 * rounds, one topic of that many partitions (replication factor 1) with a few records in each
 * partition and is stopped cleanly; the rounds then measure restarts on that data, each stopped
 * cleanly again.
 *
 * <p>Properties: {@code benchmark.rounds} (5; the order of the brokers rotates each round),
 * {@code benchmark.broker-heap} (1g), {@code benchmark.startup-idle-s} (10),
 * {@code benchmark.startup-partitions} (0), {@code benchmark.tributary-jar} (this repository's
 * build). Medians over the rounds; the ratios are Tributary / Kafka.
 */
public final class StartupBenchmark {

    private record Result(String broker, int round, double listeningMs, double readyMs, double cpuSeconds,
                          double rssMiB) {
    }

    private static final String KAFKA = "kafka";
    private static final String TRIBUTARY = "tributary";
    private static final String TRIBUTARY_CDS = "tributary-cds";
    private static final List<String> BROKERS = List.of(KAFKA, TRIBUTARY, TRIBUTARY_CDS);
    private static final int RECORDS_PER_PARTITION = 5;
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "5"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final int idleSeconds = Integer.parseInt(prop("benchmark.startup-idle-s", "10"));
    private final int partitions = Integer.parseInt(prop("benchmark.startup-partitions", "0"));
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> started = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;
    private JavaLauncher launcher;
    private BenchmarkSecurity plaintext;
    private Path extractedJar;
    private Path archive;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new StartupBenchmark().run());
    }

    private int run() throws Exception {
        if (rounds <= 0 || idleSeconds < 0 || partitions < 0) {
            throw new IllegalArgumentException("benchmark.rounds must be positive, benchmark.startup-idle-s and"
                    + " benchmark.startup-partitions not negative");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-startup-bench-", this::cleanUp);
        launcher = new JavaLauncher(BrokerBenchmark.writeLog4jConfig(workDir));
        plaintext = BenchmarkSecurity.create(BenchmarkSecurity.Mode.PLAINTEXT, workDir.resolve("tls"));
        System.out.printf("Start-up benchmark: %s, %d round(s), %s; idle RSS %d s after ready%n", BROKERS, rounds,
                partitions == 0 ? "empty data directories" : "restarts on " + partitions + " partition(s)",
                idleSeconds);
        System.out.printf("Java %s, %d cores, broker heap %s, load average %s, work dir %s%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), heap, loadAverage(), workDir);
        warmUpClients();
        List<Result> results = new ArrayList<>();
        List<Double> formatMs = new ArrayList<>();
        try {
            prepareClassDataSharing();
            Map<String, BrokerUnderTest> withData = partitions > 0 ? prepareData(formatMs) : Map.of();
            for (int round = 1; round <= rounds; round++) {
                List<String> order = new ArrayList<>(BROKERS);
                Collections.rotate(order, -((round - 1) % order.size()));
                for (String name : order) {
                    BrokerUnderTest broker = partitions > 0 ? withData.get(name)
                            : create(name, workDir.resolve("round-" + round).resolve(name));
                    Duration prepared = broker.prepare();
                    if (name.equals(KAFKA) && partitions == 0) {
                        formatMs.add((double) prepared.toMillis());
                    }
                    Result r = measure(broker, round);
                    System.out.printf(Locale.ROOT, "  round %d %-13s listening %,6.0f ms, ready %,6.0f ms,"
                                    + " CPU to ready %5.1f s, idle RSS %5.0f MiB%s%n", round, name, r.listeningMs(),
                            r.readyMs(), r.cpuSeconds(), r.rssMiB(),
                            name.equals(KAFKA) && partitions == 0
                                    ? String.format(Locale.ROOT, " (storage format before it: %,d ms)", prepared.toMillis())
                                    : "");
                    results.add(r);
                }
            }
        } finally {
            cleanUp();
        }
        report(results, formatMs);
        return 0;
    }

    private BrokerUnderTest create(String name, Path dir) throws IOException {
        BrokerUnderTest broker = switch (name) {
            case KAFKA -> new KafkaBroker(dir, launcher, heap, plaintext);
            case TRIBUTARY -> new TributaryBroker(dir, launcher, jar, heap, plaintext);
            case TRIBUTARY_CDS -> TributaryBroker.extracted(TRIBUTARY_CDS, dir, launcher, extractedJar,
                    List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off"), heap, plaintext);
            default -> throw new IllegalArgumentException(name);
        };
        started.add(broker);
        return broker;
    }

    /** One start: launch, listening, ready, CPU, then idle RSS; the broker is stopped cleanly after. */
    private Result measure(BrokerUnderTest broker, int round) throws Exception {
        try (Admin admin = admin(broker.bootstrap())) {
            long launched = System.nanoTime();
            broker.launchProcess();
            long listening = awaitListening(broker, launched);
            long ready = awaitReady(broker, admin, launched);
            double cpu = broker.cpuSeconds();
            admin.close(Duration.ZERO);
            Thread.sleep(idleSeconds * 1000L); // idle: nobody connected
            double rss = broker.rssMiB();
            return new Result(broker.name(), round, (listening - launched) / 1e6, (ready - launched) / 1e6, cpu, rss);
        } finally {
            broker.stop(STOP_GRACE);
        }
    }

    /** When the broker's client port first accepts a TCP connection (System.nanoTime). */
    private static long awaitListening(BrokerUnderTest broker, long launched) throws InterruptedException {
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", broker.port), 200);
                return System.nanoTime();
            } catch (IOException refused) {
                check(broker, launched, "accept a connection");
            }
            Thread.sleep(5);
        }
    }

    /** When an Admin client's describeCluster first returns the broker (System.nanoTime). */
    private static long awaitReady(BrokerUnderTest broker, Admin admin, long launched) throws InterruptedException {
        while (true) {
            try {
                if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000)).nodes()
                        .get(3, TimeUnit.SECONDS).isEmpty()) {
                    return System.nanoTime();
                }
            } catch (ExecutionException | TimeoutException notYet) {
                check(broker, launched, "answer Metadata");
            }
            Thread.sleep(10);
        }
    }

    private static void check(BrokerUnderTest broker, long launched, String what) {
        if (!broker.isAlive()) {
            throw new IllegalStateException(broker.name() + " exited before it could " + what + "; "
                    + broker.logTail(40));
        }
        if (System.nanoTime() - launched > BrokerUnderTest.STARTUP_TIMEOUT.toNanos()) {
            throw new IllegalStateException(broker.name() + " did not " + what + " within "
                    + BrokerUnderTest.STARTUP_TIMEOUT + "; " + broker.logTail(40));
        }
    }

    /** An Admin client retrying quickly: its back-offs bound how late it sees a broker become ready. */
    private static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "5");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "20");
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "5");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "20");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2000");
        return Admin.create(props);
    }

    /** Loads the Admin client's classes in this JVM, so the first measured start does not pay for it. */
    private static void warmUpClients() {
        try (Admin admin = admin("127.0.0.1:" + BrokerUnderTest.freePort())) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(300)).nodes().get(2, TimeUnit.SECONDS);
        } catch (Exception expected) {
            // nobody listens there
        }
    }

    /**
     * Extracts the jar, runs the training run that writes the CDS archive, and checks that the JVM
     * maps it (with {@code -Xshare:on} a JVM that cannot use the archive fails instead of running
     * without it).
     */
    private void prepareClassDataSharing() throws Exception {
        Path cds = workDir.resolve("cds");
        Path source = Files.createDirectories(workDir.resolve("jar")).resolve(jar.getFileName());
        Files.copy(jar, source);
        Path log = workDir.resolve("cds.log");
        long begin = System.nanoTime();
        Process extract = JavaLauncher.start(launcher.jar(List.of("-Djarmode=tools"), source,
                List.of("extract", "--destination", cds.toString())), workDir, log);
        if (!extract.waitFor(120, TimeUnit.SECONDS) || extract.exitValue() != 0) {
            extract.destroyForcibly();
            throw new IllegalStateException("extracting " + source + " failed; " + log + " ends with:\n"
                    + LogTail.of(log, 30));
        }
        extractedJar = cds.resolve(jar.getFileName());
        archive = cds.resolve("app.jsa");
        double extractSeconds = (System.nanoTime() - begin) / 1e9;
        begin = System.nanoTime();
        BrokerUnderTest training = TributaryBroker.extracted("cds-training", workDir.resolve("cds-training"),
                launcher, extractedJar, List.of("-XX:ArchiveClassesAtExit=" + archive,
                        "-Dspring.context.exit=onRefresh"), heap, plaintext);
        started.add(training);
        training.launchProcess();
        int exit = training.awaitExit(BrokerUnderTest.STARTUP_TIMEOUT);
        if (exit != 0 || !Files.isRegularFile(archive)) {
            throw new IllegalStateException("the CDS training run exited with " + exit + " and left no " + archive
                    + "; " + training.logTail(40));
        }
        double trainSeconds = (System.nanoTime() - begin) / 1e9;
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(BrokerUnderTest.jvmOptions(heap));
        command.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on", "-cp", extractedJar.toString(),
                "-version"));
        Process check = JavaLauncher.start(command, workDir, log);
        if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0) {
            check.destroyForcibly();
            throw new IllegalStateException("the JVM cannot use the CDS archive " + archive + "; " + log
                    + " ends with:\n" + LogTail.of(log, 30));
        }
        System.out.printf(Locale.ROOT, "CDS archive: jar extracted in %.1f s, training run %.1f s, app.jsa %.0f MiB%n",
                extractSeconds, trainSeconds, Files.size(archive) / 1048576.0);
    }

    /**
     * Each broker's data for the restarts: started once, one topic of {@link #partitions}
     * partitions with {@link #RECORDS_PER_PARTITION} records in each, stopped cleanly.
     */
    private Map<String, BrokerUnderTest> prepareData(List<Double> formatMs) throws Exception {
        Map<String, BrokerUnderTest> prepared = new LinkedHashMap<>();
        for (String name : BROKERS) {
            BrokerUnderTest broker = create(name, workDir.resolve("data-" + name));
            Duration format = broker.prepare();
            if (name.equals(KAFKA)) {
                formatMs.add((double) format.toMillis());
            }
            long begin = System.nanoTime();
            broker.start();
            broker.createTopic("startup", partitions);
            try (KafkaProducer<byte[], byte[]> producer = producer(broker.bootstrap())) {
                byte[] value = new byte[100];
                List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
                        sent.add(producer.send(new ProducerRecord<>("startup", p, null, value)));
                    }
                }
                producer.flush();
                for (var f : sent) {
                    f.get(120, TimeUnit.SECONDS);
                }
            }
            broker.stop(STOP_GRACE);
            if (broker.isAlive()) {
                throw new IllegalStateException(name + " did not stop within " + STOP_GRACE);
            }
            System.out.printf(Locale.ROOT, "%s: %d partition(s) with %d record(s) each written and stopped in %.1f s%n",
                    name, partitions, RECORDS_PER_PARTITION, (System.nanoTime() - begin) / 1e9);
            prepared.put(name, broker);
        }
        return prepared;
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // One batch per partition, sent once: an idempotent producer's retries on a broker still
        // creating a thousand logs ended in a loop of out-of-order sequence errors on Kafka.
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "50");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "60000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private void report(List<Result> results, List<Double> formatMs) {
        System.out.printf("%nMedians over %d round(s), broker heap %s, %s; load average %s at the end;"
                        + " ratio = Tributary / Kafka (lower is better)%n", rounds, heap,
                partitions == 0 ? "empty data directories" : "restarts on " + partitions + " partition(s)",
                loadAverage());
        System.out.println("| measure | Kafka | Tributary | ratio | Tributary + CDS | ratio |");
        System.out.println("|---|---|---|---|---|---|");
        row("launch to listening (ms)", "%.0f", results, Result::listeningMs);
        row("launch to ready (ms)", "%.0f", results, Result::readyMs);
        row("CPU time to ready (s)", "%.1f", results, Result::cpuSeconds);
        row("idle RSS " + idleSeconds + " s after ready (MiB)", "%.0f", results, Result::rssMiB);
        if (!formatMs.isEmpty()) {
            System.out.printf(Locale.ROOT, "Kafka's storage format, before its launch and not counted above: median %.0f ms%n",
                    median(formatMs));
        }
    }

    private static void row(String measure, String format, List<Result> results, ToDoubleFunction<Result> f) {
        double kafka = median(results, KAFKA, f);
        double tributary = median(results, TRIBUTARY, f);
        double cds = median(results, TRIBUTARY_CDS, f);
        System.out.printf(Locale.ROOT, "| %s | " + format + " | " + format + " | %.2f | " + format + " | %.2f |%n",
                measure, kafka, tributary, tributary / kafka, cds, cds / kafka);
    }

    private static double median(List<Result> results, String broker, ToDoubleFunction<Result> f) {
        return median(results.stream().filter(r -> r.broker().equals(broker)).map(f::applyAsDouble).toList());
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        List<BrokerUnderTest> brokers;
        synchronized (started) {
            brokers = List.copyOf(started);
        }
        brokers.forEach(b -> b.stop(Duration.ofSeconds(30)));
        WorkDirs.delete(workDir);
    }

}
