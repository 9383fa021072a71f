package io.tributary.broker.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import io.tributary.broker.testing.MockTime;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Online migration between the classic and the consumer protocol (KIP-848) on a mock clock, as
 * Kafka 4 does it: a classic group upgraded by a consumer-protocol member keeps its members'
 * assignments and its offsets; classic members of a consumer group are assigned by the server
 * through JoinGroup/SyncGroup and revoke before they get new partitions; the group goes back to
 * classic when its last consumer-protocol member leaves; {@code group.consumer.migration.policy}
 * refuses what it disallows; and a reloaded coordinator carries on with the migrated group.
 */
class GroupMigrationTest {

    private static final int PARTITIONS = 2;
    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private final Map<String, GroupTopic> topics = Map.of("orders", new GroupTopic(ORDERS, 4));
    private GroupCoordinator coordinator;

    @AfterEach
    void stop() {
        coordinator.shutdown();
    }

    private void start(ConsumerGroupMigrationPolicy policy) {
        coordinator = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, 1000, 300_000, 0, 100, 5000, 4096,
            60_000, 600_000), time, new MockTimer(time), GroupTopics.of(topics),
            ConsumerGroupHeartbeats.Config.defaults().withMigrationPolicy(policy));
        GroupTestSupport.loadAll(coordinator, PARTITIONS);
    }

    /** A classic consumer as kafka-clients runs one: it rejoins when told, reports what it owns, takes what SyncGroup gives. */
    private final class ClassicMember {
        String id = "";
        int generation = -1;
        int sessionTimeoutMs = 20_000;
        int rebalanceTimeoutMs = 30_000;
        Set<Integer> owned = Set.of();

        JoinGroupResponseData join() {
            JoinGroupResponseData response = coordinator.joinGroup(joinRequest(id, owned)
                .setSessionTimeoutMs(sessionTimeoutMs).setRebalanceTimeoutMs(rebalanceTimeoutMs), false, "classic", "h").join();
            if (response.errorCode() == Errors.NONE.code()) {
                id = response.memberId();
                generation = response.generationId();
            }
            return response;
        }

        SyncGroupResponseData sync(Map<String, Set<Integer>> assignments) {
            List<SyncGroupRequestData.SyncGroupRequestAssignment> list = new ArrayList<>();
            assignments.forEach((member, ps) -> list.add(new SyncGroupRequestData.SyncGroupRequestAssignment()
                .setMemberId(member).setAssignment(encode(ps))));
            SyncGroupResponseData response = coordinator.syncGroup(new SyncGroupRequestData().setGroupId("g")
                .setMemberId(id).setGenerationId(generation).setProtocolType("consumer").setProtocolName("range")
                .setAssignments(list)).join();
            if (response.errorCode() == Errors.NONE.code()) {
                owned = new HashSet<>();
                ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(response.assignment())).partitions()
                    .forEach(tp -> owned.add(tp.partition()));
            }
            return response;
        }

        Errors heartbeat() {
            return coordinator.heartbeat("g", id, null, generation);
        }

        /** One step of a member of a consumer group: heartbeat, and rejoin and sync when told to. */
        void step() {
            if (heartbeat() == Errors.REBALANCE_IN_PROGRESS) {
                assertThat(Errors.forCode(join().errorCode())).isEqualTo(Errors.NONE);
                Set<Integer> before = owned;
                assertThat(Errors.forCode(sync(Map.of()).errorCode())).isEqualTo(Errors.NONE);
                if (!owned.containsAll(before)) {
                    assertThat(before).as("a rejoin that revokes gives nothing new").containsAll(owned);
                }
            }
        }
    }

    /** A consumer-protocol member as kafka-clients runs one. */
    private final class ConsumerMember {
        final String id;
        int epoch;
        Set<Integer> owned = Set.of();

        ConsumerMember(String id) {
            this.id = id;
            ConsumerGroupHeartbeatResponseData response = heartbeat(0);
            assertThat(Errors.forCode(response.errorCode())).isEqualTo(Errors.NONE);
        }

        ConsumerGroupHeartbeatResponseData heartbeat(int sentEpoch) {
            List<ConsumerGroupHeartbeatRequestData.TopicPartitions> ownedList = owned.isEmpty() ? List.of()
                : List.of(new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(ORDERS)
                    .setPartitions(new ArrayList<>(owned)));
            ConsumerGroupHeartbeatResponseData response = coordinator.modernGroups().consumerGroupHeartbeat(
                new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId(id).setMemberEpoch(sentEpoch)
                    .setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(sentEpoch == 0 ? List.of("orders") : null)
                    .setTopicPartitions(ownedList), (short) 1, "consumer", "h").join();
            if (response.errorCode() == Errors.NONE.code() && sentEpoch >= 0) {
                epoch = response.memberEpoch();
                if (response.assignment() != null) {
                    owned = new HashSet<>();
                    response.assignment().topicPartitions().forEach(tp -> owned.addAll(tp.partitions()));
                }
            }
            return response;
        }

        void step() {
            assertThat(Errors.forCode(heartbeat(epoch).errorCode())).isEqualTo(Errors.NONE);
        }

        void leave() {
            assertThat(Errors.forCode(heartbeat(ConsumerGroup.LEAVE_GROUP_MEMBER_EPOCH).errorCode()))
                .isEqualTo(Errors.NONE);
        }
    }

    private static JoinGroupRequestData joinRequest(String memberId, Set<Integer> owned) {
        List<TopicPartition> ownedPartitions = owned.stream().map(p -> new TopicPartition("orders", p)).toList();
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(
            List.of("orders"), null, ownedPartitions));
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
            .setMetadata(Utils.toArray(subscription)));
        return new JoinGroupRequestData().setGroupId("g").setMemberId(memberId).setSessionTimeoutMs(20_000)
            .setRebalanceTimeoutMs(30_000).setProtocolType("consumer").setProtocols(protocols);
    }

    private static byte[] encode(Set<Integer> partitions) {
        return Utils.toArray(ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(
            partitions.stream().map(p -> new TopicPartition("orders", p)).toList())));
    }

    /** Two classic members in a stable classic group: a has orders-0 and -1, b orders-2 and -3; a commits orders-0 at 42. */
    private List<ClassicMember> stableClassicGroup() {
        ClassicMember a = new ClassicMember();
        ClassicMember b = new ClassicMember();
        var joinA = coordinator.joinGroup(joinRequest("", Set.of()), false, "classic", "h");
        var joinB = coordinator.joinGroup(joinRequest("", Set.of()), false, "classic", "h");
        time.advance(0);
        JoinGroupResponseData ra = joinA.join();
        JoinGroupResponseData rb = joinB.join();
        a.id = ra.memberId();
        a.generation = ra.generationId();
        b.id = rb.memberId();
        b.generation = rb.generationId();
        ClassicMember leader = ra.leader().equals(a.id) ? a : b;
        ClassicMember follower = leader == a ? b : a;
        var followerSync = coordinator.syncGroup(new SyncGroupRequestData().setGroupId("g").setMemberId(follower.id)
            .setGenerationId(follower.generation).setAssignments(List.of()));
        assertThat(Errors.forCode(leader.sync(Map.of(a.id, Set.of(0, 1), b.id, Set.of(2, 3))).errorCode()))
            .isEqualTo(Errors.NONE);
        SyncGroupResponseData fs = followerSync.join();
        follower.owned = new HashSet<>();
        ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(fs.assignment())).partitions()
            .forEach(tp -> follower.owned.add(tp.partition()));
        assertThat(a.owned).isEqualTo(Set.of(0, 1));
        assertThat(coordinator.commitOffsets("g", a.generation, a.id, null,
            Map.of(ORDERS_0, new GroupCoordinator.CommitRequest(42, -1, ""))).join()).containsEntry(ORDERS_0, Errors.NONE);
        return List.of(a, b);
    }

    private void assertNoPartitionOwnedTwice(List<ClassicMember> classic, List<ConsumerMember> consumers) {
        List<Integer> all = new ArrayList<>();
        classic.forEach(m -> all.addAll(m.owned));
        consumers.forEach(m -> all.addAll(m.owned));
        assertThat(all).as("no partition has two owners").doesNotHaveDuplicates();
    }

    /** Steps every member until they own all four partitions between them and the group is stable. */
    private void converge(List<ClassicMember> classic, List<ConsumerMember> consumers) {
        for (int round = 0; round < 20; round++) {
            classic.forEach(ClassicMember::step);
            assertNoPartitionOwnedTwice(classic, consumers);
            consumers.forEach(ConsumerMember::step);
            assertNoPartitionOwnedTwice(classic, consumers);
            if ("Stable".equals(coordinator.modernGroups().describeConsumerGroup("g").groupState())) {
                break;
            }
        }
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").groupState()).isEqualTo("Stable");
        Set<Integer> owned = new HashSet<>();
        classic.forEach(m -> owned.addAll(m.owned));
        consumers.forEach(m -> owned.addAll(m.owned));
        assertThat(owned).isEqualTo(Set.of(0, 1, 2, 3));
    }

    private long committed(TopicPartition tp) {
        return coordinator.fetchOffsets("g", List.of(tp)).offsets().get(tp).offset();
    }

    @Test
    void aConsumerMemberUpgradesAStableClassicGroupWhichKeepsItsAssignmentsAndOffsets() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<ClassicMember> classic = stableClassicGroup();
        int generation = classic.get(0).generation;

        ConsumerMember c = new ConsumerMember("c");

        var described = coordinator.modernGroups().describeConsumerGroup("g");
        assertThat(Errors.forCode(described.errorCode())).isEqualTo(Errors.NONE);
        assertThat(described.members()).hasSize(3);
        assertThat(described.members()).extracting(m -> m.memberId() + ":" + m.memberType())
            .as("KIP-1099 member types: 0 classic, 1 consumer")
            .containsExactlyInAnyOrder(classic.get(0).id + ":0", classic.get(1).id + ":0", "c:1");
        assertThat(described.groupEpoch()).as("the classic generation, bumped by the joining member")
            .isEqualTo(generation + 1);
        assertThat(c.owned).as("every partition is still owned by a classic member").isEmpty();
        assertThat(committed(ORDERS_0)).isEqualTo(42);
        assertThat(coordinator.heartbeat("g", classic.get(0).id, null, generation))
            .as("a classic member learns it must rejoin").isEqualTo(Errors.REBALANCE_IN_PROGRESS);

        converge(classic, List.of(c));
        assertThat(c.owned).isNotEmpty();
        assertThat(committed(ORDERS_0)).isEqualTo(42);
        assertThat(coordinator.listGroups(List.of(), List.of()).getValue())
            .extracting(GroupCoordinator.ListedGroup::type).containsExactly("consumer");
    }

    @Test
    void aClassicMemberJoiningAConsumerGroupIsAssignedByTheServerAfterOthersRevoke() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        ConsumerMember c = new ConsumerMember("c");
        c.step();
        assertThat(c.owned).isEqualTo(Set.of(0, 1, 2, 3));

        JoinGroupResponseData required = coordinator.joinGroup(joinRequest("", Set.of()), true, "classic", "h").join();
        assertThat(Errors.forCode(required.errorCode())).isEqualTo(Errors.MEMBER_ID_REQUIRED);
        ClassicMember x = new ClassicMember();
        x.id = required.memberId();
        JoinGroupResponseData joined = x.join();
        assertThat(Errors.forCode(joined.errorCode())).isEqualTo(Errors.NONE);
        assertThat(joined.protocolName()).isEqualTo("range");
        assertThat(joined.members()).as("the server assigns: no member list to assign").isEmpty();
        assertThat(Errors.forCode(x.sync(Map.of()).errorCode())).isEqualTo(Errors.NONE);
        assertThat(x.owned).as("nothing until c revoked").isEmpty();

        converge(List.of(x), List.of(c));
        assertThat(x.owned).hasSize(2);
        assertThat(c.owned).hasSize(2);
        assertThat(coordinator.syncGroup(new SyncGroupRequestData().setGroupId("g").setMemberId(x.id)
            .setGenerationId(x.generation + 1)).join().errorCode()).isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(coordinator.heartbeat("g", "c", null, c.epoch)).as("c speaks the consumer protocol")
            .isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    /**
     * KIP-1251 for a classic member of a consumer group: its generation is its member epoch, and a commit
     * with an older one is accepted only for partitions it had at that generation; otherwise, and for a
     * newer one, ILLEGAL_GENERATION (not the consumer protocol's STALE_MEMBER_EPOCH).
     */
    @Test
    void aClassicMemberOfAConsumerGroupCommitsWithAnOlderGenerationOnlyForPartitionsItAlreadyHad() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        ConsumerMember c = new ConsumerMember("c");
        c.step();
        JoinGroupResponseData required = coordinator.joinGroup(joinRequest("", Set.of()), true, "classic", "h").join();
        ClassicMember x = new ClassicMember();
        x.id = required.memberId();
        assertThat(Errors.forCode(x.join().errorCode())).isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(x.sync(Map.of()).errorCode())).isEqualTo(Errors.NONE);
        converge(List.of(x), List.of(c));
        assertThat(x.owned).hasSize(2);
        int first = x.generation;
        Set<Integer> before = x.owned;
        TopicPartition owned = new TopicPartition("orders", before.iterator().next());

        assertThat(coordinator.commitOffsets("g", first + 1, x.id, null,
            Map.of(owned, new GroupCoordinator.CommitRequest(1, -1, ""))).join()).as("a newer generation")
            .containsEntry(owned, Errors.ILLEGAL_GENERATION);
        assertThat(coordinator.commitOffsets("g", first - 1, x.id, null,
            Map.of(owned, new GroupCoordinator.CommitRequest(1, -1, ""))).join()).as("older than its assignment")
            .containsEntry(owned, Errors.ILLEGAL_GENERATION);

        ConsumerMember d = new ConsumerMember("d");
        converge(List.of(x), List.of(c, d));
        assertThat(x.generation).isGreaterThan(first);
        TopicPartition kept = new TopicPartition("orders", x.owned.stream().filter(before::contains).findFirst()
            .orElseThrow());
        // One it gave up, or else (when the assignor left it both) one it never had.
        TopicPartition gone = new TopicPartition("orders", before.stream().filter(p -> !x.owned.contains(p))
            .findFirst().orElseGet(() -> Set.of(0, 1, 2, 3).stream().filter(p -> !x.owned.contains(p)).findFirst()
                .orElseThrow()));
        assertThat(coordinator.commitOffsets("g", first, x.id, null,
            Map.of(kept, new GroupCoordinator.CommitRequest(7, -1, ""))).join()).as("kept since that generation")
            .containsEntry(kept, Errors.NONE);
        assertThat(committed(kept)).isEqualTo(7);
        assertThat(coordinator.commitOffsets("g", first, x.id, null,
            Map.of(gone, new GroupCoordinator.CommitRequest(8, -1, ""))).join()).as("no longer its partition")
            .containsEntry(gone, Errors.ILLEGAL_GENERATION);
    }

    @Test
    void theGroupBecomesClassicWhenItsLastConsumerMemberLeavesAndSurvivesAReload() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<ClassicMember> classic = stableClassicGroup();
        ConsumerMember c = new ConsumerMember("c");
        converge(classic, List.of(c));

        c.leave();

        assertThat(coordinator.modernGroups().describeConsumerGroup("g").errorCode())
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        var described = coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND);
        assertThat(described.protocolType()).isEqualTo("consumer");
        assertThat(described.groupState()).as("a rebalance starts").isEqualTo("PreparingRebalance");
        assertThat(described.members()).hasSize(2);
        for (ClassicMember m : classic) {
            assertThat(m.heartbeat()).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        }
        var joins = classic.stream().map(m -> coordinator.joinGroup(joinRequest(m.id, m.owned), false, "classic", "h"))
            .toList();
        List<JoinGroupResponseData> responses = joins.stream().map(java.util.concurrent.CompletableFuture::join).toList();
        responses.forEach(r -> assertThat(Errors.forCode(r.errorCode())).isEqualTo(Errors.NONE));
        assertThat(coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND).groupState())
            .isEqualTo("CompletingRebalance");
        assertThat(committed(ORDERS_0)).isEqualTo(42);

        coordinator.shutdown();
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        var reloaded = coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND);
        assertThat(reloaded.protocolType()).isEqualTo("consumer");
        assertThat(reloaded.members()).extracting(m -> m.memberId())
            .containsExactlyInAnyOrderElementsOf(classic.stream().map(m -> m.id).toList());
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").errorCode())
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(committed(ORDERS_0)).isEqualTo(42);
    }

    @Test
    void aReloadedCoordinatorServesTheClassicMembersOfAnUpgradedGroup() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        List<ClassicMember> classic = stableClassicGroup();
        ConsumerMember c = new ConsumerMember("c");
        converge(classic, List.of(c));
        int epoch = coordinator.modernGroups().describeConsumerGroup("g").groupEpoch();

        coordinator.shutdown();
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);

        var described = coordinator.modernGroups().describeConsumerGroup("g");
        assertThat(Errors.forCode(described.errorCode())).isEqualTo(Errors.NONE);
        assertThat(described.groupEpoch()).isEqualTo(epoch);
        assertThat(described.members()).hasSize(3);
        for (ClassicMember m : classic) {
            assertThat(m.heartbeat()).as("still a classic member at its epoch").isEqualTo(Errors.NONE);
        }
        c.step();
        assertThat(committed(ORDERS_0)).isEqualTo(42);
        c.leave();
        assertThat(coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND).groupState())
            .as("downgraded after the reload too").isEqualTo("PreparingRebalance");
    }

    @Test
    void aClassicMemberOfAConsumerGroupLivesByItsOwnSessionTimeoutAndMustSyncInTime() {
        start(ConsumerGroupMigrationPolicy.UPGRADE);
        ConsumerMember c = new ConsumerMember("c");
        ClassicMember x = new ClassicMember();
        x.rebalanceTimeoutMs = 60_000;
        assertThat(Errors.forCode(x.join().errorCode())).isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(x.sync(Map.of()).errorCode())).isEqualTo(Errors.NONE);
        ClassicMember y = new ClassicMember();
        y.sessionTimeoutMs = 40_000;
        y.rebalanceTimeoutMs = 10_000;
        assertThat(Errors.forCode(y.join().errorCode())).isEqualTo(Errors.NONE);

        // x heartbeats, y never syncs; c's session (45 s) outlives both classic timeouts.
        for (int i = 0; i < 11; i++) {
            time.advance(1_000);
            x.heartbeat();
        }
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").members()).extracting(m -> m.memberId())
            .as("y did not sync within its rebalance timeout").containsExactlyInAnyOrder("c", x.id);

        time.advance(20_000);
        assertThat(y.heartbeat()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(coordinator.modernGroups().describeConsumerGroup("g").members()).extracting(m -> m.memberId())
            .as("x's own session timeout of 20 s").containsExactly("c");
        assertThat(x.heartbeat()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        c.step();
    }

    @Test
    void aClassicStaticMemberReplacingTheLastConsumerMemberMakesTheGroupClassic() {
        start(ConsumerGroupMigrationPolicy.BIDIRECTIONAL);
        ConsumerGroupHeartbeatResponseData joined = coordinator.modernGroups().consumerGroupHeartbeat(
            new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId("s").setInstanceId("instance-1")
                .setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
                .setTopicPartitions(List.of()), (short) 1, "consumer", "h").join();
        assertThat(Errors.forCode(joined.errorCode())).isEqualTo(Errors.NONE);
        ClassicMember x = new ClassicMember();
        assertThat(Errors.forCode(x.join().errorCode())).isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData()
            .setGroupId("g").setMemberId("s").setInstanceId("instance-1")
            .setMemberEpoch(ConsumerGroup.LEAVE_GROUP_STATIC_MEMBER_EPOCH), (short) 1, "consumer", "h").join()
            .errorCode())).as("the static member leaves for a while").isEqualTo(Errors.NONE);

        var replacing = coordinator.joinGroup(joinRequest("", Set.of()).setGroupInstanceId("instance-1"), true,
            "classic", "h");

        assertThat(coordinator.modernGroups().describeConsumerGroup("g").errorCode())
            .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND).groupState())
            .isEqualTo("PreparingRebalance");
        assertThat(x.heartbeat()).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        var rejoined = coordinator.joinGroup(joinRequest(x.id, Set.of()), false, "classic", "h");
        assertThat(Errors.forCode(replacing.join().errorCode())).isEqualTo(Errors.NONE);
        assertThat(Errors.forCode(rejoined.join().errorCode())).isEqualTo(Errors.NONE);
        var described = coordinator.describeGroup("g", Errors.GROUP_ID_NOT_FOUND);
        assertThat(described.groupState()).isEqualTo("CompletingRebalance");
        assertThat(described.members()).extracting(m -> m.groupInstanceId()).containsExactlyInAnyOrder("instance-1", null);
    }

    @Test
    void policyDisabledKeepsTheProtocolsApart() {
        start(ConsumerGroupMigrationPolicy.DISABLED);
        stableClassicGroup();
        ConsumerGroupHeartbeatResponseData refused = coordinator.modernGroups().consumerGroupHeartbeat(
            new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId("c").setMemberEpoch(0)
                .setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of()),
            (short) 1, "consumer", "h").join();
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(refused.errorMessage()).isEqualTo("Group g is not a consumer group");

        coordinator.modernGroups().consumerGroupHeartbeat(new ConsumerGroupHeartbeatRequestData().setGroupId("h")
            .setMemberId("c").setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders"))
            .setTopicPartitions(List.of()), (short) 1, "consumer", "h").join();
        assertThat(coordinator.joinGroup(joinRequest("", Set.of()).setGroupId("h"), false, "classic", "h").join()
            .errorCode()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
    }

    @Test
    void policyDowngradeRefusesAnUpgrade() {
        start(ConsumerGroupMigrationPolicy.DOWNGRADE);
        stableClassicGroup();
        ConsumerGroupHeartbeatResponseData refused = coordinator.modernGroups().consumerGroupHeartbeat(
            new ConsumerGroupHeartbeatRequestData().setGroupId("g").setMemberId("c").setMemberEpoch(0)
                .setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("orders")).setTopicPartitions(List.of()),
            (short) 1, "consumer", "h").join();
        assertThat(Errors.forCode(refused.errorCode())).isEqualTo(Errors.GROUP_ID_NOT_FOUND);
        assertThat(refused.errorMessage()).isEqualTo("Group g is not a consumer group");
    }

    @Test
    void policyUpgradeKeepsAConsumerGroupOfClassicMembers() {
        start(ConsumerGroupMigrationPolicy.UPGRADE);
        List<ClassicMember> classic = stableClassicGroup();
        ConsumerMember c = new ConsumerMember("c");
        converge(classic, List.of(c));

        c.leave();

        var described = coordinator.modernGroups().describeConsumerGroup("g");
        assertThat(Errors.forCode(described.errorCode())).as("no downgrade").isEqualTo(Errors.NONE);
        assertThat(described.members()).hasSize(2);
        converge(classic, List.of());
    }
}
