package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KafkaJS's transactional producer and consumer group (npm {@code kafkajs}, installed into
 * {@code src/test/js} by {@code .ci/run}) against a broker: two committed transactions and an
 * aborted one between them; the consumer, which reads committed records by default, gets exactly
 * the committed ones.
 */
class KafkaJsTransactionsTest {

    private static final Path CLIENTS = Path.of("src", "test", "js");

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        assertThat(CLIENTS.resolve("node_modules/kafkajs")).as("npm ci --prefix broker-service/src/test/js")
            .isDirectory();
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("kafkajs-txn", 2, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void kafkaJsCommitsAndAbortsAndReadsOnlyWhatWasCommitted() throws Exception {
        assertThat(Files.isRegularFile(CLIENTS.resolve("kafkajs-transactions.js"))).isTrue();
        Process process = new ProcessBuilder("node", "kafkajs-transactions.js", broker.bootstrapServers(), "kafkajs-txn")
            .directory(CLIENTS.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as("script output:%n%s", output).isZero();
        assertThat(output.lines().filter(l -> l.startsWith("committed-") || l.equals("aborted")).toList())
            .as("script output:%n%s", output)
            .containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
    }
}
