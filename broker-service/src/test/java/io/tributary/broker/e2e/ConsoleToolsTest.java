package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.KafkaTool.Result;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example in docs/clients.md with Kafka's own command-line tools ({@code org.apache.kafka:kafka-tools}):
 * kafka-topics creates and describes a topic, the console producer writes lines, the console
 * consumer reads a partition from the earliest offset. Each tool runs in its own JVM, as the
 * shell scripts run them.
 */
class ConsoleToolsTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir);
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void kafkaTopicsConsoleProducerAndConsoleConsumerWork() throws Exception {
        String bootstrap = broker.bootstrapServers();
        Result create = run(null, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap, "--create",
            "--topic", "clicks", "--partitions", "1");
        assertThat(create.output()).contains("Created topic clicks.");

        Result describe = run(null, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap, "--describe",
            "--topic", "clicks");
        assertThat(describe.output()).contains("PartitionCount: 1").contains("Partition: 0\tLeader: 0");

        Result produce = run("first\nsecond\nthird\n", "org.apache.kafka.tools.ConsoleProducer", "--bootstrap-server",
            bootstrap, "--topic", "clicks");
        assertThat(produce.exitCode()).as(produce.output()).isZero();

        Result consume = run(null, "org.apache.kafka.tools.consumer.ConsoleConsumer", "--bootstrap-server", bootstrap,
            "--topic", "clicks", "--partition", "0", "--offset", "earliest", "--max-messages", "3", "--timeout-ms", "20000");
        assertThat(consume.output()).contains("first\nsecond\nthird\n").contains("Processed a total of 3 messages");
    }

    private static Result run(String input, String mainClass, String... args) throws Exception {
        return KafkaTool.run(input, mainClass, args);
    }
}
