package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.TestBroker;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kcat (librdkafka, a client nobody here wrote) produces the 10,000 lines of a real access log
 * and consumes them back byte for byte. Needs {@code kcat} on the PATH ({@code apt-get install
 * -y kcat}; {@code .ci/run} installs it).
 */
class KcatTest {

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Path log;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir.resolve("broker"));
        log = dir.resolve("apache_access.log");
        try (InputStream in = KcatTest.class.getResourceAsStream("/data/apache_access.log")) {
            Files.copy(in, log);
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    // librdkafka enables LZ4 only when the broker serves FindCoordinator v0 (its feature map dates LZ4
    // by the group coordinator API).
    @ParameterizedTest
    @CsvSource({"access-plain, none, NONE", "access-gzip, gzip, GZIP", "access-snappy, snappy, SNAPPY",
        "access-zstd, zstd, ZSTD", "access-lz4, lz4, LZ4"})
    void kcatProducesTheAccessLogAndConsumesItBackByteForByte(String topic, String codec, CompressionType stored)
            throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        Process producer = new ProcessBuilder(kcat(), "-b", broker.bootstrapServers(), "-t", topic, "-P", "-p", "0",
            "-z", codec, "-X", "linger.ms=5")
            .redirectInput(log.toFile()).redirectErrorStream(true).start();
        String producerOutput = new String(producer.getInputStream().readAllBytes());
        assertThat(producer.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(producer.exitValue()).as("kcat producer output: %s", producerOutput).isZero();

        Process consumer = new ProcessBuilder(kcat(), "-b", broker.bootstrapServers(), "-t", topic, "-C", "-p", "0",
            "-o", "beginning", "-e", "-q", "-f", "%s\\n").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ByteArrayOutputStream consumed = new ByteArrayOutputStream();
        consumer.getInputStream().transferTo(consumed);
        assertThat(consumer.waitFor(60, TimeUnit.SECONDS)).isTrue();

        byte[] expected = Files.readAllBytes(log);
        assertThat(consumed.size()).isEqualTo(expected.length);
        assertThat(consumed.toByteArray()).isEqualTo(expected);

        // librdkafka 2.0 compresses only if the broker advertises Produce from v0 (KAFKA-18659): check it did.
        // It sends a batch uncompressed when compressing would not make it smaller, so NONE may appear too.
        PartitionLog partitionLog = broker.server().logManager().getLog(new TopicPartition(topic, 0)).orElseThrow();
        assertThat(partitionLog.logEndOffset()).isEqualTo(10_000);
        List<CompressionType> codecs = batchCodecs(partitionLog);
        assertThat(codecs).contains(stored).isSubsetOf(stored, CompressionType.NONE);
        assertThat(codecs.stream().filter(c -> c == stored).count()).isGreaterThan(codecs.size() / 2);
    }

    @Test
    void kcatBalancedConsumerReadsTheAccessLogProducedByAnotherClient() throws Exception {
        String topic = "access-group";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            for (int i = 0; i < lines.size(); i++) {
                producer.send(new ProducerRecord<>(topic, i % 3, null, lines.get(i).getBytes(StandardCharsets.UTF_8)));
            }
        }

        // -u: unbuffered output, so every line reaches the pipe as it is consumed.
        Process consumer = new ProcessBuilder(kcat(), "-b", broker.bootstrapServers(), "-G", "kcat-group", "-q", "-u",
            "-o", "beginning", "-f", "%s\\n", "-X", "auto.commit.interval.ms=100", topic)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> consumed = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(consumer.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    consumed.add(line);
                }
            } catch (IOException e) {
                // the process was stopped
            }
        }, "kcat-output");
        reader.start();
        try (Admin admin = broker.admin()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> consumed.size() >= lines.size());
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("kcat-group")).all().get()
                .get("kcat-group");
            assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
            assertThat(group.members()).singleElement().satisfies(m ->
                assertThat(m.assignment().topicPartitions()).hasSize(3));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(admin.listConsumerGroupOffsets("kcat-group").partitionsToOffsetAndMetadata().get()
                    .values().stream().mapToLong(o -> o.offset()).sum()).isEqualTo(lines.size()));
        } finally {
            consumer.destroy();
            consumer.waitFor(30, TimeUnit.SECONDS);
            reader.join(10_000);
        }
        assertThat(consumed).containsExactlyInAnyOrderElementsOf(lines);
    }

    private static List<CompressionType> batchCodecs(PartitionLog partitionLog) throws IOException {
        List<CompressionType> codecs = new ArrayList<>();
        for (File segment : partitionLog.dir().listFiles((d, n) -> n.endsWith(".log"))) {
            try (FileRecords records = FileRecords.open(segment, false)) {
                for (RecordBatch batch : records.batches()) {
                    codecs.add(batch.compressionType());
                }
            }
        }
        return codecs;
    }

    private static String kcat() {
        for (String candidate : new String[]{"/usr/bin/kcat", "/usr/local/bin/kcat"}) {
            if (new File(candidate).canExecute()) {
                return candidate;
            }
        }
        return "kcat";
    }
}
