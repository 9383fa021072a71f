package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.ShareGroupDescribeResponseData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.coordinator.group.generated.ShareGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Share groups in {@code __consumer_offsets}: records in Kafka 4.4's layouts (read back with
 * Kafka's generated classes), and a coordinator started again over the same log (a restart or a
 * leader move) that knows the group, its epochs, members and assignments; tombstones keep a departed
 * member and a deleted group gone; NOT_COORDINATOR and COORDINATOR_LOAD_IN_PROGRESS while the
 * group's partition is not loaded here.
 */
class ShareGroupRecordsTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator;

    private GroupCoordinator startCoordinator() {
        GroupCoordinator c = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 0, 100,
            5000, 4096, 60_000, 600_000), time, new MockTimer(time),
            GroupTopics.of(Map.of("orders", new GroupTopic(ORDERS, 4))), ConsumerGroupHeartbeats.Config.defaults(),
            ShareGroupSettings.defaults(), ShareGroupMemberListener.NONE, ShareGroupStateClient.NONE);
        GroupTestSupport.loadAll(c, PARTITIONS);
        return c;
    }

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.shutdown();
        }
    }

    private ShareGroupHeartbeatResponseData send(String memberId, int epoch, List<String> topics) {
        return coordinator.modernGroups().shareGroupHeartbeat(new ShareGroupHeartbeatRequestData().setGroupId("g")
            .setMemberId(memberId).setMemberEpoch(epoch).setSubscribedTopicNames(topics).setRackId("rack-1"),
            "client", "10.0.0.1").join();
    }

    private List<SimpleRecord> records() {
        return log.records(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, coordinator.partitionFor("g")));
    }

    private static short type(SimpleRecord record) {
        return record.key().duplicate().getShort();
    }

    private void restart() {
        coordinator.shutdown();
        coordinator = startCoordinator();
        await().atMost(Duration.ofSeconds(10)).until(() ->
            coordinator.modernGroups().describeShareGroup("g").errorCode() != Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
    }

    @Test
    void recordsUseKafkasRecordTypesAndLayouts() {
        coordinator = startCoordinator();
        send("a", 0, List.of("orders"));

        List<SimpleRecord> written = records();
        assertThat(written).extracting(ShareGroupRecordsTest::type).containsExactly(
            CoordinatorRecordType.SHARE_GROUP_MEMBER_METADATA.id(), CoordinatorRecordType.SHARE_GROUP_METADATA.id(),
            CoordinatorRecordType.SHARE_GROUP_TARGET_ASSIGNMENT_MEMBER.id(),
            CoordinatorRecordType.SHARE_GROUP_TARGET_ASSIGNMENT_METADATA.id(),
            CoordinatorRecordType.SHARE_GROUP_STATE_PARTITION_METADATA.id(),
            CoordinatorRecordType.SHARE_GROUP_CURRENT_MEMBER_ASSIGNMENT.id());
        ByteBuffer member = written.get(0).value().duplicate();
        ShareGroupMemberMetadataValue subscription = new ShareGroupMemberMetadataValue(new ByteBufferAccessor(member),
            member.getShort());
        assertThat(subscription.subscribedTopicNames()).containsExactly("orders");
        assertThat(subscription.rackId()).isEqualTo("rack-1");
        assertThat(subscription.clientHost()).isEqualTo("10.0.0.1");
        ByteBuffer group = written.get(1).value().duplicate();
        assertThat(new ShareGroupMetadataValue(new ByteBufferAccessor(group), group.getShort()).epoch()).isEqualTo(1);
        // The partitions newly assigned, as initialized topics of record type 15.
        ByteBuffer state = written.get(4).value().duplicate();
        org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue partitions =
            new org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue(
                new ByteBufferAccessor(state), state.getShort());
        assertThat(partitions.initializedTopics()).singleElement().satisfies(t -> {
            assertThat(t.topicName()).isEqualTo("orders");
            assertThat(t.partitions()).isNotEmpty();
        });
        assertThat(partitions.initializingTopics()).isEmpty();
        assertThat(partitions.deletingTopics()).isEmpty();
    }

    @Test
    void aRestartedCoordinatorKnowsTheGroupItsMembersAndAssignments() {
        coordinator = startCoordinator();
        send("a", 0, List.of("orders"));
        send("b", 0, List.of("orders"));
        ShareGroupHeartbeatResponseData a = send("a", 1, null);
        ShareGroupDescribeResponseData.DescribedGroup before = coordinator.modernGroups().describeShareGroup("g");

        restart();

        ShareGroupDescribeResponseData.DescribedGroup after = coordinator.modernGroups().describeShareGroup("g");
        assertThat(Errors.forCode(after.errorCode())).isEqualTo(Errors.NONE);
        assertThat(after.groupEpoch()).isEqualTo(before.groupEpoch());
        assertThat(after.assignmentEpoch()).isEqualTo(before.assignmentEpoch());
        assertThat(after.members()).isEqualTo(before.members());
        ShareGroupHeartbeatResponseData again = send("a", a.memberEpoch(), null);
        assertThat(Errors.forCode(again.errorCode())).as("same epoch, no rejoin").isEqualTo(Errors.NONE);
        assertThat(again.memberEpoch()).isEqualTo(a.memberEpoch());
        assertThat(coordinator.modernGroups().describeShareGroup("g").groupEpoch()).as("nothing to reassign")
            .isEqualTo(before.groupEpoch());
    }

    @Test
    void aDepartedMemberAndADeletedGroupStayGoneAfterARestart() {
        coordinator = startCoordinator();
        send("a", 0, List.of("orders"));
        send("b", 0, List.of("orders"));
        send("b", -1, null);
        restart();
        assertThat(coordinator.modernGroups().describeShareGroup("g").members())
            .extracting(ShareGroupDescribeResponseData.Member::memberId).containsExactly("a");
        assertThat(coordinator.modernGroups().describeShareGroup("g").members().get(0).assignment().topicPartitions())
            .singleElement().satisfies(tp -> assertThat(Set.copyOf(tp.partitions())).hasSize(4));

        send("a", -1, null);
        assertThat(coordinator.deleteGroup("g").join()).isEqualTo(Errors.NONE);
        restart();
        assertThat(Errors.forCode(coordinator.modernGroups().describeShareGroup("g").errorCode()))
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.listGroups(List.of(), List.of()).getValue()).isEmpty();
    }

    @Test
    void aGroupIsServedOnlyWhereItsPartitionIsLoaded() {
        coordinator = startCoordinator();
        send("a", 0, List.of("orders"));
        TopicPartition partition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, coordinator.partitionFor("g"));

        coordinator.onResign(partition);
        assertThat(Errors.forCode(send("a", 1, null).errorCode())).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(Errors.forCode(coordinator.modernGroups().describeShareGroup("g").errorCode()))
            .isEqualTo(Errors.NOT_COORDINATOR);

        log.holdReads();
        coordinator.onBecomeLeader(partition, 1);
        assertThat(Errors.forCode(send("a", 1, null).errorCode())).isEqualTo(Errors.COORDINATOR_LOAD_IN_PROGRESS);
        log.openReads();
        await().atMost(Duration.ofSeconds(10)).until(() ->
            coordinator.modernGroups().describeShareGroup("g").errorCode() == Errors.NONE.code());
        assertThat(Errors.forCode(send("a", 1, null).errorCode())).as("same member, same epoch")
            .isEqualTo(Errors.NONE);
    }
}
