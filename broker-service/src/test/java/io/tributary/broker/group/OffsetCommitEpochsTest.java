package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * OffsetCommit member epochs with KIP-1251 assignment epochs, on a mock clock: a commit sent with the
 * member's previous epoch is accepted for partitions the member already had at that epoch (kept, or
 * pending revocation); a partition assigned at a later epoch, one the member does not own, or a newer
 * epoch refuses the whole commit with STALE_MEMBER_EPOCH and nothing is written; the epochs survive a
 * coordinator reload through {@code ConsumerGroupCurrentMemberAssignmentValue}.
 */
class OffsetCommitEpochsTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();

    private final MockTime time = new MockTime();
    private final Map<String, GroupTopic> topics = new HashMap<>(Map.of("orders", new GroupTopic(ORDERS, 4)));
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

    /** A consumer-protocol member as kafka-clients runs one: it reports what it owns and takes what it is given. */
    private final class Member {
        final String id;
        int epoch;
        Map<Uuid, Set<Integer>> owned = Map.of();

        Member(String id, List<String> subscribed) {
            this.id = id;
            apply(send(new ConsumerGroupHeartbeatRequestData().setMemberEpoch(0).setRebalanceTimeoutMs(10_000)
                .setSubscribedTopicNames(subscribed).setTopicPartitions(List.of())));
        }

        ConsumerGroupHeartbeatResponseData beat() {
            List<ConsumerGroupHeartbeatRequestData.TopicPartitions> list = new ArrayList<>();
            owned.forEach((t, ps) -> list.add(new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(t)
                .setPartitions(new ArrayList<>(ps))));
            return apply(send(new ConsumerGroupHeartbeatRequestData().setMemberEpoch(epoch).setRebalanceTimeoutMs(-1)
                .setTopicPartitions(list)));
        }

        private ConsumerGroupHeartbeatResponseData send(ConsumerGroupHeartbeatRequestData request) {
            return coordinator.modernGroups().consumerGroupHeartbeat(request.setGroupId("g").setMemberId(id),
                (short) 1, "client", "127.0.0.1").join();
        }

        private ConsumerGroupHeartbeatResponseData apply(ConsumerGroupHeartbeatResponseData response) {
            assertThat(Errors.forCode(response.errorCode())).isEqualTo(Errors.NONE);
            epoch = response.memberEpoch();
            if (response.assignment() != null) {
                Map<Uuid, Set<Integer>> next = new HashMap<>();
                response.assignment().topicPartitions().forEach(tp -> next.put(tp.topicId(),
                    new HashSet<>(tp.partitions())));
                owned = next;
            }
            return response;
        }

        Set<Integer> owned(Uuid topic) {
            return owned.getOrDefault(topic, Set.of());
        }

        /** An OffsetCommit v9 of {@code offset} for each partition, sent with {@code sentEpoch}. */
        Map<TopicPartition, Errors> commit(int sentEpoch, long offset, TopicPartition... partitions) {
            Map<TopicPartition, GroupCoordinator.CommitRequest> commits = new LinkedHashMap<>();
            for (TopicPartition tp : partitions) {
                commits.put(tp, new GroupCoordinator.CommitRequest(offset, -1, ""));
            }
            return coordinator.commitOffsets(new GroupCoordinator.OffsetCommit("g", sentEpoch, id, null, -1, (short) 9,
                commits)).join();
        }
    }

    private static TopicPartition orders(int partition) {
        return new TopicPartition("orders", partition);
    }

    private OffsetAndMetadata committed(TopicPartition tp) {
        return coordinator.fetchOffsets("g", List.of(tp)).offsets().get(tp);
    }

    /** a alone at epoch 1 with the four partitions of orders; b joins (epoch 2); a revokes two, then moves to 2. */
    private List<Member> aKeepsTwoPartitionsFromEpochOneAtEpochTwo() {
        Member a = new Member("a", List.of("orders"));
        assertThat(a.epoch).isEqualTo(1);
        assertThat(a.owned(ORDERS)).hasSize(4);
        Member b = new Member("b", List.of("orders"));
        a.beat(); // told to revoke two
        assertThat(a.epoch).isEqualTo(1);
        a.beat(); // revoked: moves to epoch 2, keeping the other two
        assertThat(a.epoch).isEqualTo(2);
        assertThat(a.owned(ORDERS)).hasSize(2);
        b.beat();
        assertThat(b.owned(ORDERS)).hasSize(2);
        return List.of(a, b);
    }

    @Test
    void aCommitWithThePreviousEpochIsAcceptedForPartitionsTheMemberHadAtThatEpoch() {
        Member a = aKeepsTwoPartitionsFromEpochOneAtEpochTwo().get(0);
        TopicPartition[] kept = a.owned(ORDERS).stream().map(OffsetCommitEpochsTest::orders)
            .toArray(TopicPartition[]::new);

        assertThat(a.commit(1, 10, kept).values()).as("epoch 1, partitions assigned at 1").containsOnly(Errors.NONE);
        assertThat(committed(kept[0]).offset()).isEqualTo(10);
        assertThat(a.commit(2, 11, kept).values()).as("the current epoch").containsOnly(Errors.NONE);
        assertThat(a.commit(3, 12, kept).values()).as("a newer epoch").containsOnly(Errors.STALE_MEMBER_EPOCH);
        assertThat(a.commit(0, 12, kept).values()).as("older than the assignment").containsOnly(Errors.STALE_MEMBER_EPOCH);
        assertThat(committed(kept[0]).offset()).isEqualTo(11);
    }

    @Test
    void aPartitionTheMemberNoLongerOwnsRefusesTheWholeCommit() {
        List<Member> ab = aKeepsTwoPartitionsFromEpochOneAtEpochTwo();
        Member a = ab.get(0);
        TopicPartition kept = orders(a.owned(ORDERS).iterator().next());
        TopicPartition moved = orders(ab.get(1).owned(ORDERS).iterator().next());

        assertThat(a.commit(1, 20, moved)).containsEntry(moved, Errors.STALE_MEMBER_EPOCH);
        assertThat(a.commit(1, 20, kept, moved)).as("as Kafka: one refused partition refuses the commit")
            .containsEntry(kept, Errors.STALE_MEMBER_EPOCH).containsEntry(moved, Errors.STALE_MEMBER_EPOCH);
        assertThat(committed(kept)).as("nothing written").isNull();
        assertThat(committed(moved)).isNull();
        assertThat(coordinator.validateOffsetFetch("g", "a", 1)).as("OffsetFetch still needs the current epoch")
            .isEqualTo(Errors.STALE_MEMBER_EPOCH);
    }

    @Test
    void aPartitionAssignedAtTheCurrentEpochIsRefusedWithThePreviousOne() {
        Member a = new Member("a", List.of("orders", "later"));
        assertThat(a.epoch).isEqualTo(1);
        Uuid later = Uuid.randomUuid();
        topics.put("later", new GroupTopic(later, 2));
        a.beat(); // the new topic's partitions come at epoch 2; orders' stay from epoch 1
        assertThat(a.epoch).isEqualTo(2);
        assertThat(a.owned(later)).hasSize(2);
        TopicPartition fromEpochOne = orders(0);
        TopicPartition fromEpochTwo = new TopicPartition("later", 0);

        assertThat(a.commit(1, 30, fromEpochOne)).containsEntry(fromEpochOne, Errors.NONE);
        assertThat(a.commit(1, 31, fromEpochTwo)).containsEntry(fromEpochTwo, Errors.STALE_MEMBER_EPOCH);
        assertThat(a.commit(1, 31, fromEpochOne, fromEpochTwo).values()).containsOnly(Errors.STALE_MEMBER_EPOCH);
        assertThat(committed(fromEpochOne).offset()).isEqualTo(30);
        assertThat(a.commit(2, 32, fromEpochOne, fromEpochTwo).values()).containsOnly(Errors.NONE);
    }

    @Test
    void aPartitionPendingRevocationMayStillBeCommittedWithTheEpochItWasAssignedAt() {
        List<Member> ab = aKeepsTwoPartitionsFromEpochOneAtEpochTwo();
        new Member("c", List.of("orders")); // epoch 3: one of a and b must give up one of its two
        Member revoker = null;
        Set<Integer> before = null;
        for (Member m : ab) {
            Set<Integer> owned = m.owned(ORDERS);
            m.beat();
            if (m.epoch == 2) {
                revoker = m;
                before = owned;
            }
        }
        assertThat(revoker).as("a member revoking at epoch 2").isNotNull();
        Member r = revoker;
        assertThat(r.owned(ORDERS)).hasSize(1);
        TopicPartition revoking = orders(before.stream().filter(p -> !r.owned(ORDERS).contains(p)).findFirst()
            .orElseThrow());
        int assignedAt = r.id.equals("a") ? 1 : 2;

        assertThat(r.commit(assignedAt, 40, revoking)).as("pending revocation, assigned at that epoch")
            .containsEntry(revoking, Errors.NONE);
        assertThat(r.commit(assignedAt - 1, 40, revoking)).as("older than its assignment")
            .containsEntry(revoking, Errors.STALE_MEMBER_EPOCH);
        r.beat(); // revoked: epoch 3
        assertThat(r.epoch).isEqualTo(3);
        assertThat(r.commit(2, 41, revoking)).as("revoked: no longer the member's")
            .containsEntry(revoking, Errors.STALE_MEMBER_EPOCH);
        assertThat(r.commit(2, 41, orders(r.owned(ORDERS).iterator().next())).values()).as("kept")
            .containsOnly(Errors.NONE);
        assertThat(committed(revoking).offset()).isEqualTo(40);
    }

    @Test
    void aReloadedCoordinatorKeepsTheAssignmentEpochs() {
        Member a = new Member("a", List.of("orders", "later"));
        topics.put("later", new GroupTopic(Uuid.randomUuid(), 2));
        a.beat();
        assertThat(a.epoch).isEqualTo(2);
        TopicPartition partition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, coordinator.partitionFor("g"));
        coordinator.onResign(partition);
        coordinator.onBecomeLeader(partition, 1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
            coordinator.modernGroups().describeConsumerGroup("g").errorCode() == Errors.NONE.code());

        assertThat(a.commit(1, 50, orders(0))).as("assigned at epoch 1, read back from the log")
            .containsEntry(orders(0), Errors.NONE);
        assertThat(a.commit(1, 51, new TopicPartition("later", 1)).values()).as("assigned at epoch 2")
            .containsOnly(Errors.STALE_MEMBER_EPOCH);
    }

    @Test
    void aStaticMemberThatLeftForAWhileHandsItsReplacementPartitionsAssignedAtEpochZero() {
        ConsumerGroupHeartbeatResponseData joined = coordinator.modernGroups().consumerGroupHeartbeat(
            new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId("a1").setInstanceId("instance-a")
                .setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
                .setTopicPartitions(List.of()), (short) 1, "client", "127.0.0.1").join();
        assertThat(joined.memberEpoch()).isEqualTo(1);
        assertThat(coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData()
            .setGroupId("g").setMemberId("a1").setInstanceId("instance-a")
            .setMemberEpoch(ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH), (short) 1, "client", "127.0.0.1").join()
            .memberEpoch()).isEqualTo(-2);
        ConsumerGroupHeartbeatResponseData replaced = coordinator.modernGroups().consumerGroupHeartbeat(
            new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId("a2").setInstanceId("instance-a")
                .setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
                .setTopicPartitions(List.of()), (short) 1, "client", "127.0.0.1").join();
        assertThat(replaced.memberEpoch()).isEqualTo(1);

        // As Kafka (resetAssignedPartitionsEpochsToZero): the kept partitions count as assigned at epoch 0.
        assertThat(coordinator.commitOffsets(new GroupCoordinator.OffsetCommit("g", 0, "a2", null, -1, (short) 9,
            Map.of(orders(0), new GroupCoordinator.CommitRequest(60, -1, "")))).join())
            .containsEntry(orders(0), Errors.NONE);
    }

    @Test
    void theEpochsAreStoredAsKafkaStoresThemAndARecordWithoutThemTakesTheMemberEpoch() {
        Map<Uuid, Set<Integer>> partitions = Map.of(ORDERS, Set.of(0, 1, 3));
        Map<Uuid, Map<Integer, Integer>> epochs = Map.of(ORDERS, Map.of(0, 4, 1, 7, 3, 4));
        List<ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions> stored = AssignmentEpochs.toRecord(partitions,
            epochs);
        assertThat(stored).hasSize(1);
        assertThat(stored.get(0).assignmentEpochs()).hasSameSizeAs(stored.get(0).partitions());
        assertThat(AssignmentEpochs.fromRecord(stored)).isEqualTo(epochs);

        stored.get(0).setAssignmentEpochs(List.of());
        ConsumerGroupMember old = new ConsumerGroupMember("m", null, null, "", "", List.of("orders"), null, null,
            45_000, 9, 8, ConsumerGroupMember.State.STABLE, partitions, Map.of(), AssignmentEpochs.fromRecord(stored));
        assertThat(old.assignmentEpoch(ORDERS, 1)).as("Kafka's default: the member epoch").isEqualTo(9);
        assertThat(old.assignmentEpoch(ORDERS, 2)).isNull();
        assertThat(old.pendingRevocationEpoch(ORDERS, 1)).isNull();
    }
}
