package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topics are created by a Metadata request that asks for it when auto.create.topics.enable
 * allows it (answered LEADER_NOT_AVAILABLE until the leader is elected, then with a topic id),
 * never by Produce, never with an invalid name.
 */
class MetadataAutoCreateTest {

    @TempDir
    Path dir;

    private static MetadataResponseData.MetadataResponseTopic metadata(WireClient client, String topic, boolean allowCreate)
            throws Exception {
        MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(allowCreate)
            .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(topic)));
        MetadataResponse response = client.send(new MetadataRequest(data, (short) 12));
        return response.data().topics().iterator().next();
    }

    private static Errors produceToUnknownTopic(WireClient client, String topic) throws Exception {
        ProduceRequestData data = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000);
        ProduceRequestData.TopicProduceData t = new ProduceRequestData.TopicProduceData().setName(topic);
        t.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0)
            .setRecords(MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("x".getBytes()))));
        data.topicData().add(t);
        ProduceResponse response = client.send(new ProduceRequest(data, (short) 12));
        return Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
    }

    @Test
    void metadataCreatesTopicsWhenAskedAndAllowedButProduceNever() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.num-partitions", "2"));
             WireClient client = WireClient.connect(broker.bootstrapServers())) {
            assertThat(produceToUnknownTopic(client, "by-produce")).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(Errors.forCode(metadata(client, "by-produce", false).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);

            assertThat(Errors.forCode(metadata(client, "by-metadata", true).errorCode())).isEqualTo(Errors.LEADER_NOT_AVAILABLE);
            Awaitility.await().untilAsserted(() -> {
                MetadataResponseData.MetadataResponseTopic topic = metadata(client, "by-metadata", true);
                assertThat(Errors.forCode(topic.errorCode())).isEqualTo(Errors.NONE);
                assertThat(topic.topicId()).isNotEqualTo(Uuid.ZERO_UUID);
                assertThat(topic.partitions()).hasSize(2).allSatisfy(p -> assertThat(p.leaderId()).isZero());
            });

            assertThat(Errors.forCode(metadata(client, "bad/name", true).errorCode()))
                .isEqualTo(Errors.INVALID_TOPIC_EXCEPTION);
        }
    }

    @Test
    void noTopicIsCreatedWhenTheBrokerDisallowsIt() throws Exception {
        try (TestBroker broker = TestBroker.start(dir, Map.of("broker.auto-create-topics-enable", "false"));
             WireClient client = WireClient.connect(broker.bootstrapServers())) {
            assertThat(Errors.forCode(metadata(client, "not-created", true).errorCode()))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(broker.server().metadataCache().topicNames()).doesNotContain("not-created");
        }
    }
}
