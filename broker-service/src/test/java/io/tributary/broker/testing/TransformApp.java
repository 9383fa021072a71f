package io.tributary.broker.testing;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A consume-transform-produce application as Kafka's documentation writes one (KIP-98, KIP-447),
 * run in its own JVM by crash tests: it reads {@code in} with read_committed in group
 * {@code group}, writes {@code "out-" + value} to the same partition of {@code out}, and commits
 * the consumed offsets with each transaction ({@code sendOffsetsToTransaction}). Each transaction
 * waits {@code pauseMs} before its commit, so a kill is likely to land inside one. It runs until it
 * is killed; it prints one line per committed transaction.
 *
 * <p>Arguments: bootstrap servers, input topic, output topic, group id, transactional id, pause ms.
 */
public final class TransformApp {

    private TransformApp() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String in = args[1];
        String out = args[2];
        String group = args[3];
        String transactionalId = args[4];
        long pauseMs = Long.parseLong(args[5]);

        Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "25");
        // A killed instance leaves the group when its session expires, and its successor's join waits
        // for that: a short session (heartbeats every 300 ms keep a live one) keeps each restart short.
        consumerConfig.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "2500");
        consumerConfig.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "300");
        Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new StringDeserializer());
             KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            consumer.subscribe(List.of(in));
            while (true) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<String, String> r : records) {
                    producer.send(new ProducerRecord<>(out, r.partition(), r.key(), "out-" + r.value()));
                    offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                producer.flush();
                Thread.sleep(pauseMs); // the window a kill should hit: written, not yet committed
                producer.commitTransaction();
                System.out.println("committed " + records.count());
            }
        }
    }
}
