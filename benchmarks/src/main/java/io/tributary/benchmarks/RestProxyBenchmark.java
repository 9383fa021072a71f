package io.tributary.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import io.tributary.testing.TestPorts;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Measures the REST proxy against kafka-clients used directly, on one Tributary broker:
 * produce throughput (records/s of 100-byte values) through {@code POST /topics/{topic}} with
 * batches of 1, 100 and 500 records per request (16 requests in flight), next to a
 * {@code KafkaProducer} with the proxy's producer settings; and end-to-end latency (p50, p99, ms)
 * from a produce to a waiting long-poll {@code GET .../records} returning it, next to a
 * {@code KafkaConsumer} polling for a record a {@code KafkaProducer} sent.
 *
 * <p>Parameters ({@code benchmark.*} system properties): {@code rest-records} records per HTTP
 * produce run (500 000; a tenth for batches of 1), {@code latency-samples} (300),
 * {@code tributary-jar} and {@code rest-proxy-jar} (this repository's built jars).
 */
public final class RestProxyBenchmark {

    private static final int VALUE_SIZE = 100;
    private static final int IN_FLIGHT = 16;
    private static final String BINARY = "application/vnd.kafka.binary.v2+json";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final long records = Long.getLong("benchmark.rest-records", 500_000);
    private final int samples = Integer.getInteger("benchmark.latency-samples", 300);
    private String proxy;
    private String bootstrap;

    public static void main(String[] args) throws Exception {
        int status = 0;
        try {
            new RestProxyBenchmark().run();
        } catch (Exception e) {
            System.err.println("\nBenchmark failed:");
            e.printStackTrace();
            status = 2;
        }
        System.exit(status);
    }

    private void run() throws Exception {
        String version = System.getProperty("benchmark.tributary-version", "0.1.0-SNAPSHOT");
        Path brokerJar = jar("benchmark.tributary-jar", "../broker-service/target/broker-service-" + version + ".jar");
        Path proxyJar = jar("benchmark.rest-proxy-jar", "../rest-proxy/target/rest-proxy-" + version + ".jar");
        Path workDir = Files.createTempDirectory("tributary-rest-bench-");
        JavaLauncher launcher = new JavaLauncher(workDir.resolve("unused-log4j2.xml"));
        TributaryBroker broker = new TributaryBroker(workDir.resolve("broker"), launcher, brokerJar, "1g",
                BenchmarkSecurity.plaintext());
        Process proxyProcess = null;
        try {
            broker.start();
            bootstrap = broker.bootstrap();
            int port = TestPorts.freePort();
            proxy = "http://127.0.0.1:" + port;
            proxyProcess = JavaLauncher.start(launcher.jar(List.of("-Xmx1g", "-XX:+UseParallelGC"), proxyJar,
                List.of("--server.port=" + port, "--kafka.bootstrap-servers=" + bootstrap,
                    "--logging.level.root=WARN")), workDir, workDir.resolve("rest-proxy.log"));
            awaitReady(proxyProcess, workDir.resolve("rest-proxy.log"));
            System.out.printf("Tributary broker %s, REST proxy %s; %d-byte values, %d HTTP requests in flight%n%n",
                bootstrap, proxy, VALUE_SIZE, IN_FLIGHT);

            for (String topic : List.of("bench-direct", "bench-http-1", "bench-http-100", "bench-http-500",
                    "bench-latency-direct", "bench-latency-http")) {
                broker.createTopic(topic, topic.contains("latency") ? 1 : 6);
            }
            directProduce("bench-direct", Math.min(records, 200_000));
            double direct = directProduce("bench-direct", records);
            System.out.printf("%-38s %12.0f records/s%n", "kafka-clients KafkaProducer", direct);
            for (int batch : List.of(1, 100, 500)) {
                long count = batch == 1 ? records / 10 : records;
                httpProduce("bench-http-" + batch, batch, Math.min(count, 20_000L));
                double rate = httpProduce("bench-http-" + batch, batch, count);
                System.out.printf("%-38s %12.0f records/s  (%.2f of direct)%n", "REST proxy, " + batch
                    + " record(s) per POST", rate, rate / direct);
            }
            System.out.println();
            double[] directLatency = directLatency("bench-latency-direct");
            System.out.printf("%-38s p50 %6.1f ms  p99 %6.1f ms%n", "kafka-clients produce -> poll", directLatency[0],
                directLatency[1]);
            double[] httpLatency = httpLatency("bench-latency-http");
            System.out.printf("%-38s p50 %6.1f ms  p99 %6.1f ms%n", "REST produce -> long-poll GET", httpLatency[0],
                httpLatency[1]);
        } finally {
            if (proxyProcess != null) {
                proxyProcess.destroy();
                proxyProcess.waitFor(20, TimeUnit.SECONDS);
            }
            broker.stop(Duration.ofSeconds(20));
        }
    }

    /** Records per second of a KafkaProducer with the proxy's settings (acks=all, idempotent, linger 1 ms). */
    private double directProduce(String topic, long count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            byte[] value = new byte[VALUE_SIZE];
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
            return count / ((System.nanoTime() - start) / 1e9);
        }
    }

    /** Records per second through {@code POST /topics/{topic}}, {@code batch} records per request. */
    private double httpProduce(String topic, int batch, long count) throws Exception {
        String value = Base64.getEncoder().encodeToString(new byte[VALUE_SIZE]);
        StringBuilder body = new StringBuilder("{\"records\":[");
        for (int i = 0; i < batch; i++) {
            body.append(i == 0 ? "" : ",").append("{\"value\":\"").append(value).append("\"}");
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(proxy + "/topics/" + topic))
            .header("Content-Type", BINARY).POST(HttpRequest.BodyPublishers.ofString(body.append("]}").toString()))
            .build();
        long requests = count / batch;
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch((int) requests);
        long start = System.nanoTime();
        for (long i = 0; i < requests && failure.get() == null; i++) {
            inFlight.acquire();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, e) -> {
                if (e != null || response.statusCode() != 200 || response.body().contains("\"error_code\":5")) {
                    failure.compareAndSet(null, e != null ? e.toString() : response.statusCode() + " "
                        + response.body().substring(0, Math.min(300, response.body().length())));
                }
                inFlight.release();
                done.countDown();
            });
        }
        if (failure.get() == null && !done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("HTTP produce did not finish within 10 minutes");
        }
        if (failure.get() != null) {
            throw new IllegalStateException("HTTP produce failed: " + failure.get());
        }
        return requests * batch / ((System.nanoTime() - start) / 1e9);
    }

    /** p50 and p99 ms from a KafkaProducer send to a polling KafkaConsumer getting the record. */
    private double[] directLatency(String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = producer();
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                 ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArrayDeserializer(),
                 new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToEnd(List.of(tp));
            consumer.position(tp);
            List<Double> latencies = new ArrayList<>();
            for (int i = 0; i < samples + 20; i++) {
                long start = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, new byte[VALUE_SIZE]));
                int received = 0;
                while (received == 0) {
                    received = consumer.poll(Duration.ofSeconds(5)).count();
                }
                if (i >= 20) {
                    latencies.add((System.nanoTime() - start) / 1e6);
                }
            }
            return percentiles(latencies);
        }
    }

    /** p50 and p99 ms from an HTTP produce to a waiting long-poll GET returning the record. */
    private double[] httpLatency(String topic) throws Exception {
        String base = proxy + "/consumers/bench-latency";
        String instance = body(post(base, "application/vnd.kafka.v2+json",
            "{\"format\":\"binary\",\"auto.offset.reset\":\"latest\",\"auto.commit.enable\":\"false\"}"));
        String baseUri = instance.replaceAll(".*\"base_uri\":\"([^\"]+)\".*", "$1");
        post(baseUri + "/subscription", "application/vnd.kafka.v2+json", "{\"topics\":[\"" + topic + "\"]}");
        HttpRequest get = HttpRequest.newBuilder(URI.create(baseUri + "/records?timeout=5000"))
            .header("Accept", BINARY).GET().build();
        // Join the group before measuring: produce until a GET returns a record.
        String one = "{\"records\":[{\"value\":\"" + Base64.getEncoder().encodeToString(new byte[VALUE_SIZE]) + "\"}]}";
        for (int i = 0; i < 30 && !body(http.send(get, HttpResponse.BodyHandlers.ofString())).contains("offset"); i++) {
            post(proxy + "/topics/" + topic, BINARY, one);
        }
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < samples + 20; i++) {
            AtomicLong produced = new AtomicLong();
            CompletableFuture<HttpResponse<String>> poll = http.sendAsync(get, HttpResponse.BodyHandlers.ofString());
            Thread.sleep(5);
            produced.set(System.nanoTime());
            post(proxy + "/topics/" + topic, BINARY, one);
            HttpResponse<String> response = poll.get(30, TimeUnit.SECONDS);
            long end = System.nanoTime();
            if (!response.body().contains("offset")) {
                throw new IllegalStateException("long poll returned no record: " + response.body());
            }
            if (i >= 20) {
                latencies.add((end - produced.get()) / 1e6);
            }
        }
        http.send(HttpRequest.newBuilder(URI.create(baseUri)).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        return percentiles(latencies);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.LINGER_MS_CONFIG, 1), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private HttpResponse<String> post(String url, String contentType, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException("POST " + url + " answered " + response.statusCode() + ": "
                + response.body());
        }
        return response;
    }

    private static String body(HttpResponse<String> response) {
        return response.body();
    }

    private void awaitReady(Process process, Path log) throws Exception {
        HttpRequest ready = HttpRequest.newBuilder(URI.create(proxy + "/actuator/health/readiness")).GET().build();
        for (int i = 0; i < 240; i++) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The REST proxy exited:\n" + LogTail.of(log, 40));
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("The REST proxy was not ready within 120 s:\n" + LogTail.of(log, 40));
    }

    private static double[] percentiles(List<Double> latencies) {
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return new double[] {sorted[(int) Math.floor(0.50 * (sorted.length - 1))],
            sorted[(int) Math.floor(0.99 * (sorted.length - 1))]};
    }

    private static Path jar(String property, String fallback) {
        Path jar = Path.of(System.getProperty(property, fallback)).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first with mvn -B -q package -DskipTests");
        }
        return jar;
    }

}
