package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The KIP-848 protocol on a mock clock, request by request: joining and assignment, revocation
 * before a partition moves (no two owners at any time), fencing of stale epochs, leaving, session
 * and revocation timeouts, static members keeping their assignment across a restart, and commits
 * checked against member epochs.
 */
class ConsumerGroupHeartbeatsTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();

    private final MockTime time = new MockTime();
    private final Map<String, GroupTopic> topics = new HashMap<>(Map.of("orders", new GroupTopic(ORDERS, 4),
        "audit-eu", new GroupTopic(AUDIT, 2)));
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() {
        coordinator = new GroupCoordinator(new InMemoryCoordinatorLog(), new GroupCoordinator.Config(PARTITIONS, 1000,
            300_000, 0, 100, 5000, 4096, 60_000, 600_000), time, new MockTimer(time), GroupTopics.of(topics));
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
    }

    @AfterEach
    void stop() {
        coordinator.shutdown();
    }

    private ConsumerGroupHeartbeatResponseData join(String memberId, String instanceId, List<String> subscribed) {
        return coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId("g")
            .setMemberId(memberId).setMemberEpoch(0).setInstanceId(instanceId).setRebalanceTimeoutMs(10_000)
            .setSubscribedTopicNames(subscribed).setTopicPartitions(List.of()), (short) 1, "client", "127.0.0.1").join();
    }

    private ConsumerGroupHeartbeatResponseData heartbeat(String memberId, int epoch, Map<Uuid, Set<Integer>> owned) {
        ConsumerGroupHeartbeatRequestData request = new ConsumerGroupHeartbeatRequestData().setGroupId("g")
            .setMemberId(memberId).setMemberEpoch(epoch).setRebalanceTimeoutMs(-1);
        if (owned != null) {
            List<ConsumerGroupHeartbeatRequestData.TopicPartitions> list = new ArrayList<>();
            owned.forEach((t, ps) -> list.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(t)
                .setPartitions(new ArrayList<>(ps))));
            request.setTopicPartitions(list);
        } else {
            request.setTopicPartitions(null);
        }
        return coordinator.modernGroups().consumerGroupHeartbeat(request, (short) 1, "client", "127.0.0.1").join();
    }

    private static Map<Uuid, Set<Integer>> assigned(ConsumerGroupHeartbeatResponseData response) {
        Map<Uuid, Set<Integer>> out = new HashMap<>();
        response.assignment().topicPartitions().forEach(tp -> out.put(tp.topicId(), new HashSet<>(tp.partitions())));
        return out;
    }

    /** A simulated member: what it owns and its epoch, updated from each answer as kafka-clients does. */
    private final class Member {
        final String id;
        int epoch;
        Map<Uuid, Set<Integer>> owned = Map.of();

        Member(String id, String instanceId, List<String> topics) {
            this.id = id;
            ConsumerGroupHeartbeatResponseData response = join(id, instanceId, topics);
            assertThat(Errors.forCode(response.errorCode())).isEqualTo(Errors.NONE);
            apply(response);
        }

        ConsumerGroupHeartbeatResponseData beat() {
            ConsumerGroupHeartbeatResponseData response = heartbeat(id, epoch, owned);
            if (response.errorCode() == Errors.NONE.code()) {
                apply(response);
            }
            return response;
        }

        void apply(ConsumerGroupHeartbeatResponseData response) {
            epoch = response.memberEpoch();
            if (response.assignment() != null) {
                owned = assigned(response);
            }
        }

        int count() {
            return owned.values().stream().mapToInt(Set::size).sum();
        }
    }

    private static void assertNoPartitionOwnedTwice(Member... members) {
        Set<Map.Entry<Uuid, Integer>> seen = new HashSet<>();
        for (Member m : members) {
            m.owned.forEach((t, ps) -> ps.forEach(p -> assertThat(seen.add(Map.entry(t, p)))
                .as("partition %s-%d owned twice", t, p).isTrue()));
        }
    }

    @Test
    void aSecondMemberGetsHalfOnlyAfterTheFirstRevokedIt() {
        Member a = new Member("a", null, List.of("orders"));
        assertThat(a.epoch).isEqualTo(1);
        assertThat(a.count()).isEqualTo(4);

        Member b = new Member("b", null, List.of("orders"));
        assertThat(b.epoch).isEqualTo(2);
        assertThat(b.count()).as("a still owns everything").isZero();
        assertNoPartitionOwnedTwice(a, b);

        a.beat(); // told to revoke two partitions, same epoch
        assertThat(a.epoch).isEqualTo(1);
        assertThat(a.count()).isEqualTo(2);
        b.beat();
        assertThat(b.count()).as("not released until a confirms").isZero();
        assertNoPartitionOwnedTwice(a, b);

        a.beat(); // confirms: moves to epoch 2
        assertThat(a.epoch).isEqualTo(2);
        b.beat();
        assertThat(b.count()).isEqualTo(2);
        assertNoPartitionOwnedTwice(a, b);
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").groupState()).isEqualTo("Stable");
    }

    @Test
    void aStaleEpochIsFencedAndAnUnknownMemberRefused() {
        Member a = new Member("a", null, List.of("orders"));
        assertThat(Errors.forCode(heartbeat("a", a.epoch + 1, null).errorCode())).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        assertThat(Errors.forCode(heartbeat("x", 1, null).errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        new Member("b", null, List.of("orders"));
        a.beat();
        a.beat();
        assertThat(a.epoch).isEqualTo(2);
        assertThat(Errors.forCode(heartbeat("a", 1, Map.of(ORDERS, Set.of(0, 1))).errorCode()))
            .as("the previous epoch with only owned partitions is accepted (the answer may have been lost)")
            .isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(heartbeat("a", 0, null).errorCode())).isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void aMemberWithoutHeartbeatsIsRemovedAfterItsSessionAndOneThatDoesNotRevokeAfterItsRebalanceTimeout() {
        Member a = new Member("a", null, List.of("orders"));
        Member b = new Member("b", null, List.of("orders"));
        a.beat(); // told to revoke two partitions, which it never confirms
        assertThat(a.count()).isEqualTo(2);
        time.advance(9_999);
        b.beat();
        assertThat(b.count()).as("within a's rebalance timeout").isZero();
        time.advance(1);
        b.beat();
        assertThat(b.count()).isEqualTo(4);
        assertThat(Errors.forCode(a.beat().errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);

        // b heartbeats no more: after 45 s its session ends and the group is empty.
        time.advance(45_000);
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").groupState()).isEqualTo("Empty");
    }

    @Test
    void aLeavingMemberHandsItsPartitionsOnAndCommitsNeedTheCurrentEpoch() {
        Member a = new Member("a", null, List.of("orders"));
        Member b = new Member("b", null, List.of("orders"));
        a.beat();
        a.beat();
        b.beat();
        assertThat(coordinator.commitOffsets(new GroupCoordinator.OffsetCommit("g", b.epoch, "b", null, -1, (short) 9,
            Map.of(new TopicPartition("orders", 0), new GroupCoordinator.CommitRequest(5, -1, "")))).join().values())
            .containsOnly(Errors.NONE);
        assertThat(coordinator.commitOffsets(new GroupCoordinator.OffsetCommit("g", b.epoch - 1, "b", null, -1, (short) 9,
            Map.of(new TopicPartition("orders", 0), new GroupCoordinator.CommitRequest(6, -1, "")))).join().values())
            .containsOnly(Errors.STALE_MEMBER_EPOCH);
        assertThat(coordinator.commitOffsets(new GroupCoordinator.OffsetCommit("g", -1, "", null, -1, (short) 9,
            Map.of(new TopicPartition("orders", 0), new GroupCoordinator.CommitRequest(6, -1, "")))).join().values())
            .as("a simple commit to a group with members").containsOnly(Errors.UNKNOWN_MEMBER_ID);

        assertThat(coordinator.validateOffsetFetch("g", "b", b.epoch)).isEqualTo(Errors.NONE);
        assertThat(coordinator.validateOffsetFetch("g", "b", b.epoch - 1)).isEqualTo(Errors.STALE_MEMBER_EPOCH);
        assertThat(coordinator.validateOffsetFetch("g", "nobody", 1)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.validateOffsetFetch("g", null, -1)).as("an admin's fetch").isEqualTo(Errors.NONE);

        ConsumerGroupHeartbeatResponseData left = heartbeat("a", ConsumerGroup.LEAVE_GROUP_MEMBER_EPOCH, null);
        assertThat(left.memberEpoch()).isEqualTo(-1);
        b.beat();
        assertThat(b.count()).isEqualTo(4);
    }

    @Test
    void aStaticMemberThatRestartsGetsItsAssignmentBackUnderANewId() {
        Member a = new Member("a1", "instance-a", List.of("orders"));
        Member b = new Member("b", null, List.of("orders"));
        a.beat();
        a.beat();
        b.beat();
        Map<Uuid, Set<Integer>> before = a.owned;
        ConsumerGroupHeartbeatResponseData left = coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData()
            .setGroupId("g").setMemberId("a1").setInstanceId("instance-a")
            .setMemberEpoch(ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH), (short) 1, "client", "127.0.0.1").join();
        assertThat(left.memberEpoch()).isEqualTo(-2);
        b.beat();
        assertThat(b.count()).as("nothing moved while it was away").isEqualTo(2);

        Member again = new Member("a3", "instance-a", List.of("orders"));
        assertThat(again.owned).as("its assignment, kept for it").isEqualTo(before);
        assertThat(again.epoch).isEqualTo(a.epoch);
        assertThat(Errors.forCode(join("a4", "instance-a", List.of("orders")).errorCode()))
            .as("the instance id is taken").isEqualTo(Errors.UNRELEASED_INSTANCE_ID);
    }

    @Test
    void aNewTopicMatchingASubscriptionIsAssignedAtTheNextHeartbeat() {
        Member a = new Member("a", null, List.of("orders", "later"));
        assertThat(a.owned).containsOnlyKeys(ORDERS);
        Uuid later = Uuid.randomUuid();
        topics.put("later", new GroupTopic(later, 3));
        a.beat();
        assertThat(a.owned).containsKeys(ORDERS, later);
        assertThat(a.count()).isEqualTo(7);
    }

    @Test
    void aNewCoordinatorLoadsTheGroupAndItsMembersGoOnWithTheirEpochs() {
        Member a = new Member("a", null, List.of("orders"));
        Member b = new Member("b", "static-b", List.of("orders"));
        a.beat();
        a.beat();
        b.beat();
        var before = coordinator.modernGroups().describeConsumerGroup("g");
        TopicPartition partition = new TopicPartition(org.apache.kafka.common.internals.Topic.GROUP_METADATA_TOPIC_NAME,
            coordinator.partitionFor("g"));
        coordinator.onResign(partition);
        assertThat(Errors.forCode(heartbeat("a", a.epoch, null).errorCode())).isEqualTo(Errors.NOT_COORDINATOR);
        coordinator.onBecomeLeader(partition, 1);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() ->
            coordinator.modernGroups().describeConsumerGroup("g").errorCode() == Errors.NONE.code());

        var after = coordinator.modernGroups().describeConsumerGroup("g");
        assertThat(after.groupEpoch()).isEqualTo(before.groupEpoch());
        assertThat(after.assignmentEpoch()).isEqualTo(before.assignmentEpoch());
        assertThat(after.members()).hasSize(2);
        Map<Uuid, Set<Integer>> ownedBefore = a.owned;
        assertThat(Errors.forCode(a.beat().errorCode())).as("same epoch, no rejoin").isEqualTo(Errors.NONE);
        assertThat(a.owned).isEqualTo(ownedBefore);
        assertThat(Errors.forCode(b.beat().errorCode())).isEqualTo(Errors.NONE);
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").groupEpoch()).as("nothing to rebalance")
            .isEqualTo(before.groupEpoch());

        heartbeat("a", ConsumerGroup.LEAVE_GROUP_MEMBER_EPOCH, null);
        coordinator.onResign(partition);
        coordinator.onBecomeLeader(partition, 2);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() ->
            coordinator.modernGroups().describeConsumerGroup("g").errorCode() == Errors.NONE.code());
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").members()).extracting(m -> m.memberId())
            .as("the member that left stays gone").containsExactly("b");
    }

    @Test
    void aClassicGroupWithMembersIsNotAConsumerGroupWhileItsFirstGenerationIsNotChosen() {
        coordinator.joinGroup(GroupTestSupport.join("g", "", "orders", 10_000, 10_000), false, "c", "h");
        assertThat(Errors.forCode(join("a", null, List.of("orders")).errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
    }
}
