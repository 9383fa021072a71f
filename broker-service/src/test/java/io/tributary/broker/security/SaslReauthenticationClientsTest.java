package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-368 with real clients: a broker with {@code connections.max.reauth.ms} of 1.5 s, and a
 * kafka-clients producer and consumer on SCRAM-SHA-512 working on through many session lifetimes.
 * They re-authenticate in band on their connections (counted by the broker), no connection is cut
 * for an expired session, and every record sent is acknowledged and read once, in order.
 */
class SaslReauthenticationClientsTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
        + " username=\"admin\" password=\"admin-pw\";";

    @TempDir
    Path dir;

    private static Map<String, Object> client(TestBroker broker) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, JAAS);
        return configs;
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.find("kafka.server.socket.server.metrics." + name).counters().stream()
            .mapToDouble(Counter::count).sum();
    }

    @Test
    void aProducerAndAConsumerReauthenticateInBandWithoutErrors() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of(
                "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
                "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
                "broker.sasl-enabled-mechanisms", "SCRAM-SHA-512",
                "broker.sasl-mechanism-inter-broker-protocol", "SCRAM-SHA-512",
                "broker.sasl-jaas-config", JAAS,
                "broker.bootstrap-scram-users", "SCRAM-SHA-512=[name=admin,password=admin-pw]",
                "broker.connections-max-reauth-ms", "1500"))) {
            MeterRegistry registry = broker.server().meterRegistry();
            try (Admin admin = Admin.create(client(broker))) {
                admin.createTopics(List.of(new NewTopic("renewed", 1, (short) 1))).all().get();
            }
            Map<String, Object> producerConfigs = client(broker);
            producerConfigs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producerConfigs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            Map<String, Object> consumerConfigs = client(broker);
            consumerConfigs.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            consumerConfigs.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            consumerConfigs.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
            List<String> read = new ArrayList<>();
            int[] sent = {0};
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfigs);
                 KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfigs)) {
                TopicPartition tp = new TopicPartition("renewed", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                // Each client re-authenticates at 85-95% of 1.5 s: at least three times each.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20)).until(() -> {
                    producer.send(new ProducerRecord<>("renewed", ("r" + sent[0]).getBytes(StandardCharsets.UTF_8)))
                        .get();
                    sent[0]++;
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                        read.add(new String(record.value(), StandardCharsets.UTF_8));
                    }
                    return count(registry, "successful.reauthentication") >= 6;
                });
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        read.add(new String(record.value(), StandardCharsets.UTF_8));
                    }
                    return read.size() >= sent[0];
                });
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < sent[0]; i++) {
                expected.add("r" + i);
            }
            assertThat(read).isEqualTo(expected);
            assertThat(count(registry, "expired.connections.killed.count")).isZero();
            assertThat(count(registry, "failed.reauthentication")).isZero();
            assertThat(count(registry, "failed.authentication")).isZero();
        }
    }
}
