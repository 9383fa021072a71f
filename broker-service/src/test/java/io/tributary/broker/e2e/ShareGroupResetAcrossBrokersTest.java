package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ShareConsumers;
import io.tributary.broker.testing.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterShareGroupOffsets on a cluster (KIP-932): the share-partition whose start offset is altered is
 * led by a broker that is not the group's coordinator and still holds it in memory from the previous
 * consumer. As in Kafka 4.4, a broker forgets a group's share-partitions once the last share session
 * of the group on it closes, so the next consumer is served from the altered start offset, not from
 * the old in-memory state.
 */
class ShareGroupResetAcrossBrokersTest {

    private static final String TOPIC = "spread";
    private static final String GROUP = "rewinders";

    @TempDir
    Path dir;

    @Test
    void aNewConsumerReadsFromTheAlteredStartOffsetOnALeaderThatIsNotTheCoordinator() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of(
                "broker.group-share-heartbeat-interval-ms", "500",
                "broker.share-coordinator-state-topic-num-partitions", "3",
                "broker.share-coordinator-state-topic-min-isr", "1",
                "broker.share-coordinator-state-topic-replication-factor", "1"));
             Admin admin = cluster.admin()) {
            // One partition on each broker: one of them is led by a broker that does not coordinate the group.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0), 1, List.of(1))))).all().get();
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, GROUP);
            admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of("acks", "all"))) {
                for (int p = 0; p < 2; p++) {
                    for (int i = 0; i < 5; i++) {
                        producer.send(new ProducerRecord<>(TOPIC, p, null, ("p" + p + "-" + i).getBytes()));
                    }
                }
                producer.flush();
            }

            int coordinator;
            try (KafkaShareConsumer<String, String> consumer =
                    ShareConsumers.implicit(cluster.bootstrapServers(), GROUP, TOPIC)) {
                assertThat(ShareConsumers.pollUntil(consumer, 10)).hasSize(10);
                consumer.commitSync(); // accepts all ten: both start offsets move to 5
                coordinator = admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(startOffsets(admin))
                    .containsEntry(new TopicPartition(TOPIC, 0), 5L).containsEntry(new TopicPartition(TOPIC, 1), 5L));
            }
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                ShareGroupDescription described = admin.describeShareGroups(List.of(GROUP)).all().get().get(GROUP);
                assertThat(described.groupState()).isEqualTo(GroupState.EMPTY);
            });

            int other = 1 - coordinator; // the partition numbered after a broker is led by that broker
            TopicPartition altered = new TopicPartition(TOPIC, other);
            assertThat(cluster.awaitLeader(altered)).isNotEqualTo(coordinator);
            admin.alterShareGroupOffsets(GROUP, Map.of(altered, 2L)).all().get();

            try (KafkaShareConsumer<String, String> consumer =
                    ShareConsumers.implicit(cluster.bootstrapServers(), GROUP, TOPIC)) {
                assertThat(ShareConsumers.pollUntil(consumer, 3)).as("only the altered partition, from offset 2")
                    .containsExactlyInAnyOrder("p" + other + "-2", "p" + other + "-3", "p" + other + "-4");
            }
        }
    }

    private static Map<TopicPartition, Long> startOffsets(Admin admin) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listShareGroupOffsets(Map.of(GROUP, new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo(GROUP).get()
            .forEach((tp, info) -> offsets.put(tp, info == null ? null : info.startOffset()));
        return offsets;
    }


}
