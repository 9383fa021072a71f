package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import static io.tributary.broker.group.GroupTestSupport.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.MockTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator over an in-memory offsets topic and a mock clock: load states and their
 * errors, offset expiry (KIP-211, KIP-496), and what a reload restores.
 */
class GroupCoordinatorTest {

    private static final int PARTITIONS = 4;
    private static final long RETENTION_MS = 60_000;
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition U0 = new TopicPartition("u", 0);

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator = newCoordinator();

    @AfterEach
    void shutdown() {
        coordinator.shutdown();
    }

    private GroupCoordinator newCoordinator() {
        return new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 0, 100, 5000, 4096,
            RETENTION_MS, 600_000), time);
    }

    @Test
    void aGroupIsServedOnlyOnceItsPartitionIsLoaded() {
        assertThat(coordinator.fetchOffsets("g", null).error()).isEqualTo(Errors.NOT_COORDINATOR);
        log.holdReads();
        TopicPartition partition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, coordinator.partitionFor("g"));
        coordinator.onBecomeLeader(partition, 0);
        assertThat(coordinator.fetchOffsets("g", null).error()).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(coordinator.heartbeat("g", "m", null, 1)).as("answered blindly while loading, as Kafka does")
            .isEqualTo(Errors.NONE);
        assertThat(coordinator.listGroups(List.of(), List.of()).getKey()).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        log.openReads();
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.fetchOffsets("g", null).error() == Errors.NONE);
        coordinator.onResign(partition);
        assertThat(coordinator.fetchOffsets("g", null).error()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void thePartitionOfAGroupIsTheAbsoluteHashModuloThePartitionCount() {
        assertThat("polygenelubricants".hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(coordinator.partitionFor("polygenelubricants")).isZero();
        assertThat(coordinator.partitionFor("orders")).isEqualTo(Utils.abs("orders".hashCode()) % PARTITIONS);
    }

    @Test
    void offsetsOfAGroupWithoutMembersExpireRetentionAfterTheirCommit() throws Exception {
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        commit("simple", Map.of(T0, 10L));
        time.advance(RETENTION_MS / 2);
        commit("simple", Map.of(U0, 20L));
        time.advance(RETENTION_MS / 2);
        coordinator.expireOffsets();
        assertThat(offsets("simple")).isEqualTo(Map.of(U0, 20L));

        time.advance(RETENTION_MS / 2);
        coordinator.expireOffsets();
        assertThat(offsets("simple")).isEmpty();
        assertThat(coordinator.listGroups(List.of(), List.of()).getValue()).isEmpty();

        GroupCoordinator reloaded = reload();
        assertThat(reloaded.fetchOffsets("simple", null).offsets()).as("the expiry was written as tombstones").isEmpty();
        assertThat(reloaded.listGroups(List.of(), List.of()).getValue()).isEmpty();
    }

    @Test
    void aConsumerGroupKeepsTheOffsetsOfItsTopicsWhileActiveAndLosesThemRetentionAfterItEmptied() throws Exception {
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        String member = joinAndSync("active", "t");
        commitAsMember("active", member, Map.of(T0, 5L, U0, 6L));

        time.advance(RETENTION_MS * 3);
        coordinator.expireOffsets();
        assertThat(offsets("active")).as("an active group keeps offsets of subscribed topics; u is not subscribed (KIP-496)")
            .isEqualTo(Map.of(T0, 5L));

        assertThat(coordinator.leaveGroup("active", List.of(new GroupCoordinator.Leaving(member, null, "done")))
            .getValue()).containsExactly(Errors.NONE);
        assertThat(coordinator.describeGroup("active", Errors.GROUP_ID_NOT_FOUND).groupState())
            .as("the last member left: empty at once, not after the rebalance timeout").isEqualTo("Empty");
        time.advance(RETENTION_MS - 1);
        coordinator.expireOffsets();
        assertThat(offsets("active")).as("empty for less than the retention").isEqualTo(Map.of(T0, 5L));
        time.advance(1);
        coordinator.expireOffsets();
        assertThat(offsets("active")).isEmpty();
        assertThat(coordinator.describeGroup("active", Errors.GROUP_ID_NOT_FOUND).errorCode())
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    @Test
    void aReloadRestoresGroupsWithTheirGenerationMembersAndOffsets() throws Exception {
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        String member = joinAndSync("kept", "t");
        commitAsMember("kept", member, Map.of(T0, 9L));
        commit("deleted", Map.of(T0, 1L));
        assertThat(coordinator.deleteGroup("deleted").get(5, TimeUnit.SECONDS)).isEqualTo(Errors.NONE);

        GroupCoordinator reloaded = reload();
        var described = reloaded.describeGroup("kept", Errors.GROUP_ID_NOT_FOUND);
        assertThat(described.groupState()).isEqualTo("Stable");
        assertThat(described.protocolData()).isEqualTo("range");
        assertThat(described.members()).singleElement().satisfies(m -> assertThat(m.memberId()).isEqualTo(member));
        assertThat(reloaded.heartbeat("kept", member, null, 1)).isEqualTo(Errors.NONE);
        assertThat(reloaded.fetchOffsets("kept", null).offsets().get(T0).offset()).isEqualTo(9L);
        assertThat(reloaded.describeGroup("deleted", Errors.GROUP_ID_NOT_FOUND).errorCode())
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(reloaded.fetchOffsets("deleted", null).offsets()).isEmpty();
    }

    @Test
    void aNewGroupWaitsTheInitialRebalanceDelaySoMembersArrivingTogetherShareTheFirstGeneration() throws Exception {
        coordinator.shutdown();
        // Its timers run on the mock clock: the delay passes only as the test advances it.
        coordinator = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 500, 100, 5000,
            4096, RETENTION_MS, 600_000), time, new MockTimer(time));
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        JoinGroupRequestData first = join("delayed", "", "t", 30_000, 30_000);
        String idA = coordinator.joinGroup(first, true, "a", "/127.0.0.1").get(5, TimeUnit.SECONDS).memberId();
        String idB = coordinator.joinGroup(join("delayed", "", "t", 30_000, 30_000), true, "b", "/127.0.0.1")
            .get(5, TimeUnit.SECONDS).memberId();
        CompletableFuture<JoinGroupResponseData> a = coordinator.joinGroup(
            join("delayed", idA, "t", 30_000, 30_000), true, "a", "/127.0.0.1");
        time.advance(400);
        assertThat(a).as("the first join waits for more members").isNotDone();
        CompletableFuture<JoinGroupResponseData> b = coordinator.joinGroup(
            join("delayed", idB, "t", 30_000, 30_000), true, "b", "/127.0.0.1");
        for (int advanced = 0; !(a.isDone() && b.isDone()) && advanced < 30_000; advanced += 100) {
            time.advance(100);
        }
        JoinGroupResponseData joinedA = a.get(10, TimeUnit.SECONDS);
        JoinGroupResponseData joinedB = b.get(10, TimeUnit.SECONDS);
        assertThat(joinedA.generationId()).isEqualTo(1).isEqualTo(joinedB.generationId());
        assertThat(joinedA.leader()).isEqualTo(joinedB.leader());
        JoinGroupResponseData leader = joinedA.leader().equals(idA) ? joinedA : joinedB;
        assertThat(leader.members()).hasSize(2);
    }

    private GroupCoordinator reload() {
        coordinator.shutdown();
        coordinator = newCoordinator();
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        return coordinator;
    }

    private void commit(String group, Map<TopicPartition, Long> offsets) throws Exception {
        commitAsMember(group, "", -1, offsets);
    }

    private void commitAsMember(String group, String member, Map<TopicPartition, Long> offsets) throws Exception {
        commitAsMember(group, member, 1, offsets);
    }

    private void commitAsMember(String group, String member, int generation, Map<TopicPartition, Long> offsets)
            throws Exception {
        Map<TopicPartition, GroupCoordinator.CommitRequest> commits = new HashMap<>();
        offsets.forEach((tp, o) -> commits.put(tp, new GroupCoordinator.CommitRequest(o, -1, "")));
        Map<TopicPartition, Errors> result = coordinator.commitOffsets(group, generation, member, null, commits)
            .get(5, TimeUnit.SECONDS);
        assertThat(result.values()).containsOnly(Errors.NONE);
    }

    private Map<TopicPartition, Long> offsets(String group) {
        GroupCoordinator.FetchedOffsets fetched = coordinator.fetchOffsets(group, null);
        assertThat(fetched.error()).isEqualTo(Errors.NONE);
        Map<TopicPartition, Long> out = new HashMap<>();
        fetched.offsets().forEach((tp, o) -> out.put(tp, o.offset()));
        return out;
    }

    /** One consumer-protocol member subscribed to {@code topic}; the group ends Stable in generation 1. */
    private String joinAndSync(String group, String topic) throws Exception {
        JoinGroupRequestData request = join(group, "", topic, 30_000, 30_000);
        JoinGroupResponseData first = coordinator.joinGroup(request, true, "client", "/127.0.0.1").get(5, TimeUnit.SECONDS);
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        CompletableFuture<JoinGroupResponseData> joined = coordinator.joinGroup(request.setMemberId(first.memberId()),
            true, "client", "/127.0.0.1");
        JoinGroupResponseData response = joined.get(10, TimeUnit.SECONDS);
        assertThat(response.errorCode()).isZero();
        var synced = coordinator.syncGroup(new SyncGroupRequestData().setGroupId(group).setMemberId(first.memberId())
            .setGenerationId(response.generationId()).setAssignments(List.of(new SyncGroupRequestData
                .SyncGroupRequestAssignment().setMemberId(first.memberId()).setAssignment(new byte[]{1}))))
            .get(5, TimeUnit.SECONDS);
        assertThat(synced.errorCode()).isZero();
        return first.memberId();
    }
}
