package io.tributary.deploy.bin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.deploy.HttpGet;
import io.tributary.deploy.Repository;
import io.tributary.testing.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's {@code bin/kafka-topics}, {@code bin/kafka-console-producer}, {@code bin/kafka-console-consumer}
 * and {@code bin/kafka-consumer-groups} against one broker started from the packaged jar: Kafka's own
 * tools, with nothing but their output on stdout.
 */
class KafkaToolScriptsIT {

    @TempDir
    static Path dir;

    private static Process broker;
    private static String bootstrap;
    private static Map<String, String> env;

    @BeforeAll
    static void startBroker() throws Exception {
        int base = TestPorts.consecutive(3);
        int kafkaPort = base;
        int httpPort = base + 1;
        bootstrap = "127.0.0.1:" + kafkaPort;
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (!BinScript.jvmFlags().isEmpty()) {
            command.addAll(Arrays.asList(BinScript.jvmFlags().split("\\s+")));
        }
        command.addAll(List.of("-Xmx256m", "-jar",
            Repository.path("broker-service/target/broker-service-" + Repository.projectVersion() + ".jar").toString(),
            "--broker.listeners=PLAINTEXT://" + bootstrap, "--broker.data-dir=" + dir.resolve("data"),
            "--broker.embedded-zookeeper-port=" + (base + 2), "--server.port=" + httpPort,
            "--broker.group-initial-rebalance-delay-ms=0"));
        broker = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("broker.log").toFile())
            .start();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(broker.isAlive()).as("the broker exited; see %s", dir.resolve("broker.log")).isTrue();
            return HttpGet.status("http://127.0.0.1:" + httpPort + "/actuator/health/readiness") == 200;
        });
        // The tools' JVMs start with the build's options for short-lived JVMs.
        env = Map.of("KAFKA_JVM_PERFORMANCE_OPTS", BinScript.jvmFlags());
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.destroy();
            if (!broker.waitFor(60, TimeUnit.SECONDS)) {
                broker.destroyForcibly();
            }
        }
    }

    @Test
    void kafkaTopicsCreatesListsAndDescribesATopic() {
        BinScript.Result created = tool(null, "kafka-topics", "--bootstrap-server", bootstrap, "--create", "--topic", "clicks",
            "--partitions", "3");
        assertThat(created.exitCode()).as("%s", created).isZero();
        assertThat(created.stdout()).isEqualTo("Created topic clicks.\n");

        BinScript.Result listed = tool(null, "kafka-topics", "--bootstrap-server", bootstrap, "--list");
        assertThat(listed.exitCode()).as("%s", listed).isZero();
        assertThat(listed.stdout().lines()).contains("clicks");

        BinScript.Result described = tool(null, "kafka-topics", "--bootstrap-server", bootstrap, "--describe", "--topic",
            "clicks");
        assertThat(described.exitCode()).as("%s", described).isZero();
        List<String> lines = described.stdout().lines().toList();
        assertThat(lines.get(0)).startsWith("Topic: clicks\t").contains("PartitionCount: 3", "ReplicationFactor: 1");
        assertThat(lines.subList(1, lines.size())).hasSize(3)
            .allSatisfy(line -> assertThat(line).contains("Leader: 0", "Replicas: 0", "Isr: 0"));
        // Logging stays quiet: nothing from the clients' loggers on either stream.
        assertThat(created.stderr() + listed.stderr() + described.stderr()).doesNotContain(" INFO ");
    }

    @Test
    void linesSentWithTheConsoleProducerComeBackFromTheConsoleConsumerInAGroup() {
        BinScript.Result created = tool(null, "kafka-topics", "--bootstrap-server", bootstrap, "--create", "--topic", "lines",
            "--partitions", "1");
        assertThat(created.exitCode()).as("%s", created).isZero();

        BinScript.Result produced = tool("alice:first line\nbob:second line\nalice:third line\n", "kafka-console-producer",
            "--bootstrap-server", bootstrap, "--topic", "lines", "--reader-property", "parse.key=true",
            "--reader-property", "key.separator=:");
        assertThat(produced.exitCode()).as("%s", produced).isZero();
        assertThat(produced.stdout()).isEmpty();

        BinScript.Result consumed = tool(null, "kafka-console-consumer", "--bootstrap-server", bootstrap, "--topic", "lines",
            "--group", "readers", "--from-beginning", "--max-messages", "3", "--timeout-ms", "60000",
            "--formatter-property", "print.key=true");
        assertThat(consumed.exitCode()).as("%s", consumed).isZero();
        assertThat(consumed.stdout().lines().toList())
            .containsExactly("alice\tfirst line", "bob\tsecond line", "alice\tthird line");
        assertThat(consumed.stderr()).contains("Processed a total of 3 messages");

        BinScript.Result group = tool(null, "kafka-consumer-groups", "--bootstrap-server", bootstrap, "--describe",
            "--group", "readers");
        assertThat(group.exitCode()).as("%s", group).isZero();
        assertThat(group.stdout()).containsPattern("readers\\s+lines\\s+0\\s+3\\s+3\\s+0");
    }

    private static BinScript.Result tool(String stdin, String name, String... args) {
        return BinScript.run(dir, env, stdin, name, args);
    }
}
