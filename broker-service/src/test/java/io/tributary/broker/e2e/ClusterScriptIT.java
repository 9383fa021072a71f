package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.Clients;
import io.tributary.broker.testing.TestJvm;
import io.tributary.testing.TestPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/cluster.md's {@code bin/cluster}: it starts a standalone ZooKeeper and three broker processes from
 * the packaged jar, which form one cluster (topics get three in-sync replicas by default), and
 * stops them again one at a time, each broker handing over its leaderships first.
 */
class ClusterScriptIT {

    @TempDir
    Path dir;

    private Path script;
    private Map<String, String> env;

    @AfterEach
    void stopCluster() throws Exception {
        if (script != null) {
            run("stop");
        }
    }

    @Test
    void theScriptStartsAThreeBrokerClusterAndStopsIt() throws Exception {
        Path jar = Path.of(System.getProperty("broker.jar"));
        Path root = jar.getParent().getParent().getParent();
        script = root.resolve("bin").resolve("cluster");
        // One block of free ports, so the three ranges cannot overlap: Kafka 3, actuator 3, ZooKeeper 1.
        int base = TestPorts.consecutive(7);
        int kafkaPort = base;
        env = Map.of("DATA_DIR", dir.resolve("cluster").toString(), "ZK_PORT", Integer.toString(base + 6),
            "KAFKA_PORT", Integer.toString(kafkaPort), "BROKER_HTTP_PORT", Integer.toString(base + 3),
            "JAVA_OPTS", String.join(" ", TestJvm.flags()));
        assertThat(run("start")).contains("broker 2 listens on 127.0.0.1:" + (kafkaPort + 2));
        assertThat(run("status")).contains("zookeeper: running", "broker-0: running", "broker-1: running",
            "broker-2: running");

        String bootstrap = IntStream.range(0, 3).mapToObj(i -> "127.0.0.1:" + (kafkaPort + i))
            .collect(Collectors.joining(","));
        try (Admin admin = Clients.admin(bootstrap)) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
            admin.createTopics(List.of(new NewTopic("scripted", Optional.of(2), Optional.empty()))).all()
                .get(60, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                TopicDescription d = admin.describeTopics(List.of("scripted")).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get("scripted");
                return d.partitions().stream().allMatch(p -> p.replicas().size() == 3 && p.isr().size() == 3);
            });
        }
        try (KafkaProducer<byte[], byte[]> producer = Clients.producer(bootstrap, Map.of(ProducerConfig.ACKS_CONFIG, "all"))) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("scripted", i % 2, null, ("v" + i).getBytes(StandardCharsets.UTF_8)))
                    .get(60, TimeUnit.SECONDS);
            }
        }
        List<String> consumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = Clients.consumer(bootstrap, Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"))) {
            consumer.assign(List.of(new TopicPartition("scripted", 0), new TopicPartition("scripted", 1)));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> consumed.add(new String(r.value(), StandardCharsets.UTF_8)));
                return consumed.size() >= 10;
            });
        }
        assertThat(consumed).hasSize(10);

        assertThat(run("stop")).contains("cluster stopped");
        script = null;
        assertThat(runScript(root.resolve("bin").resolve("cluster"), "status")).contains("zookeeper: stopped",
            "broker-0: stopped", "broker-1: stopped", "broker-2: stopped");
        String brokerLogs = Files.readString(dir.resolve("cluster").resolve("broker-0.log"), StandardCharsets.UTF_8)
            + Files.readString(dir.resolve("cluster").resolve("broker-1.log"), StandardCharsets.UTF_8)
            + Files.readString(dir.resolve("cluster").resolve("broker-2.log"), StandardCharsets.UTF_8);
        // One at a time, each broker handed its leaderships to those still running.
        for (int id = 0; id < 3; id++) {
            assertThat(brokerLogs).containsPattern("Controlled shutdown of broker " + id + ": leaderships moved in");
        }
        assertThat(brokerLogs).doesNotContain("stopping anyway").contains("Log manager shut down cleanly");
    }

    private String run(String command) throws Exception {
        return runScript(script, command);
    }

    private String runScript(Path path, String command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", path.toString(), command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("bin/cluster %s:%n%s", command, output).isZero();
        return output;
    }
}
