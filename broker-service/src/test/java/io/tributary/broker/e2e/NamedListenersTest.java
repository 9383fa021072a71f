package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listeners with names of their own mapped to protocols ({@code listener.security.protocol.map}),
 * as Kubernetes installs use for an internal and an external listener: each client is told the
 * addresses of the listener it connected to, and produces and consumes through it.
 */
class NamedListenersTest {

    @TempDir
    Path dir;

    @Test
    void eachClientIsAdvertisedTheAddressesOfTheListenerItUses() throws Exception {
        int internalPort = TestBroker.freePort();
        int externalPort = TestBroker.freePort();
        try (TestBroker broker = TestBroker.start(dir, Map.of(
                "broker.listeners", "INTERNAL://127.0.0.1:" + internalPort + ",EXTERNAL://127.0.0.1:" + externalPort,
                "broker.advertised-listeners", "INTERNAL://127.0.0.1:" + internalPort + ",EXTERNAL://localhost:" + externalPort,
                "broker.listener-security-protocol-map", "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT",
                "broker.inter-broker-listener-name", "INTERNAL"))) {
            assertThat(nodes("127.0.0.1:" + internalPort)).extracting(Node::host, Node::port)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("127.0.0.1", internalPort));
            assertThat(nodes("127.0.0.1:" + externalPort)).extracting(Node::host, Node::port)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("localhost", externalPort));
            assertThat(broker.server().zkClient().getString("/brokers/ids/0").orElseThrow())
                .contains("\"INTERNAL\":\"PLAINTEXT\"", "\"EXTERNAL\":\"PLAINTEXT\"", "EXTERNAL://localhost:" + externalPort);

            String external = "localhost:" + externalPort;
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, external))) {
                admin.createTopics(List.of(new NewTopic("outside", Optional.of(1), Optional.empty()))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, external), new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("outside", "k", "from outside")).get();
            }
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + internalPort),
                    new StringDeserializer(), new StringDeserializer())) {
                TopicPartition tp = new TopicPartition("outside", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                List<ConsumerRecord<String, String>> records = consumer.poll(java.time.Duration.ofSeconds(10)).records(tp);
                assertThat(records).extracting(ConsumerRecord::value).containsExactly("from outside");
            }
        }
    }

    private static Collection<Node> nodes(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return admin.describeCluster().nodes().get();
        }
    }
}
