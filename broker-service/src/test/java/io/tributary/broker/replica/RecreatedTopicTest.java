package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic deleted and created again while the broker's ZooKeeper connection was down reaches
 * the metadata cache as a change of its node to another topic id (the cache resynchronises
 * after reconnecting and never sees the deletion). The broker must then treat it as a new
 * topic: an empty log, and the old topic id unknown.
 */
class RecreatedTopicTest {

    @TempDir
    Path dir;

    @Test
    void aTopicWhoseIdChangesStartsOverWithAnEmptyLog() throws Exception {
        try (TestBroker broker = TestBroker.start(dir)) {
            Uuid oldId;
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic("recycled", 1, (short) 1))).all().get();
                oldId = admin.describeTopics(List.of("recycled")).allTopicNames().get().get("recycled").topicId();
            }
            try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("recycled", 0, null, new byte[]{(byte) i})).get();
                }
            }
            TopicPartition tp = new TopicPartition("recycled", 0);
            MetadataCache cache = broker.server().metadataCache();
            KafkaZkClient zk = broker.server().zkClient();

            // What the cache sees after a reconnect: the topic node now holds another id.
            Uuid newId = Uuid.randomUuid();
            String json = new String(zk.getDataAndVersion(ZkPaths.topic("recycled")).orElseThrow().data(),
                StandardCharsets.UTF_8).replace(oldId.toString(), newId.toString());
            zk.curator().setData().forPath(ZkPaths.topic("recycled"), json.getBytes(StandardCharsets.UTF_8));
            assertThat(cache.waitFor(() -> cache.topic("recycled").map(t -> t.topicId().equals(newId)).orElse(false),
                10_000).get(15, TimeUnit.SECONDS)).isTrue();
            // Let the event thread finish applying the change to the replica manager.
            cache.runOnEventThread(() -> { }).get(10, TimeUnit.SECONDS);

            assertThat(cache.topicName(oldId)).isEmpty();
            Partition partition = broker.server().replicaManager().getPartition(tp).orElseThrow();
            assertThat(partition.topicId()).isEqualTo(newId);
            assertThat(partition.log().orElseThrow().logEndOffset()).isZero();
            assertThat(partition.log().orElseThrow().topicId()).contains(newId);

            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(0).setMinBytes(1)
                    .setMaxBytes(100_000).setSessionId(0).setSessionEpoch(-1);
                data.topics().add(new FetchRequestData.FetchTopic().setTopicId(oldId).setPartitions(List.of(
                    new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(100_000))));
                FetchResponse byOldId = client.send(new FetchRequest(data, (short) 16));
                assertThat(Errors.forCode(byOldId.data().responses().get(0).partitions().get(0).errorCode()))
                    .isEqualTo(Errors.UNKNOWN_TOPIC_ID);
            }
        }
    }
}
