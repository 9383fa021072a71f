package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WordCountApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams with {@code processing.guarantee=exactly_once_v2} (KIP-447) on a broker: a word
 * count through a repartition topic and a changelogged store, its input, output and offsets in
 * one transaction per commit; read_committed, the output's last count of each word is exact.
 */
class StreamsExactlyOnceTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir);
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("lines", 2, (short) 1), new NewTopic("word-counts", 2, (short) 1)))
                .all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void aWordCountWithExactlyOnceV2CountsEachWordExactly() throws Exception {
        List<String> lines = List.of("the quick brown fox", "jumps over the lazy dog", "the dog sleeps",
            "a quick fox", "the end");
        Map<String, Long> expected = new HashMap<>();
        for (int round = 0; round < 20; round++) {
            for (String line : lines) {
                Arrays.stream(line.split(" ")).forEach(w -> expected.merge(w, 1L, Long::sum));
            }
        }
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            for (int round = 0; round < 20; round++) {
                for (String line : lines) {
                    producer.send(new ProducerRecord<>("lines", null, line.getBytes(StandardCharsets.UTF_8)));
                }
            }
        }

        Properties props = WordCountApp.properties(broker.bootstrapServers(), "word-count-eos",
            dir.resolve("streams").toString());

        Map<String, Long> latest = new HashMap<>();
        try (KafkaStreams streams = new KafkaStreams(WordCountApp.topology(), props);
             KafkaConsumer<byte[], byte[]> output = broker.consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                 "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                 ConsumerConfig.GROUP_ID_CONFIG, "word-count-reader"))) {
            streams.start();
            output.subscribe(List.of("word-counts"));
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : output.poll(Duration.ofMillis(200))) {
                    latest.put(new String(r.key(), StandardCharsets.UTF_8), Serdes.Long().deserializer()
                        .deserialize("word-counts", r.value()));
                }
                return latest.equals(expected);
            });
        }
        assertThat(latest).isEqualTo(expected);
    }
}
