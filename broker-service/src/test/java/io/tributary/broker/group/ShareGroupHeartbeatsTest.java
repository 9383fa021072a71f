package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The share-group membership protocol (ShareGroupHeartbeat v1, KIP-932) on a mock clock: joining,
 * Kafka's {@code simple} assignment across members and partitions (several members may share a
 * partition), leaving, session expiry, fenced epochs, {@code group.share.max.size}, a group's own
 * {@code share.session.timeout.ms}, new topics and partitions, the member listener, and a share
 * group id's relation to the other group types and APIs.
 */
class ShareGroupHeartbeatsTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();

    private final MockTime time = new MockTime();
    private final Map<String, GroupTopic> topics = new HashMap<>(Map.of("orders", new GroupTopic(ORDERS, 4)));
    private final List<String> departed = new CopyOnWriteArrayList<>();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator;

    private void start(ShareGroupSettings settings, GroupConfigLookup groupConfigs) {
        start(settings, groupConfigs, ShareGroupStateClient.NONE);
    }

    private void start(ShareGroupSettings settings, GroupConfigLookup groupConfigs, ShareGroupStateClient states) {
        ConsumerGroupHeartbeats.Config consumer = ConsumerGroupHeartbeats.Config.defaults();
        coordinator = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 0, 100, 5000,
            4096, 60_000, 600_000), time, new MockTimer(time), GroupTopics.of(topics),
            new ConsumerGroupHeartbeats.Config(consumer.sessionTimeoutMs(), consumer.heartbeatIntervalMs(),
                consumer.maxSize(), consumer.assignors(), groupConfigs), settings,
            (groupId, memberId) -> departed.add(groupId + "/" + memberId), states);
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
    }

    private void start() {
        start(ShareGroupSettings.defaults(), GroupConfigLookup.NONE);
    }

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.shutdown();
        }
    }

    private ShareGroupHeartbeatResponseData send(String groupId, String memberId, int epoch, List<String> subscribed) {
        return coordinator.modernGroups().shareGroupHeartbeat(new ShareGroupHeartbeatRequestData().setGroupId(groupId)
            .setMemberId(memberId).setMemberEpoch(epoch).setSubscribedTopicNames(subscribed), "client-" + memberId,
            "127.0.0.1").join();
    }

    /** A simulated KafkaShareConsumer: its epoch and assignment, updated from each answer. */
    private final class Member {
        final String id = Uuid.randomUuid().toString();
        final String group;
        final List<String> subscribed;
        int epoch;
        Map<Uuid, Set<Integer>> assigned = Map.of();

        Member(String group, List<String> subscribed) {
            this.group = group;
            this.subscribed = subscribed;
        }

        ShareGroupHeartbeatResponseData beat() {
            ShareGroupHeartbeatResponseData r = send(group, id, epoch, epoch == 0 ? subscribed : null);
            if (r.errorCode() == Errors.NONE.code()) {
                epoch = r.memberEpoch();
                if (r.assignment() != null) {
                    Map<Uuid, Set<Integer>> next = new HashMap<>();
                    r.assignment().topicPartitions().forEach(tp -> next.put(tp.topicId(), new HashSet<>(tp.partitions())));
                    assigned = next;
                }
            }
            return r;
        }

        int count() {
            return assigned.values().stream().mapToInt(Set::size).sum();
        }
    }

    private Member joined(String group, String... topicNames) {
        Member m = new Member(group, List.of(topicNames));
        assertThat(Errors.forCode(m.beat().errorCode())).isEqualTo(Errors.NONE);
        return m;
    }

    @Test
    void aJoiningMemberGetsEveryPartitionAndEpochOne() {
        start();
        Member a = new Member("g", List.of("orders"));
        ShareGroupHeartbeatResponseData r = a.beat();

        assertThat(Errors.forCode(r.errorCode())).isEqualTo(Errors.NONE);
        assertThat(r.memberId()).isEqualTo(a.id);
        assertThat(r.memberEpoch()).isEqualTo(1);
        assertThat(r.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3)));
        assertThat(a.beat().assignment()).as("unchanged: not sent again").isNull();
        var described = coordinator.modernGroups().describeShareGroup("g");
        assertThat(described.groupState()).isEqualTo("Stable");
        assertThat(described.assignorName()).isEqualTo("simple");
        assertThat(described.groupEpoch()).isEqualTo(1);
        assertThat(described.assignmentEpoch()).isEqualTo(1);
        assertThat(described.members()).singleElement().satisfies(m -> {
            assertThat(m.clientId()).isEqualTo("client-" + a.id);
            assertThat(m.clientHost()).isEqualTo("127.0.0.1");
            assertThat(m.subscribedTopicNames()).containsExactly("orders");
            assertThat(m.assignment().topicPartitions()).singleElement()
                .satisfies(tp -> assertThat(tp.topicName()).isEqualTo("orders"));
        });
    }

    @Test
    void partitionsAreSpreadAcrossMembersWithoutARevocationPhase() {
        start();
        Member a = joined("g", "orders");
        Member b = joined("g", "orders");
        assertThat(b.epoch).isEqualTo(2);
        a.beat();
        assertThat(a.epoch).as("straight to the target's epoch").isEqualTo(2);
        assertThat(a.count() + b.count()).isEqualTo(4);
        assertThat(a.count()).isEqualTo(2);
        assertThat(b.count()).isEqualTo(2);
        Set<Integer> all = new HashSet<>(a.assigned.get(ORDERS));
        all.addAll(b.assigned.get(ORDERS));
        assertThat(all).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void moreMembersThanPartitionsShareThemAndEveryMemberGetsOne() {
        topics.put("orders", new GroupTopic(ORDERS, 2));
        start();
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            members.add(joined("g", "orders"));
        }
        members.forEach(Member::beat);
        Set<Integer> covered = new HashSet<>();
        for (Member m : members) {
            assertThat(m.count()).as("a share group gives every member work").isGreaterThanOrEqualTo(1);
            covered.addAll(m.assigned.getOrDefault(ORDERS, Set.of()));
        }
        assertThat(covered).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void aMemberThatLeavesIsGoneItsPartitionsGoToTheOthersAndTheListenerIsTold() {
        start();
        Member a = joined("g", "orders");
        Member b = joined("g", "orders");
        a.beat();

        ShareGroupHeartbeatResponseData left = send("g", b.id, ShareGroup.LEAVE_GROUP_MEMBER_EPOCH, null);
        assertThat(Errors.forCode(left.errorCode())).isEqualTo(Errors.NONE);
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(departed).containsExactly("g/" + b.id);
        a.beat();
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3)));
        assertThat(Errors.forCode(b.beat().errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);

        send("g", a.id, -1, null);
        var described = coordinator.modernGroups().describeShareGroup("g");
        assertThat(described.groupState()).isEqualTo("Empty");
        assertThat(described.members()).isEmpty();
    }

    @Test
    void aMemberWithoutHeartbeatIsRemovedAfterTheSessionTimeout() {
        start(new ShareGroupSettings(30_000, 3_000, 200), GroupConfigLookup.NONE);
        Member a = joined("g", "orders");
        Member b = joined("g", "orders");
        time.advance(20_000);
        a.beat();
        time.advance(10_000);
        assertThat(coordinator.modernGroups().describeShareGroup("g").members()).extracting(m -> m.memberId())
            .containsExactly(a.id);
        assertThat(departed).containsExactly("g/" + b.id);
        assertThat(Errors.forCode(b.beat().errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        a.beat();
        assertThat(a.count()).isEqualTo(4);
    }

    @Test
    void aGroupsOwnSessionTimeoutAndHeartbeatIntervalReplaceTheBrokers() {
        GroupConfig slow = GroupConfigDefaults.kafkaDefaults().groupConfig(Map.of(
            GroupConfig.SHARE_SESSION_TIMEOUT_MS_CONFIG, "60000", GroupConfig.SHARE_HEARTBEAT_INTERVAL_MS_CONFIG, "7000"));
        start(ShareGroupSettings.defaults(), groupId -> groupId.equals("slow") ? Optional.of(slow) : Optional.empty());
        assertThat(joined("slow", "orders").beat().heartbeatIntervalMs()).isEqualTo(7000);
        assertThat(joined("plain", "orders").beat().heartbeatIntervalMs()).isEqualTo(5000);

        time.advance(45_000);
        assertThat(coordinator.modernGroups().describeShareGroup("plain").members()).isEmpty();
        assertThat(coordinator.modernGroups().describeShareGroup("slow").members()).hasSize(1);
        time.advance(15_000);
        assertThat(coordinator.modernGroups().describeShareGroup("slow").members()).isEmpty();
    }

    @Test
    void anEpochAheadOrBehindIsFencedButThePreviousEpochIsAccepted() {
        start();
        Member a = joined("g", "orders");
        joined("g", "orders");
        ShareGroupHeartbeatResponseData ahead = send("g", a.id, 9, null);
        assertThat(Errors.forCode(ahead.errorCode())).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        assertThat(ahead.errorMessage()).contains("greater member epoch (9)");
        a.beat(); // epoch 1 -> 2
        assertThat(a.epoch).isEqualTo(2);
        assertThat(Errors.forCode(send("g", a.id, 1, null).errorCode())).as("a lost answer: previous epoch")
            .isEqualTo(Errors.NONE);
        joined("g", "orders");
        a.beat(); // 2 -> 3, previous 2
        assertThat(Errors.forCode(send("g", a.id, 1, null).errorCode())).isEqualTo(Errors.FENCED_MEMBER_EPOCH);
        ShareGroupHeartbeatResponseData rejoined = send("g", a.id, 0, List.of("orders"));
        assertThat(Errors.forCode(rejoined.errorCode())).as("a fenced member rejoins with its id").isEqualTo(Errors.NONE);
        assertThat(rejoined.memberEpoch()).isGreaterThan(3);
        assertThat(rejoined.assignment()).as("its whole assignment again").isNotNull();
        assertThat(coordinator.modernGroups().describeShareGroup("g").members()).hasSize(3);
    }

    @Test
    void theGroupMaxSizeRefusesOneMoreMember() {
        start(new ShareGroupSettings(45_000, 5_000, 2), GroupConfigLookup.NONE);
        Member a = joined("g", "orders");
        joined("g", "orders");
        ShareGroupHeartbeatResponseData third = new Member("g", List.of("orders")).beat();
        assertThat(Errors.forCode(third.errorCode())).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(third.errorMessage()).isEqualTo("The share group has reached its maximum capacity of 2 members.");
        assertThat(Errors.forCode(a.beat().errorCode())).as("members already in").isEqualTo(Errors.NONE);
    }

    @Test
    void aNewSubscribedTopicAndNewPartitionsBumpTheEpochAndAreAssigned() {
        start();
        Member a = new Member("g", List.of("orders", "audit"));
        a.beat();
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3)));
        int epoch = a.epoch;
        a.beat();
        assertThat(a.epoch).as("nothing changed").isEqualTo(epoch);

        topics.put("audit", new GroupTopic(AUDIT, 2));
        a.beat();
        assertThat(a.epoch).isGreaterThan(epoch);
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3), AUDIT, Set.of(0, 1)));

        topics.put("orders", new GroupTopic(ORDERS, 6));
        a.beat();
        assertThat(a.assigned.get(ORDERS)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    }

    @Test
    void malformedRequestsGetKafkasMessages() {
        start();
        assertThat(send("g", "", 0, List.of("orders")).errorMessage()).isEqualTo("MemberId can't be empty.");
        assertThat(send("g", "m", 0, null).errorMessage()).isEqualTo("SubscribedTopicNames must be set in first request.");
        assertThat(send("g", "m", -2, null).errorMessage()).isEqualTo("MemberEpoch is invalid.");
        ShareGroupHeartbeatResponseData noGroup = send("", "m", 0, List.of("orders"));
        assertThat(Errors.forCode(noGroup.errorCode())).isEqualTo(Errors.INVALID_REQUEST);
        assertThat(noGroup.errorMessage()).isEqualTo("GroupId can't be empty.");
        assertThat(Errors.forCode(send("unknown", "m", 3, null).errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    @Test
    void aGroupIdHasOneTypeAndShareGroupsRefuseOffsetApis() {
        start();
        coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId("consumers")
            .setMemberId("c").setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
            .setTopicPartitions(List.of()), (short) 1, "c", "h").join();
        ShareGroupHeartbeatResponseData notShare = send("consumers", "m", 0, List.of("orders"));
        assertThat(Errors.forCode(notShare.errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(notShare.errorMessage()).isEqualTo("Group consumers is not a share group.");
        coordinator.joinGroup(GroupTestSupport.join("classic", "", "orders", 10_000, 10_000), false, "c", "h");
        assertThat(Errors.forCode(send("classic", "m", 0, List.of("orders")).errorCode()))
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND);

        joined("shared", "orders");
        assertThat(Errors.forCode(coordinator.joinGroup(GroupTestSupport.join("shared", "", "orders", 10_000, 10_000),
            false, "c", "h").join().errorCode())).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(Errors.forCode(coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData()
            .setGroupId("shared").setMemberId("c").setMemberEpoch(0).setRebalanceTimeoutMs(10_000)
            .setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of()), (short) 1, "c", "h").join()
            .errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        TopicPartition tp = new TopicPartition("orders", 0);
        assertThat(coordinator.commitOffsets("shared", -1, "", null, Map.of(tp, new GroupCoordinator.CommitRequest(5, -1,
            ""))).join()).containsEntry(tp, Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.fetchOffsets("shared", List.of(tp)).error()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.deleteOffsets("shared", List.of(tp)).join().getKey()).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        var described = coordinator.describeGroup("shared", Errors.GROUP_ID_NOT_FOUND);
        assertThat(Errors.forCode(described.errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(described.errorMessage()).isEqualTo("Group shared is not a classic group.");
        assertThat(coordinator.describeGroup("shared", Errors.NONE).groupState()).isEqualTo("Dead");
        assertThat(Errors.forCode(coordinator.modernGroups().describeConsumerGroup("shared").errorCode()))
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(Errors.forCode(coordinator.modernGroups().describeShareGroup("consumers").errorCode()))
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND);
    }

    @Test
    void listGroupsShowsShareGroupsByTypeAndOnlyAnEmptyOneCanBeDeleted() {
        start();
        Member a = joined("shared", "orders");
        coordinator.joinGroup(GroupTestSupport.join("classic", "", "orders", 10_000, 10_000), false, "c", "h");

        assertThat(coordinator.listGroups(List.of(), List.of("share")).getValue())
            .containsExactly(new GroupCoordinator.ListedGroup("shared", "share", "Stable", "share"));
        assertThat(coordinator.listGroups(List.of(), List.of("classic")).getValue())
            .extracting(GroupCoordinator.ListedGroup::groupId).doesNotContain("shared");
        assertThat(coordinator.listGroups(List.of("empty"), List.of()).getValue())
            .extracting(GroupCoordinator.ListedGroup::groupId).doesNotContain("shared");
        assertThat(coordinator.deleteGroup("shared").join()).isEqualTo(Errors.NON_EMPTY_GROUP);

        send("shared", a.id, -1, null);
        assertThat(coordinator.listGroups(List.of("Empty"), List.of("share")).getValue())
            .extracting(GroupCoordinator.ListedGroup::groupId).containsExactly("shared");
        assertThat(coordinator.deleteGroup("shared").join()).isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(coordinator.modernGroups().describeShareGroup("shared").errorCode()))
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(coordinator.listGroups(List.of(), List.of("share")).getValue()).isEmpty();
    }

    /** A share coordinator that records InitializeShareGroupState calls and answers them with {@code answer}. */
    private static final class RecordingStates implements ShareGroupStateClient {
        final List<String> initialized = new CopyOnWriteArrayList<>();
        volatile Errors answer = Errors.NONE;

        @Override
        public java.util.concurrent.CompletableFuture<Summary> readSummary(String groupId,
                                                                          org.apache.kafka.common.TopicIdPartition p) {
            return java.util.concurrent.CompletableFuture.completedFuture(new Summary(Errors.NONE, 0, -1, -1));
        }

        @Override
        public java.util.concurrent.CompletableFuture<Errors> initialize(String groupId,
                org.apache.kafka.common.TopicIdPartition p, int stateEpoch, long startOffset) {
            initialized.add(groupId + "/" + p.partition() + "@" + stateEpoch + ":" + startOffset);
            return java.util.concurrent.CompletableFuture.completedFuture(answer);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Errors> delete(String groupId,
                                                                    org.apache.kafka.common.TopicIdPartition p) {
            return java.util.concurrent.CompletableFuture.completedFuture(Errors.NONE);
        }
    }

    @Test
    void subscribedPartitionsAreAssignedOnlyOnceTheCoordinatorInitializedTheirState() {
        RecordingStates states = new RecordingStates();
        start(ShareGroupSettings.defaults(), GroupConfigLookup.NONE, states);
        Member a = new Member("g", List.of("orders"));

        a.beat();
        assertThat(a.assigned).as("nothing initialized yet").isEmpty();
        assertThat(states.initialized).as("in the group epoch, from share.auto.offset.reset (-1)")
            .containsExactlyInAnyOrder("g/0@1:-1", "g/1@1:-1", "g/2@1:-1", "g/3@1:-1");

        a.beat();
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3)));
        assertThat(states.initialized).as("initialized once").hasSize(4);

        topics.put("orders", new GroupTopic(ORDERS, 5));
        a.beat();
        assertThat(states.initialized).as("a new partition of a known topic starts at 0").contains("g/4@2:0");
        a.beat();
        assertThat(a.assigned.get(ORDERS)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    }

    @Test
    void aFailedInitializationIsTriedAgainAndNothingIsAssignedMeanwhile() {
        RecordingStates states = new RecordingStates();
        states.answer = Errors.COORDINATOR_NOT_AVAILABLE;
        start(ShareGroupSettings.defaults(), GroupConfigLookup.NONE, states);
        Member a = new Member("g", List.of("orders"));

        a.beat();
        a.beat();
        assertThat(a.assigned).isEmpty();
        assertThat(states.initialized).as("tried again by the next heartbeat").hasSize(8);

        states.answer = Errors.NONE;
        a.beat();
        a.beat();
        assertThat(a.assigned).isEqualTo(Map.of(ORDERS, Set.of(0, 1, 2, 3)));
    }
}
