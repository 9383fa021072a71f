package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DeleteShareGroupStateRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitializeShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateResponseData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryRequestData;
import org.apache.kafka.common.message.ReadShareGroupStateSummaryResponseData;
import org.apache.kafka.common.message.WriteShareGroupStateRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.DeleteShareGroupStateRequest;
import org.apache.kafka.common.requests.DeleteShareGroupStateResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.InitializeShareGroupStateRequest;
import org.apache.kafka.common.requests.InitializeShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateResponse;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryRequest;
import org.apache.kafka.common.requests.ReadShareGroupStateSummaryResponse;
import org.apache.kafka.common.requests.WriteShareGroupStateRequest;
import org.apache.kafka.common.requests.WriteShareGroupStateResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share coordinator's inter-broker APIs (KIP-932) as raw wire requests against a broker:
 * FindCoordinator with key type SHARE creates {@code __share_group_state} and names its leader;
 * InitializeShareGroupState, WriteShareGroupState, ReadShareGroupState, ReadShareGroupStateSummary
 * and DeleteShareGroupState on one share-partition, with epoch fencing; the versions advertised.
 */
class ShareGroupStateApisTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.share-coordinator-state-topic-num-partitions", "3",
            "broker.share-coordinator-state-topic-replication-factor", "1",
            "broker.share-coordinator-state-topic-min-isr", "1"));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void theStateApisAreAdvertisedAtKafkasVersions() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ApiVersionsResponse versions = client.send(new ApiVersionsRequest.Builder().build((short) 3));
            Map<ApiKeys, String> expected = Map.of(ApiKeys.INITIALIZE_SHARE_GROUP_STATE, "0-0",
                ApiKeys.READ_SHARE_GROUP_STATE, "0-0", ApiKeys.WRITE_SHARE_GROUP_STATE, "0-1",
                ApiKeys.DELETE_SHARE_GROUP_STATE, "0-0", ApiKeys.READ_SHARE_GROUP_STATE_SUMMARY, "0-1");
            expected.forEach((api, range) -> assertThat(versions.apiVersion(api.id).minVersion() + "-"
                + versions.apiVersion(api.id).maxVersion()).as(api.name()).isEqualTo(range));
        }
    }

    @Test
    void findCoordinatorWithAShareKeyNamesTheLeaderOfTheStatePartition() throws Exception {
        String key = "finders:" + Uuid.randomUuid() + ":0";
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> findShareCoordinator(client, key).errorCode()
                == Errors.NONE.code());
            FindCoordinatorResponseData.Coordinator found = findShareCoordinator(client, key);
            assertThat(found.nodeId()).isZero();
            assertThat(found.key()).isEqualTo(key);
            assertThat(broker.server().metadataCache().topic(Topic.SHARE_GROUP_STATE_TOPIC_NAME).orElseThrow()
                .replicas()).hasSize(3);
            assertThat(findShareCoordinator(client, "not-a-share-key").errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        }
    }

    private static FindCoordinatorResponseData.Coordinator findShareCoordinator(WireClient client, String key)
            throws Exception {
        FindCoordinatorResponse response = client.send(new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
            .setKeyType((byte) 2).setCoordinatorKeys(List.of(key))).build((short) 6));
        return response.data().coordinators().get(0);
    }

    @Test
    void aSharePartitionsStateIsInitializedWrittenReadAndDeleted() throws Exception {
        Uuid topicId = Uuid.randomUuid();
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            String key = "lifecycle:" + topicId + ":0";
            await().atMost(Duration.ofSeconds(30)).until(() -> findShareCoordinator(client, key).errorCode()
                == Errors.NONE.code());
            await().atMost(Duration.ofSeconds(30)).until(() -> initialize(client, topicId, 1, 10) == Errors.NONE);
            assertThat(initialize(client, topicId, 0, 10)).isEqualTo(Errors.FENCED_STATE_EPOCH);

            assertThat(write(client, topicId, 1, 4, 12, List.of(new WriteShareGroupStateRequestData.StateBatch()
                .setFirstOffset(12).setLastOffset(15).setDeliveryState((byte) 0).setDeliveryCount((short) 2))))
                .isEqualTo(Errors.NONE);
            assertThat(write(client, topicId, 1, 3, 12, List.of())).isEqualTo(Errors.FENCED_LEADER_EPOCH);
            assertThat(write(client, topicId, 0, 4, 12, List.of())).isEqualTo(Errors.FENCED_STATE_EPOCH);

            ReadShareGroupStateResponseData.PartitionResult read = read(client, topicId, 4);
            assertThat(Errors.forCode(read.errorCode())).isEqualTo(Errors.NONE);
            assertThat(read.stateEpoch()).isEqualTo(1);
            assertThat(read.startOffset()).isEqualTo(12);
            assertThat(read.stateBatches()).singleElement().satisfies(b -> {
                assertThat(b.firstOffset()).isEqualTo(12);
                assertThat(b.lastOffset()).isEqualTo(15);
                assertThat(b.deliveryCount()).isEqualTo((short) 2);
            });
            assertThat(Errors.forCode(read(client, topicId, 3).errorCode())).isEqualTo(Errors.FENCED_LEADER_EPOCH);

            ReadShareGroupStateSummaryResponse summary = client.send(new ReadShareGroupStateSummaryRequest.Builder(
                new ReadShareGroupStateSummaryRequestData().setGroupId("lifecycle").setTopics(List.of(
                    new ReadShareGroupStateSummaryRequestData.ReadStateSummaryData().setTopicId(topicId).setPartitions(
                        List.of(new ReadShareGroupStateSummaryRequestData.PartitionData().setPartition(0))))))
                .build((short) 1));
            ReadShareGroupStateSummaryResponseData.PartitionResult s = summary.data().results().get(0).partitions().get(0);
            assertThat(s.startOffset()).isEqualTo(12);
            assertThat(s.leaderEpoch()).isEqualTo(4);
            assertThat(s.stateEpoch()).isEqualTo(1);

            DeleteShareGroupStateResponse deleted = client.send(new DeleteShareGroupStateRequest.Builder(
                new DeleteShareGroupStateRequestData().setGroupId("lifecycle").setTopics(List.of(
                    new DeleteShareGroupStateRequestData.DeleteStateData().setTopicId(topicId).setPartitions(List.of(
                        new DeleteShareGroupStateRequestData.PartitionData().setPartition(0)))))).build((short) 0));
            assertThat(deleted.data().results().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(read(client, topicId, 4).startOffset()).as("no state: Kafka's uninitialized start offset")
                .isEqualTo(-1);
        }
    }

    private static Errors initialize(WireClient client, Uuid topicId, int stateEpoch, long startOffset) throws Exception {
        InitializeShareGroupStateResponse response = client.send(new InitializeShareGroupStateRequest.Builder(
            new InitializeShareGroupStateRequestData().setGroupId("lifecycle").setTopics(List.of(
                new InitializeShareGroupStateRequestData.InitializeStateData().setTopicId(topicId).setPartitions(List.of(
                    new InitializeShareGroupStateRequestData.PartitionData().setPartition(0).setStateEpoch(stateEpoch)
                        .setStartOffset(startOffset)))))).build((short) 0));
        return Errors.forCode(response.data().results().get(0).partitions().get(0).errorCode());
    }

    private static Errors write(WireClient client, Uuid topicId, int stateEpoch, int leaderEpoch, long startOffset,
                                List<WriteShareGroupStateRequestData.StateBatch> batches) throws Exception {
        WriteShareGroupStateResponse response = client.send(new WriteShareGroupStateRequest.Builder(
            new WriteShareGroupStateRequestData().setGroupId("lifecycle").setTopics(List.of(
                new WriteShareGroupStateRequestData.WriteStateData().setTopicId(topicId).setPartitions(List.of(
                    new WriteShareGroupStateRequestData.PartitionData().setPartition(0).setStateEpoch(stateEpoch)
                        .setLeaderEpoch(leaderEpoch).setStartOffset(startOffset).setDeliveryCompleteCount(-1)
                        .setStateBatches(batches)))))).build((short) 1));
        return Errors.forCode(response.data().results().get(0).partitions().get(0).errorCode());
    }

    private static ReadShareGroupStateResponseData.PartitionResult read(WireClient client, Uuid topicId, int leaderEpoch)
            throws Exception {
        ReadShareGroupStateResponse response = client.send(new ReadShareGroupStateRequest.Builder(
            new ReadShareGroupStateRequestData().setGroupId("lifecycle").setTopics(List.of(
                new ReadShareGroupStateRequestData.ReadStateData().setTopicId(topicId).setPartitions(List.of(
                    new ReadShareGroupStateRequestData.PartitionData().setPartition(0).setLeaderEpoch(leaderEpoch))))))
            .build((short) 0));
        return response.data().results().get(0).partitions().get(0);
    }
}
