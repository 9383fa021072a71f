package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share-partition lag (KIP-1226) across two brokers: one partition led by each, so the group
 * coordinator reads one latest offset from a leader elsewhere (ListOffsets over the inter-broker
 * listener), and share state goes to share coordinators here and there (WriteShareGroupState v1 and
 * ReadShareGroupStateSummary v1 on the wire carry the delivery complete count).
 */
class ShareGroupLagClusterTest {

    private static final String TOPIC = "spread";
    private static final String GROUP = "spreaders";

    @TempDir
    Path dir;

    @Test
    void lagIsComputedForPartitionsLedByEitherBroker() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of(
                "broker.share-coordinator-state-topic-num-partitions", "4",
                "broker.share-coordinator-state-topic-replication-factor", "1",
                "broker.share-coordinator-state-topic-min-isr", "1",
                // Partitions are assigned at the heartbeat after their share state exists: 500 ms, not 5 s.
                "broker.group-share-heartbeat-interval-ms", "500"));
             Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0), 1, List.of(1))))).all().get();
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, GROUP);
            admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
            cluster.awaitLeader(new TopicPartition(TOPIC, 0));
            cluster.awaitLeader(new TopicPartition(TOPIC, 1));
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of())) {
                for (int p = 0; p < 2; p++) {
                    for (int i = 0; i < 3; i++) {
                        producer.send(new ProducerRecord<>(TOPIC, p, null, ("r" + i).getBytes()));
                    }
                }
                producer.flush();
            }

            Map<String, Object> p = new HashMap<>();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
            p.put("share.acknowledgement.mode", "explicit");
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(TOPIC));
                Set<String> seen = new HashSet<>();
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                        seen.add(r.partition() + "-" + r.offset());
                        // Partition 0: all accepted. Partition 1: 0 accepted, 1 released (again when redelivered), 2 rejected.
                        consumer.acknowledge(r, r.partition() == 0 || r.offset() == 0 ? AcknowledgeType.ACCEPT
                            : r.offset() == 1 ? AcknowledgeType.RELEASE : AcknowledgeType.REJECT);
                    }
                    return seen.size() == 6;
                });
                consumer.commitSync();
            }

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin.listShareGroupOffsets(
                    Map.of(GROUP, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(GROUP).get();
                assertThat(offsets.get(new TopicPartition(TOPIC, 0))).isNotNull().satisfies(info -> {
                    assertThat(info.startOffset()).isEqualTo(3L);
                    assertThat(info.lag()).isEqualTo(Optional.of(0L));
                });
                // Start offset 1 (offset 1 released), offset 2 complete past it: one record of three to go.
                assertThat(offsets.get(new TopicPartition(TOPIC, 1))).isNotNull().satisfies(info -> {
                    assertThat(info.startOffset()).isEqualTo(1L);
                    assertThat(info.lag()).isEqualTo(Optional.of(1L));
                });
            });
        }
    }
}
