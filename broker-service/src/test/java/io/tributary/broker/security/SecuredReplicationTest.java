package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.replica.Partition;
import io.tributary.broker.testing.TestCertificates;
import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers whose only listener is SASL_SSL: followers fetch from leaders over TLS with the
 * brokers' own PLAIN login, so replicas fill (the fetch path copies file slices into TLS buffers)
 * and the ISR holds all three.
 */
class SecuredReplicationTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"broker\" password=\"broker-secret\" user_broker=\"broker-secret\" user_app=\"app-secret\";";

    @TempDir
    Path dir;

    @Test
    void followersReplicateOverSaslSsl() throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        Path store = certificates.keyStore("broker", "CN=localhost");
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SECURE://127.0.0.1:0");
        settings.put("broker.listener-security-protocol-map", "SECURE:SASL_SSL");
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", store.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", certificates.caPem().toString());
        settings.put("broker.sasl-enabled-mechanisms", "PLAIN");
        settings.put("broker.sasl-mechanism-inter-broker-protocol", "PLAIN");
        settings.put("broker.sasl-jaas-config", JAAS);
        settings.put("broker.consumer-lag-metrics-interval-ms", "500");
        try (TestCluster cluster = TestCluster.start(dir.resolve("cluster"), 3, settings)) {
            Map<String, Object> app = new HashMap<>();
            app.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers("SECURE"));
            app.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
            app.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
            app.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"app\" password=\"app-secret\";");
            app.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            app.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.caPem().toString());
            try (Admin admin = Admin.create(app)) {
                admin.createTopics(List.of(new NewTopic("replicated", 1, (short) 3))).all().get();
            }
            TopicPartition partition = new TopicPartition("replicated", 0);
            cluster.awaitLeader(partition);
            Map<String, Object> producerConfigs = new HashMap<>(app);
            producerConfigs.put(ProducerConfig.ACKS_CONFIG, "all");
            producerConfigs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producerConfigs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfigs)) {
                for (int i = 0; i < 200; i++) {
                    producer.send(new ProducerRecord<>("replicated", ("value-" + i).getBytes(StandardCharsets.UTF_8)))
                        .get();
                }
            }
            cluster.awaitIsr(partition, List.of(0, 1, 2));
            // Each broker's lag reader connects over the same listener with the broker's own login.
            try (Admin admin = Admin.create(app)) {
                admin.alterConsumerGroupOffsets("secured-group", Map.of(partition, new OffsetAndMetadata(150))).all()
                    .get();
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(List.of(0, 1, 2).stream()
                .map(id -> cluster.broker(id).meterRegistry().find("kafka.consumergroup.lag")
                    .tag("consumergroup", "secured-group").gauge())
                .filter(java.util.Objects::nonNull).mapToDouble(g -> g.value()).sum()).isEqualTo(50.0));
            cluster.assertReplicasIdentical(partition);
            for (int broker : List.of(0, 1, 2)) {
                assertThat(cluster.replica(broker, partition).flatMap(Partition::log).orElseThrow().logEndOffset())
                    .as("log end offset of broker %d", broker).isEqualTo(200);
            }
        }
    }
}
