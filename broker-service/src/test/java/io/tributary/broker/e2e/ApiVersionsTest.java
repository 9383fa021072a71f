package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ApiVersions advertises our own table; versions we do not serve are refused the Kafka way. */
class ApiVersionsTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir);
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void advertisesTheServedRangesWithProduceFromVersionZero() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ApiVersionsResponse response = client.send(new ApiVersionsRequest(new ApiVersionsRequestData()
                .setClientSoftwareName("test").setClientSoftwareVersion("1.0"), (short) 4));
            Map<ApiKeys, ApiVersionsResponseData.ApiVersion> versions = new HashMap<>();
            response.data().apiKeys().forEach(v -> versions.put(ApiKeys.forId(v.apiKey()), v));
            assertThat(versions.get(ApiKeys.PRODUCE).minVersion()).isEqualTo((short) 0);
            assertThat(versions.get(ApiKeys.PRODUCE).maxVersion()).isEqualTo((short) 13);
            assertThat(versions.get(ApiKeys.FETCH).maxVersion()).isEqualTo((short) 18);
            assertThat(versions).containsKeys(ApiKeys.METADATA, ApiKeys.LIST_OFFSETS, ApiKeys.INIT_PRODUCER_ID,
                ApiKeys.CREATE_TOPICS, ApiKeys.DELETE_TOPICS, ApiKeys.CREATE_PARTITIONS, ApiKeys.DESCRIBE_CONFIGS,
                ApiKeys.INCREMENTAL_ALTER_CONFIGS, ApiKeys.ALTER_CONFIGS, ApiKeys.DESCRIBE_CLUSTER, ApiKeys.DESCRIBE_LOG_DIRS,
                ApiKeys.DELETE_RECORDS, ApiKeys.OFFSET_FOR_LEADER_EPOCH, ApiKeys.API_VERSIONS);
            // The classic group protocol, with OffsetCommit and OffsetFetch advertised from v0 for
            // librdkafka's feature detection (older versions get UNSUPPORTED_VERSION).
            Map<ApiKeys, String> groupApis = Map.of(ApiKeys.FIND_COORDINATOR, "0-6", ApiKeys.JOIN_GROUP, "0-9",
                ApiKeys.SYNC_GROUP, "0-5", ApiKeys.HEARTBEAT, "0-4", ApiKeys.LEAVE_GROUP, "0-5",
                ApiKeys.OFFSET_COMMIT, "0-10", ApiKeys.OFFSET_FETCH, "0-10", ApiKeys.DESCRIBE_GROUPS, "0-6",
                ApiKeys.LIST_GROUPS, "0-5", ApiKeys.DELETE_GROUPS, "0-3");
            groupApis.forEach((api, range) -> assertThat(versions.get(api).minVersion() + "-" + versions.get(api).maxVersion())
                .as(api.name()).isEqualTo(range));
            assertThat(versions.get(ApiKeys.OFFSET_DELETE).maxVersion()).isEqualTo((short) 0);
            // Share groups (KIP-932): membership and describe, v1 only (v0 was Kafka 4.0's early access).
            assertThat(versions.get(ApiKeys.SHARE_GROUP_HEARTBEAT).minVersion() + "-"
                + versions.get(ApiKeys.SHARE_GROUP_HEARTBEAT).maxVersion()).isEqualTo("1-1");
            assertThat(versions.get(ApiKeys.SHARE_GROUP_DESCRIBE).minVersion() + "-"
                + versions.get(ApiKeys.SHARE_GROUP_DESCRIBE).maxVersion()).isEqualTo("1-1");
            assertThat(response.data().finalizedFeatures().find("share.version").maxVersionLevel())
                .as("a new cluster finalizes share.version 1").isEqualTo((short) 1);
            Map<ApiKeys, String> transactionApis = Map.of(ApiKeys.ADD_PARTITIONS_TO_TXN, "0-5", ApiKeys.END_TXN, "0-4",
                ApiKeys.WRITE_TXN_MARKERS, "1-2", ApiKeys.INIT_PRODUCER_ID, "0-5", ApiKeys.ADD_OFFSETS_TO_TXN, "0-4",
                ApiKeys.TXN_OFFSET_COMMIT, "0-4", ApiKeys.DESCRIBE_TRANSACTIONS, "0-0", ApiKeys.LIST_TRANSACTIONS, "0-2",
                ApiKeys.DESCRIBE_PRODUCERS, "0-0");
            transactionApis.forEach((api, range) -> assertThat(versions.get(api).minVersion() + "-"
                + versions.get(api).maxVersion()).as(api.name()).isEqualTo(range));
            assertThat(versions).as("not served yet").doesNotContainKeys(ApiKeys.GET_TELEMETRY_SUBSCRIPTIONS);
            assertThat(response.data().throttleTimeMs()).isZero();
        }
    }

    @Test
    void anUnservedApiVersionsVersionGetsUnsupportedVersionInTheV0LayoutAndTheConnectionStaysOpen() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            // ApiVersions v99: header v2 (flexible), body as v5 would be.
            ByteBuffer frame = ByteBuffer.allocate(64);
            frame.putShort((short) 18).putShort((short) 99).putInt(77).putShort((short) -1).put((byte) 0);
            frame.put((byte) 1).put((byte) 1).put((byte) 0).put((byte) 0).put((byte) 0);
            frame.flip();
            client.writeFrame(frame);
            ByteBuffer response = client.readFrame();
            assertThat(response.getInt()).isEqualTo(77);
            assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            int count = response.getInt();
            boolean listsApiVersionsUpToFive = false;
            for (int i = 0; i < count; i++) {
                short key = response.getShort();
                response.getShort();
                short max = response.getShort();
                listsApiVersionsUpToFive |= key == ApiKeys.API_VERSIONS.id && max == 5;
            }
            assertThat(listsApiVersionsUpToFive).isTrue();
            ApiVersionsResponse retry = client.send(new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0));
            assertThat(Errors.forCode(retry.data().errorCode())).isEqualTo(Errors.NONE);
        }
    }

    @Test
    void produceVersionsBelowThreeGetUnsupportedVersionPerPartition() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            byte[] topic = "legacy".getBytes(StandardCharsets.UTF_8);
            ByteBuffer frame = ByteBuffer.allocate(128);
            frame.putShort((short) 0).putShort((short) 2).putInt(31).putShort((short) -1);
            frame.putShort((short) 1).putInt(1000).putInt(1).putShort((short) topic.length).put(topic);
            frame.putInt(1).putInt(0).putInt(4).putInt(0xdeadbeef);
            frame.flip();
            client.writeFrame(frame);
            ByteBuffer response = client.readFrame();
            assertThat(response.getInt()).isEqualTo(31);
            assertThat(response.getInt()).isEqualTo(1);
            byte[] name = new byte[response.getShort()];
            response.get(name);
            assertThat(new String(name, StandardCharsets.UTF_8)).isEqualTo("legacy");
            assertThat(response.getInt()).isEqualTo(1);
            assertThat(response.getInt()).isEqualTo(0);
            assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(response.getLong()).isEqualTo(-1L);
            assertThat(response.getLong()).isEqualTo(-1L);
            assertThat(response.getInt()).isZero();
            assertThat(response.hasRemaining()).isFalse();
        }
    }

    @Test
    void legacyOffsetCommitAndOffsetFetchGetUnsupportedVersionPerPartitionAndTheConnectionStaysOpen() throws Exception {
        byte[] group = "old-group".getBytes(StandardCharsets.UTF_8);
        byte[] topic = "legacy".getBytes(StandardCharsets.UTF_8);
        byte[] member = "m-1".getBytes(StandardCharsets.UTF_8);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            // OffsetCommit v1: group, generation, member, [topic, [partition, offset, timestamp, metadata]].
            ByteBuffer commit = ByteBuffer.allocate(128);
            commit.putShort(ApiKeys.OFFSET_COMMIT.id).putShort((short) 1).putInt(41).putShort((short) -1);
            commit.putShort((short) group.length).put(group).putInt(3).putShort((short) member.length).put(member);
            commit.putInt(1).putShort((short) topic.length).put(topic);
            commit.putInt(2).putInt(0).putLong(10L).putLong(-1L).putShort((short) -1)
                .putInt(1).putLong(20L).putLong(-1L).putShort((short) 2).put("md".getBytes(StandardCharsets.UTF_8));
            commit.flip();
            client.writeFrame(commit);
            ByteBuffer response = client.readFrame();
            assertThat(response.getInt()).isEqualTo(41);
            assertThat(response.getInt()).isEqualTo(1);
            byte[] name = new byte[response.getShort()];
            response.get(name);
            assertThat(name).isEqualTo(topic);
            assertThat(response.getInt()).isEqualTo(2);
            for (int p = 0; p < 2; p++) {
                assertThat(response.getInt()).isEqualTo(p);
                assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            }
            assertThat(response.hasRemaining()).isFalse();

            // OffsetFetch v0: group, [topic, [partition]].
            ByteBuffer fetch = ByteBuffer.allocate(64);
            fetch.putShort(ApiKeys.OFFSET_FETCH.id).putShort((short) 0).putInt(42).putShort((short) -1);
            fetch.putShort((short) group.length).put(group).putInt(1).putShort((short) topic.length).put(topic)
                .putInt(1).putInt(5);
            fetch.flip();
            client.writeFrame(fetch);
            response = client.readFrame();
            assertThat(response.getInt()).isEqualTo(42);
            assertThat(response.getInt()).isEqualTo(1);
            response.position(response.position() + 2 + topic.length);
            assertThat(response.getInt()).isEqualTo(1);
            assertThat(response.getInt()).isEqualTo(5);
            assertThat(response.getLong()).isEqualTo(-1L);
            assertThat(response.getShort()).isZero();
            assertThat(response.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(response.hasRemaining()).isFalse();

            ApiVersionsResponse still = client.send(new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0));
            assertThat(Errors.forCode(still.data().errorCode())).isEqualTo(Errors.NONE);
        }
    }
}
