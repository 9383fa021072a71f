package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.PrometheusScrape;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The share-partition series (KIP-1103, and Tributary's archived-records counter) on the broker
 * application's {@code /actuator/prometheus}, under the Prometheus names and labels the admin UI reads:
 * they appear once a share consumer fetches, follow its acknowledgements, and go with the group.
 */
class ShareMetricsTest {

    private static final String TOPIC = "jobs";
    private static final String GROUP = "workers";
    private static final String[] LABELS = {"group", GROUP, "topic", TOPIC, "partition", "0"};

    @TempDir
    Path dir;

    @Test
    void sharePartitionSeriesFollowTheConsumerAndGoWithTheGroup() throws Exception {
        int kafkaPort = TestBroker.freePort();
        String bootstrap = "127.0.0.1:" + kafkaPort;
        String[] args = {"--server.port=0", "--broker.listeners=PLAINTEXT://" + bootstrap,
            "--broker.data-dir=" + dir.resolve("data"), "--broker.embedded-zookeeper-port=0",
            "--broker.group-initial-rebalance-delay-ms=0",
            // Partitions are assigned at the heartbeat after their share state exists: 500 ms, not 5 s.
            "--broker.group-share-heartbeat-interval-ms=500"};
        try (ConfigurableApplicationContext context = SpringApplication.run(BrokerApplication.class, args);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            int http = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
            admin.createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), Optional.empty()))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, GROUP), List.of(
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 1000),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 6; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, "job-" + i));
                }
                producer.flush();
            }
            assertThat(PrometheusScrape.of(http).samples("kafka_server_sharepartitionmetrics_inflightmessagecount"))
                .isEmpty();

            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                    "share.acknowledgement.mode", "explicit"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(TOPIC));
                List<ConsumerRecord<String, String>> records = new ArrayList<>();
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                    return !records.isEmpty();
                });
                assertThat(records).as("one batch, one poll").hasSize(6);
                PrometheusScrape fetched = PrometheusScrape.of(http);
                assertThat(fetched.value("kafka_server_sharepartitionmetrics_inflightmessagecount", LABELS)).hasValue(6.0);
                assertThat(fetched.value("kafka_server_sharepartitionmetrics_inflightbatchcount", LABELS)).hasValue(1.0);
                assertThat(fetched.value("kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total", LABELS))
                    .hasValue(0.0);

                consumer.acknowledge(records.get(0), AcknowledgeType.ACCEPT);
                consumer.acknowledge(records.get(1), AcknowledgeType.REJECT);
                consumer.acknowledge(records.get(3), AcknowledgeType.REJECT);
                consumer.commitSync();
                PrometheusScrape acknowledged = PrometheusScrape.of(http);
                assertThat(acknowledged.value("kafka_server_sharepartitionmetrics_inflightmessagecount", LABELS))
                    .as("offsets 2 to 5").hasValue(4.0);
                assertThat(acknowledged.value("kafka_server_sharepartitionmetrics_inflightbatchcount", LABELS))
                    .as("2, 3 (rejected), 4-5").hasValue(3.0);
                assertThat(acknowledged.value("tributary_share_partition_archived_records_total", append(LABELS,
                    "reason", "rejected"))).hasValue(2.0);
                assertThat(acknowledged.value("tributary_share_partition_archived_records_total", append(LABELS,
                    "reason", "delivery_limit"))).hasValue(0.0);
                for (int i : new int[] {2, 4, 5}) {
                    consumer.acknowledge(records.get(i), AcknowledgeType.ACCEPT);
                }
                consumer.commitSync();
            }
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                assertThat(admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP).groupState())
                    .isEqualTo(GroupState.EMPTY));
            // The group's last share session here closed: the broker forgets its share-partitions, and their series.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(PrometheusScrape.of(http)
                .samples("kafka_server_sharepartitionmetrics_inflightmessagecount", LABELS)).isEmpty());

            admin.deleteShareGroups(List.of(GROUP)).all().get();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                PrometheusScrape gone = PrometheusScrape.of(http);
                assertThat(gone.samples("kafka_server_sharepartitionmetrics_inflightmessagecount", LABELS)).isEmpty();
                assertThat(gone.samples("kafka_server_sharepartitionmetrics_inflightbatchcount", LABELS)).isEmpty();
                assertThat(gone.samples("tributary_share_partition_archived_records_total", LABELS)).isEmpty();
            });
        }
    }

    private static String[] append(String[] labels, String... more) {
        String[] all = new String[labels.length + more.length];
        System.arraycopy(labels, 0, all, 0, labels.length);
        System.arraycopy(more, 0, all, labels.length, more.length);
        return all;
    }
}
