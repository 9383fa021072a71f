package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestJvm;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, started as docs/settings.md says ({@code java -jar broker-service-<version>.jar} with
 * {@code broker.*} arguments), serves Kafka clients on the listener it was given and Actuator on
 * {@code server.port}; SIGTERM shuts it down cleanly and a restart finds the data.
 */
class PackagedJarIT {

    @TempDir
    Path dir;

    @Test
    void theJarServesClientsAndShutsDownCleanlyOnSigterm() throws Exception {
        Path jar = Path.of(System.getProperty("broker.jar"));
        assertThat(jar).exists();
        int port = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + port;

        Process first = start(jar, port, dir.resolve("first.log"));
        int httpPort = awaitStarted(first, dir.resolve("first.log"));
        try (KafkaProducer<String, String> producer = producer(bootstrap)) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("jar-topic", 0, "k" + i, "v" + i)).get();
            }
        }
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
            + "/actuator/health")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        HttpResponse<String> prometheus = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
            + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("kafka_log_logmanager_offlinelogdirectorycount 0.0");

        first.destroy();
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String firstLog = Files.readString(dir.resolve("first.log"), StandardCharsets.UTF_8);
        assertThat(firstLog).contains("Log manager shut down cleanly");
        assertThat(dir.resolve("data/kafka-logs/.kafka_cleanshutdown")).exists();

        Process second = start(jar, port, dir.resolve("second.log"));
        try {
            awaitStarted(second, dir.resolve("second.log"));
            assertThat(Files.readString(dir.resolve("second.log"), StandardCharsets.UTF_8)).contains("clean shutdown");
            try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
                TopicPartition tp = new TopicPartition("jar-topic", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                List<String> values = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (values.size() < 100 && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                }
                assertThat(values).hasSize(100).startsWith("v0", "v1").endsWith("v99");
            }
        } finally {
            second.destroy();
            second.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private Process start(Path jar, int port, Path log) throws Exception {
        List<String> command = new java.util.ArrayList<>(TestJvm.javaCommand());
        command.addAll(List.of("-Xmx512m", "-jar", jar.toString(), "--broker.listeners=PLAINTEXT://127.0.0.1:" + port, "--server.port=0",
            "--broker.data-dir=" + dir.resolve("data"), "--broker.embedded-zookeeper-port=0"));
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
    }

    /** Waits for the start and returns the Actuator port. */
    private static int awaitStarted(Process process, Path log) throws Exception {
        Pattern tomcat = Pattern.compile("Tomcat started on port (\\d+)");
        try {
            Matcher started = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
                String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
                Matcher m = tomcat.matcher(text);
                if (text.contains("Started BrokerApplication") && m.find()) {
                    return m;
                }
                if (!process.isAlive()) {
                    throw new AssertionError("Broker exited with " + process.exitValue() + ":\n" + text);
                }
                return null;
            }, Objects::nonNull);
            return Integer.parseInt(started.group(1));
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw new AssertionError("Broker did not start:\n" + Files.readString(log));
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
    }
}
