package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.PrometheusScrape;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The broker application's {@code /actuator/prometheus} under Kafka's series names: each series
 * appears and moves with what clients do (produce, consume, commit), and per-topic and per-group
 * series go when their topic or group goes.
 */
class BrokerMetricsTest {

    private static final String TOPIC = "metered";
    private static final String GROUP = "lagging";

    @TempDir
    Path dir;

    @Test
    void kafkaSeriesAppearAndMoveWithTraffic() throws Exception {
        int kafkaPort = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + kafkaPort;
        String[] args = {"--server.port=0", "--broker.listeners=PLAINTEXT://" + bootstrap,
            "--broker.data-dir=" + dir.resolve("data"), "--broker.embedded-zookeeper-port=0",
            "--broker.consumer-lag-metrics-interval-ms=200", "--broker.group-initial-rebalance-delay-ms=0"};
        try (ConfigurableApplicationContext context = SpringApplication.run(BrokerApplication.class, args);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            int http = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
            PrometheusScrape idle = PrometheusScrape.of(http);
            assertThat(idle.value("kafka_server_kafkaserver_brokerstate")).hasValue(3.0);
            assertThat(idle.value("kafka_server_brokertopicmetrics_bytesin_total", "topic", TOPIC)).isEmpty();

            admin.createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), Optional.empty()))).all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "value-" + i)).get();
                }
            }

            PrometheusScrape produced = PrometheusScrape.of(http);
            assertThat(produced.value("kafka_server_brokertopicmetrics_messagesin_total", "topic", TOPIC)).hasValue(10.0);
            assertThat(produced.value("kafka_server_brokertopicmetrics_bytesin_total", "topic", TOPIC).getAsDouble())
                .as("ten batches of one record, each over 60 bytes").isGreaterThan(600);
            assertThat(produced.value("kafka_server_brokertopicmetrics_totalproducerequests_total", "topic", TOPIC))
                .hasValue(10.0);
            assertThat(produced.value("kafka_server_brokertopicmetrics_failedproducerequests_total", "topic", TOPIC))
                .hasValue(0.0);
            assertThat(produced.sum("kafka_network_requestmetrics_requests_total", "request", "Produce")).isEqualTo(10);
            assertThat(produced.sum("kafka_network_requestmetrics_requests_total", "request", "Metadata")).isPositive();
            assertThat(produced.samples("kafka_network_requestmetrics_requests_total", "request", "Produce"))
                .allSatisfy(s -> assertThat(s.labels()).containsKey("version"));
            for (String quantile : List.of("0.5", "0.75", "0.95", "0.98", "0.99", "0.999")) {
                assertThat(produced.value("kafka_network_requestmetrics_totaltimems", "request", "Produce",
                    "quantile", quantile)).as("TotalTimeMs quantile %s", quantile).isPresent();
            }
            assertThat(produced.value("kafka_network_requestmetrics_totaltimems_count", "request", "Produce"))
                .hasValue(10.0);
            assertThat(produced.value("kafka_network_request_duration_seconds_bucket", "request", "Produce", "le", "+Inf"))
                .hasValue(10.0);
            assertThat(produced.value("kafka_network_request_duration_seconds_bucket", "request", "Produce", "le", "30.0"))
                .as("seconds, not ms: every produce took under 30 s").hasValue(10.0);
            assertThat(produced.samples("kafka_network_request_duration_seconds_bucket", "request", "Produce"))
                .hasSizeGreaterThan(10);

            TopicPartition tp = new TopicPartition(TOPIC, 0);
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(TOPIC));
                int read = 0;
                long deadline = System.currentTimeMillis() + 30_000;
                while (read < 10 && System.currentTimeMillis() < deadline) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                    read += records.count();
                }
                assertThat(read).isEqualTo(10);
                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(4)));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    PrometheusScrape s = PrometheusScrape.of(http);
                    assertThat(s.value("kafka_consumergroup_lag", "consumergroup", GROUP, "topic", TOPIC, "partition", "0"))
                        .hasValue(6.0);
                    assertThat(s.value("kafka_consumergroup_current_offset", "consumergroup", GROUP, "topic", TOPIC,
                        "partition", "0")).hasValue(4.0);
                });
                PrometheusScrape consumed = PrometheusScrape.of(http);
                assertThat(consumed.value("kafka_server_brokertopicmetrics_bytesout_total", "topic", TOPIC).getAsDouble())
                    .as("all ten records were fetched").isGreaterThan(600);
                assertThat(consumed.sum("kafka_network_requestmetrics_requests_total", "request", "FetchConsumer"))
                    .isPositive();
                assertThat(consumed.sum("kafka_network_requestmetrics_requests_total", "request", "Fetch")).isZero();
                assertThat(consumed.sum("kafka_network_requestmetrics_requests_total", "request", "OffsetCommit"))
                    .isPositive();

                consumer.commitSync(Map.of(tp, new OffsetAndMetadata(10)));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(PrometheusScrape.of(http)
                    .value("kafka_consumergroup_lag", "consumergroup", GROUP, "topic", TOPIC, "partition", "0"))
                    .hasValue(0.0));
            }

            admin.deleteConsumerGroups(List.of(GROUP)).all().get();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(PrometheusScrape.of(http)
                .value("kafka_consumergroup_lag", "consumergroup", GROUP, "topic", TOPIC, "partition", "0")).isEmpty());

            admin.deleteTopics(List.of(TOPIC)).all().get();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                OptionalDouble bytesIn = PrometheusScrape.of(http)
                    .value("kafka_server_brokertopicmetrics_bytesin_total", "topic", TOPIC);
                assertThat(bytesIn).as("a deleted topic's series go").isEmpty();
            });
        }
    }
}
