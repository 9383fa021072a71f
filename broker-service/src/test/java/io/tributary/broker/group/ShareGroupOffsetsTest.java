package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.AlterShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestTopic;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponsePartition;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link ShareGroupOffsets} over a share coordinator fake: describe, alter and delete of a share group's offsets. */
class ShareGroupOffsetsTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();

    /** The share coordinator's states: start offset, state epoch (and delivery complete count) by "group/topicId/partition". */
    private final Map<String, long[]> states = new ConcurrentHashMap<>();
    /** The partitions' latest offsets, by partition; none: NOT_LEADER_OR_FOLLOWER. */
    private final Map<Integer, Long> latestOffsets = new ConcurrentHashMap<>();
    private final List<String> calls = new ArrayList<>();
    private final ShareGroupStateClient client = new ShareGroupStateClient() {
        @Override
        public CompletableFuture<Summary> readSummary(String groupId, TopicIdPartition tp) {
            long[] s = states.get(key(groupId, tp));
            return CompletableFuture.completedFuture(s == null ? new Summary(Errors.NONE, 0, -1, -1)
                : new Summary(Errors.NONE, (int) s[1], 3, s[0], s.length > 2 ? (int) s[2] : -1));
        }

        @Override
        public CompletableFuture<LatestOffset> latestOffset(TopicIdPartition tp) {
            Long offset = latestOffsets.get(tp.partition());
            return CompletableFuture.completedFuture(offset == null ? new LatestOffset(Errors.NOT_LEADER_OR_FOLLOWER, -1)
                : new LatestOffset(Errors.NONE, offset));
        }

        @Override
        public CompletableFuture<Errors> initialize(String groupId, TopicIdPartition tp, int stateEpoch, long startOffset) {
            calls.add("initialize " + tp.partition() + " epoch " + stateEpoch + " at " + startOffset);
            states.put(key(groupId, tp), new long[] {startOffset, stateEpoch});
            return CompletableFuture.completedFuture(Errors.NONE);
        }

        @Override
        public CompletableFuture<Errors> delete(String groupId, TopicIdPartition tp) {
            calls.add("delete " + tp.partition());
            states.remove(key(groupId, tp));
            return CompletableFuture.completedFuture(Errors.NONE);
        }
    };

    private final Map<String, GroupTopic> topics = new ConcurrentHashMap<>(Map.of("orders", new GroupTopic(ORDERS, 3)));
    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator;
    private ShareGroupOffsets offsets;

    private static String key(String groupId, TopicIdPartition tp) {
        return groupId + "/" + tp.topicId() + "/" + tp.partition();
    }

    @BeforeEach
    void start() {
        startCoordinator();
    }

    private void startCoordinator() {
        coordinator = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 0, 100, 5000,
            4096, 60_000, 600_000), time, new MockTimer(time),
            GroupTopics.of(topics));
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
        offsets = coordinator.modernGroups().shareGroupOffsets(client, time);
    }

    @AfterEach
    void stop() {
        coordinator.shutdown();
    }

    private ShareGroupHeartbeatResponseData beat(String memberId, int epoch) {
        return coordinator.modernGroups().shareGroupHeartbeat(new ShareGroupHeartbeatRequestData().setGroupId("g")
            .setMemberId(memberId).setMemberEpoch(epoch).setSubscribedTopicNames(epoch == 0 ? List.of("orders") : null),
            "c", "h").join();
    }

    private DescribeShareGroupOffsetsResponseGroup describe(List<DescribeShareGroupOffsetsRequestTopic> topics) {
        return offsets.describe(new DescribeShareGroupOffsetsRequestGroup().setGroupId("g").setTopics(topics),
            topic -> !topic.equals("secret")).join();
    }

    private void initialized(int partition, long startOffset) {
        states.put(key("g", new TopicIdPartition(ORDERS, partition, "orders")), new long[] {startOffset, 0});
    }

    @Test
    void lagIsTheLatestOffsetMinusTheStartOffsetMinusTheDeliveryCompleteCount() {
        String member = Uuid.randomUuid().toString();
        assertThat(beat(member, 0).errorCode()).isZero();
        states.put(key("g", new TopicIdPartition(ORDERS, 0, "orders")), new long[] {7, 0, 2});
        states.put(key("g", new TopicIdPartition(ORDERS, 1, "orders")), new long[] {4, 0, -1}); // an older leader's write
        states.put(key("g", new TopicIdPartition(ORDERS, 2, "orders")), new long[] {0, 0, 0});
        latestOffsets.put(0, 20L);
        latestOffsets.put(1, 20L);

        DescribeShareGroupOffsetsResponseGroup all = describe(null);

        assertThat(all.topics()).singleElement().satisfies(t -> assertThat(t.partitions()).extracting(
                DescribeShareGroupOffsetsResponsePartition::partitionIndex, DescribeShareGroupOffsetsResponsePartition::startOffset,
                DescribeShareGroupOffsetsResponsePartition::lag, DescribeShareGroupOffsetsResponsePartition::errorCode)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 7L, 11L, Errors.NONE.code()),
                org.assertj.core.groups.Tuple.tuple(1, 4L, -1L, Errors.NONE.code()),
                // The latest offset could not be read: the partition carries the error, as Kafka 4.4 answers it.
                org.assertj.core.groups.Tuple.tuple(2, -1L, -1L, Errors.NOT_LEADER_OR_FOLLOWER.code())));
    }

    @Test
    void describesTheStartOffsetsOfTheGroupsInitializedPartitions() {
        String member = Uuid.randomUuid().toString();
        assertThat(beat(member, 0).errorCode()).isZero();
        initialized(0, 7);
        initialized(2, 0);

        DescribeShareGroupOffsetsResponseGroup all = describe(null);
        assertThat(all.errorCode()).isZero();
        assertThat(all.topics()).singleElement().satisfies(t -> {
            assertThat(t.topicName()).isEqualTo("orders");
            assertThat(t.topicId()).isEqualTo(ORDERS);
            // Partition 1 has no state yet: left out.
            assertThat(t.partitions()).extracting(DescribeShareGroupOffsetsResponsePartition::partitionIndex,
                    DescribeShareGroupOffsetsResponsePartition::startOffset, DescribeShareGroupOffsetsResponsePartition::leaderEpoch,
                    DescribeShareGroupOffsetsResponsePartition::lag)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 7L, 3, -1L),
                    org.assertj.core.groups.Tuple.tuple(2, 0L, 3, -1L));
        });

        DescribeShareGroupOffsetsResponseGroup named = describe(List.of(
            new DescribeShareGroupOffsetsRequestTopic().setTopicName("orders").setPartitions(List.of(1, 5)),
            new DescribeShareGroupOffsetsRequestTopic().setTopicName("missing").setPartitions(List.of(0)),
            new DescribeShareGroupOffsetsRequestTopic().setTopicName("secret").setPartitions(List.of(0))));
        assertThat(named.topics()).hasSize(3);
        assertThat(named.topics().get(0).partitions()).extracting(DescribeShareGroupOffsetsResponsePartition::startOffset,
                DescribeShareGroupOffsetsResponsePartition::errorCode)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(-1L, Errors.NONE.code()),
                org.assertj.core.groups.Tuple.tuple(-1L, Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
        assertThat(named.topics().get(1).partitions().get(0).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(named.topics().get(2).partitions().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());

        assertThat(offsets.describe(new DescribeShareGroupOffsetsRequestGroup().setGroupId("nobody"), t -> true).join()
            .errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    @Test
    void altersAndDeletesOnlyForAnEmptyGroupAndRemembersThePartitionsAcrossALoad() {
        String member = Uuid.randomUuid().toString();
        int epoch = beat(member, 0).memberEpoch();
        initialized(0, 7);
        AlterShareGroupOffsetsRequestData alter = new AlterShareGroupOffsetsRequestData().setGroupId("g");
        alter.topics().add(new AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestTopic().setTopicName("orders")
            .setPartitions(List.of(new AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestPartition()
                .setPartitionIndex(0).setStartOffset(2))));
        assertThat(offsets.alter(alter, t -> true).join().errorCode()).isEqualTo(Errors.NON_EMPTY_GROUP.code());
        DeleteShareGroupOffsetsRequestData delete = new DeleteShareGroupOffsetsRequestData().setGroupId("g")
            .setTopics(List.of(new DeleteShareGroupOffsetsRequestData.DeleteShareGroupOffsetsRequestTopic()
                .setTopicName("orders")));
        assertThat(offsets.delete(delete, t -> true).join().errorCode()).isEqualTo(Errors.NON_EMPTY_GROUP.code());
        assertThat(calls).isEmpty();

        assertThat(beat(member, ShareGroup.LEAVE_GROUP_MEMBER_EPOCH).errorCode()).isZero();
        AlterShareGroupOffsetsResponseData altered = offsets.alter(alter, t -> true).join();
        assertThat(altered.errorCode()).isZero();
        assertThat(altered.responses().iterator().next().partitions().get(0).errorCode()).isZero();
        assertThat(calls).containsExactly("initialize 0 epoch 1 at 2");

        // The group, empty now, still knows its partitions once loaded again (record type 15).
        coordinator.shutdown();
        startCoordinator();
        assertThat(describe(null).topics().get(0).partitions()).extracting(DescribeShareGroupOffsetsResponsePartition::startOffset)
            .containsExactly(2L);

        DeleteShareGroupOffsetsResponseData deleted = offsets.delete(delete, t -> true).join();
        assertThat(deleted.errorCode()).isZero();
        assertThat(deleted.responses().get(0).errorCode()).isZero();
        assertThat(calls).endsWith("delete 0", "delete 1", "delete 2");
        assertThat(states).isEmpty();
        assertThat(epoch).isPositive();
    }

    @Test
    void deletingTheGroupStateDeletesEveryPartitionItWasAssigned() {
        String member = Uuid.randomUuid().toString();
        beat(member, 0);
        initialized(1, 4);
        assertThat(offsets.deleteGroupState("g").join()).isEqualTo(Errors.NONE);
        assertThat(calls).as("a group with members keeps its state").isEmpty();
        beat(member, ShareGroup.LEAVE_GROUP_MEMBER_EPOCH);
        assertThat(offsets.deleteGroupState("g").join()).isEqualTo(Errors.NONE);
        assertThat(calls).containsExactlyInAnyOrder("delete 0", "delete 1", "delete 2");
        assertThat(coordinator.deleteGroup("g").join()).isEqualTo(Errors.NONE);
    }

    @Test
    void aDeletedTopicsShareStateIsDeletedAndForgotten() {
        String member = Uuid.randomUuid().toString();
        beat(member, 0);
        initialized(0, 5);
        offsets.onTopicsDeleted().join();
        assertThat(calls).as("the topic exists").isEmpty();

        topics.remove("orders");
        offsets.onTopicsDeleted().join();
        assertThat(calls).containsExactlyInAnyOrder("delete 0", "delete 1", "delete 2");
        assertThat(states).isEmpty();
        calls.clear();
        offsets.onTopicsDeleted().join();
        assertThat(calls).as("forgotten (record type 15)").isEmpty();
    }
}
