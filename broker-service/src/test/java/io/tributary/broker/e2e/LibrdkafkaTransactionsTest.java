package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import java.io.IOException;
import java.io.InputStream;
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
 * librdkafka's transactional producer and read_committed consumer (Debian's
 * {@code python3-confluent-kafka}, which {@code .ci/run} installs) against a broker: two committed
 * transactions and an aborted one between them; the consumer reads exactly the committed records.
 */
class LibrdkafkaTransactionsTest {

    /** Debian's interpreter, which has Debian's confluent-kafka package (a pyenv python may not). */
    private static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("librdkafka-txn", 2, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Path script() throws IOException {
        Path script = dir.resolve("librdkafka_transactions.py");
        try (InputStream in = LibrdkafkaTransactionsTest.class.getResourceAsStream("/clients/librdkafka_transactions.py")) {
            Files.copy(in, script);
        }
        return script;
    }

    @Test
    void librdkafkaCommitsAndAbortsAndReadsOnlyWhatWasCommitted() throws Exception {
        Process process = new ProcessBuilder(PYTHON, script().toString(), broker.bootstrapServers(), "librdkafka-txn")
            .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as("script output:%n%s", output).isZero();
        assertThat(output.lines().filter(l -> l.startsWith("committed-") || l.equals("aborted")).toList())
            .as("script output:%n%s", output)
            .containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
    }
}
