package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fetch.max.bytes} bounds what a consumer's fetch gets whatever the consumer asks for (a
 * security review found the client's size used as is): 40 batches of about 600 bytes, a broker
 * limit of 2,000 bytes, and a consumer asking for 50 MB gets them a few at a time, never all at once.
 */
class FetchMaxBytesTest {

    @TempDir
    Path dir;

    @Test
    void aConsumerGetsAtMostTheBrokersFetchMaxBytes() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.fetch-max-bytes", "2000"))) {
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("bounded", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0))) {
                for (int i = 0; i < 40; i++) {
                    producer.send(new ProducerRecord<>("bounded", new byte[500])).get(); // one batch each
                }
            }
            try (KafkaConsumer<byte[], byte[]> consumer = broker.consumer(Map.of(
                    ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 50 * 1024 * 1024,
                    ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 50 * 1024 * 1024))) {
                consumer.assign(List.of(new TopicPartition("bounded", 0)));
                consumer.seekToBeginning(List.of(new TopicPartition("bounded", 0)));
                int read = 0;
                int polls = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (read < 40 && System.nanoTime() < deadline) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                    if (!records.isEmpty()) {
                        assertThat(records.count()).as("records of one fetch under a 2,000-byte limit").isLessThanOrEqualTo(4);
                        read += records.count();
                        polls++;
                    }
                }
                assertThat(read).isEqualTo(40);
                assertThat(polls).isGreaterThanOrEqualTo(10);
            }
        }
    }
}
