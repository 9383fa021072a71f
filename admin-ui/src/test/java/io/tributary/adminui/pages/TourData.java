package io.tributary.adminui.pages;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the page tour shows: a topic {@value #TOPIC} of 3 partitions with {@value #RECORDS} JSON
 * orders, a consumer group {@value #GROUP} that committed part of them and a share group
 * {@value #SHARE_GROUP} that consumed them all. Created once per cluster; later calls find the topic
 * and do nothing.
 */
final class TourData {

    static final String TOPIC = "orders";
    static final String GROUP = "billing";
    static final String SHARE_GROUP = "shipping";
    static final int RECORDS = 12;

    private TourData() {
    }

    static synchronized void ensure(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            if (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(TOPIC)) {
                return;
            }
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            Properties config = new Properties();
            config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            config.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < RECORDS; i++) {
                    String value = "{\"id\": " + (1000 + i) + ", \"customer\": \"c-" + (i % 4)
                        + "\", \"qty\": " + (1 + i % 3) + ", \"country\": \"" + (i % 2 == 0 ? "NO" : "SE") + "\"}";
                    producer.send(new ProducerRecord<>(TOPIC, i % 3, "order-" + (1000 + i), value))
                        .get(30, TimeUnit.SECONDS);
                }
            }
            // Partition p committed at offset p + 1: the group lags 12 - (1 + 2 + 3) = 6.
            admin.alterConsumerGroupOffsets(GROUP, Map.of(
                new TopicPartition(TOPIC, 0), new OffsetAndMetadata(1),
                new TopicPartition(TOPIC, 1), new OffsetAndMetadata(2),
                new TopicPartition(TOPIC, 2), new OffsetAndMetadata(3))).all().get(30, TimeUnit.SECONDS);
            // Set before the share group's first fetch: it starts at the oldest records.
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, SHARE_GROUP), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
        }
        shareConsumeAll(bootstrap);
    }

    /** Reads every record in the share group (acknowledged as accepted) and leaves it. */
    private static void shareConsumeAll(String bootstrap) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, SHARE_GROUP, ConsumerConfig.CLIENT_ID_CONFIG, "tour-shipping");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int seen = 0;
        try (KafkaShareConsumer<String, String> consumer =
                 new KafkaShareConsumer<>(settings, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            while (seen < RECORDS) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("The share group got " + seen + " of " + RECORDS + " records in 60 s");
                }
                seen += consumer.poll(Duration.ofMillis(200)).count();
                consumer.commitSync();
            }
        }
    }
}
