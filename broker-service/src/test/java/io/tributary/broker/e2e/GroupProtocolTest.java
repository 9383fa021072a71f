package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.Coordinators;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.requests.DeleteGroupsResponse;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.requests.SyncGroupResponse;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group coordinator's answers on the wire, request by request: the error codes clients
 * act on, the rebalance timeout, the offsets topic created on first lookup, groups on the
 * partition of {@code Integer.MIN_VALUE}, and deletions that stay deleted after a reload.
 */
class GroupProtocolTest {

    private static final String TOPIC = "wire-topic";

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        // Expiry runs often, so an offset committed with its own short retention goes quickly.
        broker = TestBroker.start(dir.resolve("broker"), Map.of("broker.offsets-retention-check-interval-ms", "200"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1), new NewTopic("other-topic", 1, (short) 1)))
                .all().get();
        }
        awaitCoordinator("any-group");
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void theFirstLookupCreatesTheCompactedOffsetsTopicAndAnswersCoordinatorNotAvailableUntilItHasALeader(
            @TempDir Path freshDir) throws Exception {
        try (TestBroker fresh = TestBroker.start(freshDir);
             WireClient client = WireClient.connect(fresh.bootstrapServers());
             Admin admin = fresh.admin()) {
            FindCoordinatorResponse first = client.send(findCoordinator("g", 3));
            assertThat(first.error()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);

            await().atMost(Duration.ofSeconds(30)).until(() ->
                client.<FindCoordinatorResponse>send(findCoordinator("g", 3)).error() == Errors.NONE);
            // "h" may live in another offsets partition, whose leader can come a moment after g's.
            FindCoordinatorRequest both = new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
                .setKeyType((byte) 0).setCoordinatorKeys(List.of("g", "h"))).build((short) 6);
            FindCoordinatorResponse batched = await().atMost(Duration.ofSeconds(30)).until(
                () -> client.<FindCoordinatorResponse>send(both),
                r -> r.data().coordinators().stream().allMatch(c -> c.errorCode() == Errors.NONE.code()));
            assertThat(batched.data().coordinators()).hasSize(2).allSatisfy(c -> {
                assertThat(c.errorCode()).isZero();
                assertThat(c.nodeId()).isZero();
                assertThat("127.0.0.1:" + c.port()).isEqualTo(fresh.bootstrapServers());
            });

            assertThat(admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME)).allTopicNames().get()
                .get(Topic.GROUP_METADATA_TOPIC_NAME).partitions()).hasSize(5);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, Topic.GROUP_METADATA_TOPIC_NAME);
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("compact");
        }
    }

    @Test
    void aNewMemberIsGivenItsIdFirstAndOlderClientsJoinDirectly() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            JoinGroupResponse first = client.send(join("kip-394", "", 10_000, 5_000, 5));
            assertThat(first.error()).isEqualTo(Errors.MEMBER_ID_REQUIRED);
            assertThat(first.data().memberId()).startsWith("wire-client-");

            JoinGroupResponse second = client.send(join("kip-394", first.data().memberId(), 10_000, 5_000, 5));
            assertThat(second.error()).isEqualTo(Errors.NONE);
            assertThat(second.data().memberId()).isEqualTo(first.data().memberId());
            assertThat(second.data().leader()).isEqualTo(first.data().memberId());
            assertThat(second.data().generationId()).isEqualTo(1);

            JoinGroupResponse old = client.send(join("pre-kip-394", "", 10_000, 5_000, 3));
            assertThat(old.error()).isEqualTo(Errors.NONE);
            assertThat(old.data().memberId()).isNotEmpty();
        }
    }

    @Test
    void sessionTimeoutsOutsideTheBrokerBoundsAreRefused() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            assertThat(client.<JoinGroupResponse>send(join("bounds", "", 10, 5_000, 5)).error())
                .isEqualTo(Errors.INVALID_SESSION_TIMEOUT);
            assertThat(client.<JoinGroupResponse>send(join("bounds", "", 3_600_000, 5_000, 5)).error())
                .isEqualTo(Errors.INVALID_SESSION_TIMEOUT);
        }
    }

    @Test
    void heartbeatErrorsAndAMemberThatDoesNotRejoinWithinTheRebalanceTimeoutIsRemoved() throws Exception {
        String group = "heartbeats";
        try (WireClient a = WireClient.connect(broker.bootstrapServers());
             WireClient b = WireClient.connect(broker.bootstrapServers())) {
            String memberA = joinAndSync(a, group, 30_000, 3_000);
            assertThat(heartbeat(a, group, memberA, 1)).isEqualTo(Errors.NONE);
            assertThat(heartbeat(a, group, "nobody", 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
            assertThat(heartbeat(a, group, memberA, 7)).isEqualTo(Errors.ILLEGAL_GENERATION);

            String memberB = b.<JoinGroupResponse>send(join(group, "", 30_000, 3_000, 5)).data().memberId();
            CompletableFuture<JoinGroupResponse> bJoined = CompletableFuture.supplyAsync(() -> {
                try {
                    return b.send(join(group, memberB, 30_000, 3_000, 5));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> heartbeat(a, group, memberA, 1) == Errors.REBALANCE_IN_PROGRESS);
            assertThat(bJoined).as("the join waits for A to rejoin").isNotDone();
            // A never rejoins: after the rebalance timeout (3 s) the generation completes without it.
            JoinGroupResponse joined = bJoined.get(20, TimeUnit.SECONDS);
            assertThat(joined.error()).isEqualTo(Errors.NONE);
            assertThat(joined.data().generationId()).isEqualTo(2);
            assertThat(joined.data().leader()).isEqualTo(memberB);
            assertThat(joined.data().members()).extracting(JoinGroupResponseData.JoinGroupResponseMember::memberId)
                .containsExactly(memberB);
            assertThat(heartbeat(a, group, memberA, 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        }
    }

    @Test
    void unknownAndNonEmptyGroupsInDescribeAndDelete() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            DescribeGroupsResponse v6 = client.send(new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData()
                .setGroups(List.of("never-existed"))).build((short) 6));
            assertThat(v6.data().groups().get(0).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
            assertThat(v6.data().groups().get(0).errorMessage()).contains("never-existed");
            DescribeGroupsResponse v5 = client.send(new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData()
                .setGroups(List.of("never-existed"))).build((short) 5));
            assertThat(v5.data().groups().get(0).errorCode()).isZero();
            assertThat(v5.data().groups().get(0).groupState()).isEqualTo("Dead");

            String member = joinAndSync(client, "busy", 30_000, 5_000);
            DeleteGroupsResponse deleted = client.send(new DeleteGroupsRequest.Builder(new DeleteGroupsRequestData()
                .setGroupsNames(List.of("busy", "never-existed"))).build((short) 2));
            assertThat(deleted.get("busy")).isEqualTo(Errors.NON_EMPTY_GROUP);
            assertThat(deleted.get("never-existed")).isEqualTo(Errors.GROUP_ID_NOT_FOUND);

            DescribeGroupsResponse busy = client.send(new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData()
                .setGroups(List.of("busy")).setIncludeAuthorizedOperations(true)).build((short) 5));
            var described = busy.data().groups().get(0);
            assertThat(described.groupState()).isEqualTo("Stable");
            assertThat(described.protocolType()).isEqualTo("consumer");
            assertThat(described.protocolData()).isEqualTo("range");
            assertThat(described.members()).singleElement().satisfies(m -> assertThat(m.memberId()).isEqualTo(member));
            assertThat(described.authorizedOperations()).isPositive();
        }
    }

    @Test
    void listGroupsFiltersByState() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            joinAndSync(client, "listed-stable", 30_000, 5_000);
            commit(client, "listed-empty", TOPIC, 0, 3L);
            assertThat(listGroups(client, List.of("Stable"))).contains("listed-stable").doesNotContain("listed-empty");
            assertThat(listGroups(client, List.of("empty"))).contains("listed-empty").doesNotContain("listed-stable");
            assertThat(listGroups(client, List.of())).contains("listed-empty", "listed-stable");
        }
    }

    @Test
    void offsetDeleteRefusesTopicsTheGroupSubscribesTo() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            String member = joinAndSync(client, "subscribed", 30_000, 5_000);
            OffsetCommitResponse committed = client.send(OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData()
                .setGroupId("subscribed").setGenerationIdOrMemberEpoch(1).setMemberId(member)
                .setTopics(List.of(commitTopic(TOPIC, 0, 5L), commitTopic("other-topic", 0, 2L)))).build((short) 8));
            assertThat(committed.errorCounts()).containsOnlyKeys(Errors.NONE);

            OffsetDeleteResponse response = client.send(new OffsetDeleteRequest.Builder(new OffsetDeleteRequestData()
                .setGroupId("subscribed").setTopics(new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection(List.of(
                    deleteTopic(TOPIC, 0), deleteTopic("other-topic", 0)).iterator()))).build((short) 0));
            assertThat(response.data().errorCode()).isZero();
            assertThat(response.data().topics().find(TOPIC).partitions().find(0).errorCode())
                .isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code());
            assertThat(response.data().topics().find("other-topic").partitions().find(0).errorCode()).isZero();
            assertThat(fetchOffset(client, "subscribed", TOPIC, 0)).isEqualTo(5L);
            assertThat(fetchOffset(client, "subscribed", "other-topic", 0)).isEqualTo(-1L);
        }
    }

    @Test
    void oneOffsetFetchAnswersForSeveralGroups() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            commit(client, "multi-a", TOPIC, 0, 11L);
            commit(client, "multi-b", TOPIC, 1, 22L);
            OffsetFetchResponse response = client.send(OffsetFetchRequest.Builder.forTopicNames(new OffsetFetchRequestData()
                .setGroups(List.of(
                    new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("multi-a").setTopics(null),
                    new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("multi-b").setTopics(List.of(
                        new OffsetFetchRequestData.OffsetFetchRequestTopics().setName(TOPIC)
                            .setPartitionIndexes(List.of(0, 1)))))), false).build((short) 8));
            assertThat(response.data().groups()).hasSize(2);
            var a = response.data().groups().get(0);
            assertThat(a.groupId()).isEqualTo("multi-a");
            assertThat(a.topics()).singleElement().satisfies(t -> assertThat(t.partitions()).singleElement()
                .satisfies(p -> assertThat(p.committedOffset()).isEqualTo(11L)));
            var b = response.data().groups().get(1);
            assertThat(b.groupId()).isEqualTo("multi-b");
            assertThat(b.topics().get(0).partitions()).extracting(p -> p.committedOffset()).containsExactly(-1L, 22L);

            // The single-group form (v1-7), as librdkafka sends it.
            OffsetFetchResponse single = client.send(OffsetFetchRequest.Builder.forTopicNames(new OffsetFetchRequestData()
                .setGroupId("multi-b").setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic()
                    .setName(TOPIC).setPartitionIndexes(List.of(1)))), false).build((short) 7));
            assertThat(single.data().errorCode()).isZero();
            assertThat(single.data().topics().get(0).partitions().get(0).committedOffset()).isEqualTo(22L);
        }
    }

    @Test
    void aGroupWhoseIdHashesToIntegerMinValueLivesOnPartitionZero() throws Exception {
        String group = "polygenelubricants";
        assertThat(group.hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(Utils.abs(group.hashCode()) % 5).isZero();
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            assertThat(client.<FindCoordinatorResponse>send(findCoordinator(group, 3)).error()).isEqualTo(Errors.NONE);
            commit(client, group, TOPIC, 1, 42L);
            assertThat(fetchOffset(client, group, TOPIC, 1)).isEqualTo(42L);
        }
        var log = broker.server().logManager().getLog(new org.apache.kafka.common.TopicPartition(
            Topic.GROUP_METADATA_TOPIC_NAME, 0)).orElseThrow();
        assertThat(log.logEndOffset()).as("the commit went to partition 0").isPositive();
    }

    @Test
    void deletedGroupsAndOffsetsStayDeletedWhenTheOffsetsTopicIsLoadedAgain() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            commit(client, "to-delete", TOPIC, 0, 10L);
            commit(client, "to-trim", TOPIC, 0, 20L);
            commit(client, "to-trim", TOPIC, 1, 21L);
            DeleteGroupsResponse deleted = client.send(new DeleteGroupsRequest.Builder(new DeleteGroupsRequestData()
                .setGroupsNames(List.of("to-delete"))).build((short) 2));
            assertThat(deleted.get("to-delete")).isEqualTo(Errors.NONE);
            OffsetDeleteResponse trimmed = client.send(new OffsetDeleteRequest.Builder(new OffsetDeleteRequestData()
                .setGroupId("to-trim").setTopics(new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection(
                    List.of(deleteTopic(TOPIC, 0)).iterator()))).build((short) 0));
            assertThat(trimmed.data().errorCode()).isZero();
        }

        broker.restart();
        awaitCoordinator("to-delete");
        awaitCoordinator("to-trim");
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !listGroups(client, List.of()).isEmpty());
            assertThat(listGroups(client, List.of())).contains("to-trim").doesNotContain("to-delete");
            DescribeGroupsResponse described = client.send(new DescribeGroupsRequest.Builder(new DescribeGroupsRequestData()
                .setGroups(List.of("to-delete"))).build((short) 6));
            assertThat(described.data().groups().get(0).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
            assertThat(fetchOffset(client, "to-delete", TOPIC, 0)).isEqualTo(-1L);
            assertThat(fetchOffset(client, "to-trim", TOPIC, 0)).isEqualTo(-1L);
            assertThat(fetchOffset(client, "to-trim", TOPIC, 1)).isEqualTo(21L);
        }
    }

    @Test
    void aGenerationCommitToAnUnknownGroupIsGroupIdNotFoundFromV9AndIllegalGenerationBefore() throws Exception {
        awaitCoordinator("no-such-group");
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            for (short version : new short[]{8, 9}) {
                OffsetCommitResponse response = client.send(OffsetCommitRequest.Builder.forTopicNames(
                    new OffsetCommitRequestData().setGroupId("no-such-group").setGenerationIdOrMemberEpoch(3)
                        .setMemberId("m").setTopics(List.of(commitTopic(TOPIC, 0, 5L)))).build(version));
                assertThat(Errors.forCode(response.data().topics().get(0).partitions().get(0).errorCode()))
                    .as("v%d", version).isEqualTo(version >= 9 ? Errors.GROUP_ID_NOT_FOUND : Errors.ILLEGAL_GENERATION);
            }
        }
    }

    @Test
    void aRestartedStaticLeaderIsToldItLeadsAndToSkipTheAssignmentFromJoinGroupV9() throws Exception {
        String group = "static-leader";
        awaitCoordinator(group);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            JoinGroupResponse first = client.send(staticJoin(group, 9));
            assertThat(first.error()).isEqualTo(Errors.NONE);
            String firstId = first.data().memberId();
            assertThat(first.data().leader()).isEqualTo(firstId);
            SyncGroupResponse synced = client.send(new SyncGroupRequest.Builder(new SyncGroupRequestData().setGroupId(group)
                .setMemberId(firstId).setGroupInstanceId("instance-1").setGenerationId(first.data().generationId())
                .setAssignments(List.of(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(firstId)
                    .setAssignment(new byte[]{1})))).build((short) 5));
            assertThat(synced.error()).isEqualTo(Errors.NONE);

            // Before v9 the restarted leader gets the old leader id: it acts as a follower.
            JoinGroupResponseData v8 = client.<JoinGroupResponse>send(staticJoin(group, 8)).data();
            assertThat(Errors.forCode(v8.errorCode())).isEqualTo(Errors.NONE);
            assertThat(v8.leader()).isEqualTo(firstId).isNotEqualTo(v8.memberId());
            assertThat(v8.generationId()).isEqualTo(first.data().generationId());

            // From v9 it is told it leads, with the members, and to skip the assignment (KIP-814).
            JoinGroupResponseData v9 = client.<JoinGroupResponse>send(staticJoin(group, 9)).data();
            assertThat(Errors.forCode(v9.errorCode())).isEqualTo(Errors.NONE);
            assertThat(v9.memberId()).isNotEqualTo(v8.memberId());
            assertThat(v9.leader()).isEqualTo(v9.memberId());
            assertThat(v9.skipAssignment()).isTrue();
            assertThat(v9.members()).extracting(JoinGroupResponseData.JoinGroupResponseMember::memberId)
                .containsExactly(v9.memberId());
            assertThat(v9.generationId()).as("no rebalance").isEqualTo(first.data().generationId());
        }
    }

    @Test
    void anOffsetCommittedWithItsOwnRetentionTimeExpiresThen() throws Exception {
        String group = "short-retention";
        awaitCoordinator(group);
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            OffsetCommitResponse response = client.send(OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData()
                .setGroupId(group).setGenerationIdOrMemberEpoch(-1).setMemberId("").setRetentionTimeMs(500)
                .setTopics(List.of(commitTopic(TOPIC, 0, 7L)))).build((short) 2));
            assertThat(response.errorCounts()).containsOnlyKeys(Errors.NONE);
            assertThat(fetchOffset(client, group, TOPIC, 0)).isEqualTo(7L);
            await().atMost(Duration.ofSeconds(20)).until(() -> fetchOffset(client, group, TOPIC, 0) == -1L);
        }
    }

    @Test
    void offsetFetchV1PutsAGroupErrorOnEveryRequestedPartition(@TempDir Path freshDir) throws Exception {
        try (TestBroker fresh = TestBroker.start(freshDir);
             WireClient client = WireClient.connect(fresh.bootstrapServers())) {
            // No lookup yet, so no offsets topic: this broker coordinates no group.
            OffsetFetchResponse response = client.send(OffsetFetchRequest.Builder.forTopicNames(new OffsetFetchRequestData()
                .setGroupId("g").setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic().setName(TOPIC)
                    .setPartitionIndexes(List.of(0, 1)))), false).build((short) 1));
            assertThat(response.data().topics()).singleElement().satisfies(t -> assertThat(t.partitions())
                .extracting(p -> Errors.forCode(p.errorCode())).containsExactly(Errors.NOT_COORDINATOR, Errors.NOT_COORDINATOR));
        }
    }

    // ---- helpers

    private static void awaitCoordinator(String group) {
        Coordinators.awaitLoaded(broker.bootstrapServers(), group);
    }

    private static JoinGroupRequest staticJoin(String group, int version) {
        JoinGroupRequestData data = join(group, "", 30_000, 10_000, version).data().setGroupInstanceId("instance-1");
        return new JoinGroupRequest.Builder(data).build((short) version);
    }

    private static FindCoordinatorRequest findCoordinator(String group, int version) {
        return new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData().setKeyType((byte) 0).setKey(group))
            .build((short) version);
    }

    private static JoinGroupRequest join(String group, String memberId, int sessionTimeoutMs, int rebalanceTimeoutMs,
                                         int version) {
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new Subscription(List.of(TOPIC)));
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
            .setMetadata(Utils.toArray(subscription)));
        return new JoinGroupRequest.Builder(new JoinGroupRequestData().setGroupId(group).setMemberId(memberId)
            .setSessionTimeoutMs(sessionTimeoutMs).setRebalanceTimeoutMs(rebalanceTimeoutMs).setProtocolType("consumer")
            .setProtocols(protocols)).build((short) version);
    }

    /** Joins a new single-member group and syncs; returns the member id (generation 1). */
    private static String joinAndSync(WireClient client, String group, int sessionTimeoutMs, int rebalanceTimeoutMs)
            throws Exception {
        String memberId = client.<JoinGroupResponse>send(join(group, "", sessionTimeoutMs, rebalanceTimeoutMs, 5))
            .data().memberId();
        JoinGroupResponse joined = client.send(join(group, memberId, sessionTimeoutMs, rebalanceTimeoutMs, 5));
        assertThat(joined.error()).isEqualTo(Errors.NONE);
        SyncGroupResponse synced = client.send(new SyncGroupRequest.Builder(new SyncGroupRequestData().setGroupId(group)
            .setMemberId(memberId).setGenerationId(joined.data().generationId()).setAssignments(List.of(
                new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(memberId).setAssignment(new byte[0]))))
            .build((short) 3));
        assertThat(synced.error()).isEqualTo(Errors.NONE);
        return memberId;
    }

    private static Errors heartbeat(WireClient client, String group, String memberId, int generation) throws Exception {
        return client.<HeartbeatResponse>send(new HeartbeatRequest.Builder(new HeartbeatRequestData().setGroupId(group)
            .setMemberId(memberId).setGenerationId(generation)).build((short) 3)).error();
    }

    private static OffsetCommitRequestData.OffsetCommitRequestTopic commitTopic(String topic, int partition, long offset) {
        return new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic).setPartitions(List.of(
            new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(partition)
                .setCommittedOffset(offset)));
    }

    /** A simple commit: generation -1, no member, as a consumer that assigns partitions itself sends it. */
    private static void commit(WireClient client, String group, String topic, int partition, long offset) throws Exception {
        OffsetCommitResponse response = client.send(OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData()
            .setGroupId(group).setGenerationIdOrMemberEpoch(-1).setMemberId("")
            .setTopics(List.of(commitTopic(topic, partition, offset)))).build((short) 8));
        assertThat(response.errorCounts()).containsOnlyKeys(Errors.NONE);
    }

    private static OffsetDeleteRequestData.OffsetDeleteRequestTopic deleteTopic(String topic, int partition) {
        return new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName(topic).setPartitions(List.of(
            new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(partition)));
    }

    private static long fetchOffset(WireClient client, String group, String topic, int partition) throws Exception {
        OffsetFetchResponse response = client.send(OffsetFetchRequest.Builder.forTopicNames(new OffsetFetchRequestData()
            .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(group)
                .setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics().setName(topic)
                    .setPartitionIndexes(List.of(partition)))))), false).build((short) 8));
        OffsetFetchResponseData.OffsetFetchResponseGroup g = response.data().groups().get(0);
        assertThat(g.errorCode()).isZero();
        return g.topics().get(0).partitions().get(0).committedOffset();
    }

    private static Set<String> listGroups(WireClient client, List<String> states) throws Exception {
        ListGroupsResponse response = client.send(new ListGroupsRequest.Builder(new ListGroupsRequestData()
            .setStatesFilter(states)).build((short) 4));
        assertThat(response.data().errorCode()).isZero();
        return Set.copyOf(response.data().groups().stream().map(ListGroupsResponseData.ListedGroup::groupId).toList());
    }
}
