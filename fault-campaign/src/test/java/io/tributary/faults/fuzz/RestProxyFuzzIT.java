package io.tributary.faults.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's garbage input against the REST proxy: a broker and a proxy from their packaged jars on loopback,
 * {@code fuzz.rest.requests} bad requests (default 1,500) from {@code fuzz.rest.concurrency} threads (default 8),
 * seeded by {@code fuzz.seed} (default 1): malformed and mutated JSON, bodies over the proxy's limit (set to 1 MB
 * here; the producer's max.block.ms 1 s) with and without Content-Length, bad base64, unknown formats and content types, fields of the wrong type,
 * unknown topics and partitions, bad consumer requests; meanwhile 100 idle connections and 10 that trickle a
 * request a byte every 20 ms, and a canary that produces a valid request every 50 ms. Every bad request gets a
 * 4xx with a Confluent error body, every canary request succeeds, no trickled request gets a 5xx, and the proxy
 * still answers afterwards.
 */
class RestProxyFuzzIT {

    private static final long MAX_BODY_BYTES = 1024 * 1024;
    private static final Pattern OFFSET = Pattern.compile("\"offset\"\\s*:\\s*\\d+");

    private static JarProcess broker;
    private static JarProcess proxy;
    private static String proxyUrl;
    private static int proxyPort;
    private static String bootstrap;

    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        int kafkaPort = JarProcess.freePort();
        proxyPort = JarProcess.freePort();
        List<String> flags = new ArrayList<>(JarProcess.testJvmFlags());
        flags.add("-Xmx256m");
        long stamp = System.currentTimeMillis();
        broker = JarProcess.start("broker", Path.of(System.getProperty("broker.jar",
                        "../broker-service/target/broker-service-0.1.0-SNAPSHOT.jar")), flags,
                List.of("--broker.listeners=PLAINTEXT://127.0.0.1:" + kafkaPort,
                        "--broker.data-dir=" + work.resolve("data"), "--server.port=" + JarProcess.freePort(),
                        "--broker.auto-create-topics-enable=false"),
                Path.of("target", "fuzz", "rest-broker-" + stamp + ".log"));
        proxy = JarProcess.start("rest-proxy", Path.of(System.getProperty("rest-proxy.jar",
                        "../rest-proxy/target/rest-proxy-0.1.0-SNAPSHOT.jar")), flags,
                List.of("--kafka.bootstrap-servers=127.0.0.1:" + kafkaPort, "--server.port=" + proxyPort,
                        "--rest-proxy.max-request-body-size=" + MAX_BODY_BYTES + "B",
                        // An unknown topic is a 40401 once the producer's metadata wait ends (10 s by default, a
                        // request thread held all along): 1 s keeps the unknown-topic attacks short.
                        "--kafka.producer.max.block.ms=1000"),
                Path.of("target", "fuzz", "rest-proxy-" + stamp + ".log"));
        broker.awaitLog("Started BrokerApplication", Duration.ofMinutes(2));
        proxy.awaitLog("Started RestProxyApplication", Duration.ofMinutes(2));
        proxyUrl = "http://127.0.0.1:" + proxyPort;
        bootstrap = "127.0.0.1:" + kafkaPort;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic("fuzz", 2, (short) 1), new NewTopic("canary", 1, (short) 1)))
                    .all().get();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyBadRequestIsA4xxWithAnErrorBodyAndTheProxyKeepsServing() throws Exception {
        long seed = Long.getLong("fuzz.seed", 1);
        long requests = Long.getLong("fuzz.rest.requests", 1_500);
        int concurrency = Integer.getInteger("fuzz.rest.concurrency", 8);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        await("the proxy produces").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                .until(() -> canaryProduce(http, 0) == null);

        Canary canary = new Canary(http);
        canary.start();
        RestFuzzReport report;
        try (SlowClients slow = new SlowClients(new InetSocketAddress("127.0.0.1", proxyPort), "canary", 100, 10, 20,
                seed)) {
            report = new RestFuzzer(new RestFuzzer.Settings(proxyUrl, seed, requests, concurrency,
                    Duration.ofSeconds(60)), new RestAttacks("fuzz", MAX_BODY_BYTES + 1)).run();
            slow.awaitTricklers(120_000);
            System.out.println("slow clients: " + slow.outcomes());
            assertThat(slow.failures()).as("trickled requests answered 5xx or never").isZero();
        }
        canary.stop();
        System.out.print(report.table());
        report.violations().forEach(v -> System.out.println("violation: " + v));
        System.out.printf("canary: %d valid produce requests during the run, %d failed%n", canary.ok.get(),
                canary.failures.size());

        assertThat(proxy.isAlive()).isTrue();
        assertThat(report.requests()).isEqualTo(requests);
        assertThat(report.violations()).as("answers that broke the rules").isEmpty();
        assertThat(canary.ok.get()).as("canary requests that succeeded during the run").isPositive();
        assertThat(canary.failures).as("canary requests that failed").isEmpty();
        assertThat(canaryProduce(http, 1)).as("a valid request after the run").isNull();
    }

    /** Produces one valid record; null when it was acknowledged, else what went wrong. */
    private static String canaryProduce(HttpClient http, long n) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(proxyUrl + "/topics/canary"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", RestAttacks.JSON_V2)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"records\":[{\"value\":{\"canary\":" + n + "}}]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && OFFSET.matcher(r.body()).find() ? null : r.statusCode() + " " + r.body();
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** Produces a valid record every 50 ms until stopped; counts successes and keeps the failures. */
    private static final class Canary {
        private final HttpClient http;
        private final AtomicLong ok = new AtomicLong();
        private final List<String> failures = new CopyOnWriteArrayList<>();
        private volatile boolean running = true;
        private Thread thread;

        Canary(HttpClient http) {
            this.http = http;
        }

        void start() {
            thread = new Thread(() -> {
                long n = 0;
                Random jitter = new Random(5);
                while (running) {
                    String failure = canaryProduce(http, n++);
                    if (failure == null) {
                        ok.incrementAndGet();
                    } else {
                        failures.add(failure);
                    }
                    try {
                        Thread.sleep(40 + jitter.nextInt(20)); // a steady trickle of valid requests, not a wait
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "rest-canary");
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(60_000);
        }
    }
}
