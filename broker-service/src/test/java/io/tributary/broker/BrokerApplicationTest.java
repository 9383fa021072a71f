package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.testing.TestBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot application: settings from a Kafka server.properties file with command-line
 * overrides, the Kafka listener it was given, Actuator on port 0.
 */
@ExtendWith(OutputCaptureExtension.class)
class BrokerApplicationTest {

    @TempDir
    Path dir;

    @Test
    void startsFromAServerPropertiesFileWithCommandLineOverrides(CapturedOutput output) throws Exception {
        int kafkaPort = TestBroker.freePort();
        Path serverProperties = dir.resolve("server.properties");
        Files.writeString(serverProperties, String.join("\n",
            "# A Kafka server.properties",
            "broker.id=3",
            "listeners=PLAINTEXT://127.0.0.1:" + kafkaPort,
            "log.dirs=" + dir.resolve("a") + "," + dir.resolve("b"),
            "num.partitions=4",
            "log.retention.hours=2",
            "log.segment.bytes=1048576",
            "group.initial.rebalance.delay.ms=0",
            "transaction.state.log.load.buffer.size=5242880",
            ""));
        String[] args = {"--server-properties=" + serverProperties, "--broker.num-partitions=5", "--server.port=0",
            "--broker.data-dir=" + dir.resolve("data"), "--broker.embedded-zookeeper-port=0"};
        try (ConfigurableApplicationContext context = SpringApplication.run(BrokerApplication.class, args)) {
            BrokerProperties properties = context.getBean(BrokerProperties.class);
            assertThat(properties.id()).isEqualTo(3);
            assertThat(properties.numPartitions()).isEqualTo(5);
            assertThat(properties.logRetentionMs()).isEqualTo(7_200_000L);
            assertThat(properties.logDirPaths()).containsExactly(dir.resolve("a"), dir.resolve("b"));
            assertThat(properties.groupInitialRebalanceDelayMs()).isZero();
            assertThat(output.getOut()).containsOnlyOnce("does not support: [transaction.state.log.load.buffer.size]");

            String httpPort = context.getEnvironment().getProperty("local.server.port");
            // The controller election runs on its own thread once the broker has registered: it may
            // finish just after the application is up.
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(prometheus(httpPort)).contains("kafka_controller_kafkacontroller_activecontrollercount 1.0"));
            String before = prometheus(httpPort);
            assertThat(before).contains("kafka_controller_kafkacontroller_activecontrollercount 1.0",
                "kafka_controller_kafkacontroller_offlinepartitionscount 0.0",
                "kafka_server_replicamanager_leadercount 0.0", "kafka_server_replicamanager_partitioncount 0.0",
                "kafka_server_replicamanager_underreplicatedpartitions 0.0",
                "kafka_server_replicamanager_underminisrpartitioncount 0.0",
                "kafka_server_replicamanager_isrshrinks_total 0.0", "kafka_server_replicamanager_isrexpands_total 0.0",
                "kafka_log_logmanager_offlinelogdirectorycount 0.0", "kafka_server_kafkaserver_brokerstate 3.0");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort))) {
                admin.createTopics(List.of(new NewTopic("spread", java.util.Optional.empty(), java.util.Optional.empty())))
                    .all().get();
                assertThat(admin.describeTopics(List.of("spread")).allTopicNames().get().get("spread").partitions())
                    .hasSize(5);
                ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "3");
                Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
                assertThat(config.get("log.retention.ms").value()).isEqualTo("7200000");
            }
            // New partitions go to the log directory holding the fewest.
            try (var a = Files.list(dir.resolve("a")); var b = Files.list(dir.resolve("b"))) {
                long inA = a.filter(p -> p.getFileName().toString().startsWith("spread-")).count();
                long inB = b.filter(p -> p.getFileName().toString().startsWith("spread-")).count();
                assertThat(inA + inB).isEqualTo(5);
                assertThat(Math.abs(inA - inB)).isLessThanOrEqualTo(1);
            }

            // The replication gauges move with the five partitions this broker now leads.
            assertThat(prometheus(httpPort)).contains("kafka_server_replicamanager_leadercount 5.0",
                "kafka_server_replicamanager_partitioncount 5.0");
            String port = httpPort;
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"UP\"");
        }
    }

    private static String prometheus(String port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
