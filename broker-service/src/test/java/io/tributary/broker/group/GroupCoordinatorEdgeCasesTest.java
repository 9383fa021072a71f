package io.tributary.broker.group;

import io.tributary.broker.coordinator.CoordinatorLog;
import io.tributary.broker.coordinator.InMemoryCoordinatorLog;
import static io.tributary.broker.group.GroupTestSupport.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.testing.MockTime;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interleavings where Kafka's classic group coordinator behaves in a particular way that clients
 * rely on: members waiting in a join phase, static members, pending member ids, group size,
 * commits racing expiry and deletion, leadership changes of the offsets topic. Each test was a
 * bug found in review; the source of the expected behaviour is named on each.
 */
class GroupCoordinatorEdgeCasesTest {

    private static final int PARTITIONS = 4;
    private static final long RETENTION_MS = 60_000;
    private static final TopicPartition T0 = new TopicPartition("t", 0);

    private final MockTime time = new MockTime();
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private final List<GroupCoordinator> started = new ArrayList<>();

    @AfterEach
    void shutdown() {
        started.forEach(GroupCoordinator::shutdown);
    }

    private GroupCoordinator unloaded(int minSessionMs, int initialDelayMs, int maxSize) {
        GroupCoordinator c = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, minSessionMs, 300_000,
            initialDelayMs, maxSize, 5000, 4096, RETENTION_MS, 600_000), time);
        started.add(c);
        return c;
    }

    private GroupCoordinator coordinator(int minSessionMs, int initialDelayMs, int maxSize) {
        GroupCoordinator c = unloaded(minSessionMs, initialDelayMs, maxSize);
        GroupTestSupport.loadAll(c, PARTITIONS);
        return c;
    }

    /** A loaded coordinator whose timeouts run on {@link #time}: they fire only when the test advances it. */
    private GroupCoordinator onMockTimer(int minSessionMs, int initialDelayMs, int maxSize) {
        GroupCoordinator c = new GroupCoordinator(log, new GroupCoordinator.Config(PARTITIONS, minSessionMs, 300_000,
            initialDelayMs, maxSize, 5000, 4096, RETENTION_MS, 600_000), time, new MockTimer(time));
        started.add(c);
        GroupTestSupport.loadAll(c, PARTITIONS);
        return c;
    }

    /** Advances the mock clock in steps of {@code stepMs} until {@code future} is done (at most {@code maxMs}). */
    private <T> T advanceUntilDone(CompletableFuture<T> future, long stepMs, long maxMs) throws Exception {
        for (long advanced = 0; !future.isDone() && advanced <= maxMs; advanced += stepMs) {
            time.advance(stepMs);
        }
        assertThat(future).as("done within %d ms of the mock clock", maxMs).isDone();
        return future.get();
    }

    /**
     * A member awaiting its JoinGroup answer satisfies its heartbeat (Kafka's
     * ClassicGroupMember#hasSatisfiedHeartbeat): the Java consumer sends no heartbeats while its
     * JoinGroup is outstanding, so a join phase longer than the session timeout must not expire it.
     */
    @Test
    void aMemberWaitingForTheJoinPhaseIsNotExpiredBySessionTimeout() throws Exception {
        GroupCoordinator c = onMockTimer(500, 300, 100);
        String a = newMemberId(c, "g1", "a");
        String b = newMemberId(c, "g1", "b");
        var joinA = c.joinGroup(join("g1", a, "t", 1000, 10_000), true, "a", "/127.0.0.1");
        var joinB = c.joinGroup(join("g1", b, "t", 1000, 10_000), true, "b", "/127.0.0.1");
        JoinGroupResponseData ra = advanceUntilDone(joinA, 50, 10_000);
        JoinGroupResponseData rb = joinB.get(5, TimeUnit.SECONDS);
        assertThat(ra.generationId()).isEqualTo(1).isEqualTo(rb.generationId());
        assertThat(ra.leader()).isEqualTo(a);
        var syncB = c.syncGroup(new SyncGroupRequestData().setGroupId("g1").setMemberId(b).setGenerationId(1));
        assertThat(sync(c, "g1", a, 1, List.of(a, b)).errorCode()).isZero();
        assertThat(syncB.get(5, TimeUnit.SECONDS).errorCode()).isZero();

        // The leader rejoins (a rebalance) and waits; b keeps heartbeating but rejoins only after 2.5 s, by the
        // coordinator's clock: well past a's 1 s session timeout, whose expiry runs as the clock passes it.
        var rejoinA = c.joinGroup(join("g1", a, "t", 1000, 10_000), true, "a", "/127.0.0.1");
        for (int elapsed = 0; elapsed < 2500; elapsed += 250) {
            assertThat(c.heartbeat("g1", b, null, 1)).isIn(Errors.REBALANCE_IN_PROGRESS, Errors.NONE);
            time.advance(250);
        }
        assertThat(rejoinA).as("a waits for b").isNotDone();
        var rejoinB = c.joinGroup(join("g1", b, "t", 1000, 10_000), true, "b", "/127.0.0.1");
        time.advance(0);
        JoinGroupResponseData a2 = rejoinA.get(5, TimeUnit.SECONDS);
        assertThat(Errors.forCode(a2.errorCode())).as("the waiting member is not expired").isEqualTo(Errors.NONE);
        assertThat(a2.generationId()).isEqualTo(2);
        assertThat(rejoinB.get(5, TimeUnit.SECONDS).generationId()).isEqualTo(2);
    }

    /**
     * Only dynamic members that did not rejoin are removed when a join phase completes (Kafka's
     * completeClassicGroupJoin); a static member (KIP-345) is kept in the next generation. (It
     * leaves when its session times out, or when it sends no SyncGroup for that generation within the
     * rebalance timeout: see aMemberOfAStableGenerationThatNeverSyncedIsRemovedAfterTheRebalanceTimeout.)
     */
    @Test
    void aStaticMemberThatDidNotRejoinIsKeptInTheNextGeneration() throws Exception {
        GroupCoordinator c = coordinator(500, 300, 100);
        String a = newMemberId(c, "g2", "a");
        var joinA = c.joinGroup(join("g2", a, "t", 30_000, 1000), true, "a", "/127.0.0.1");
        var joinS = c.joinGroup(join("g2", "", "t", 30_000, 1000).setGroupInstanceId("s-1"), true, "s", "/127.0.0.1");
        JoinGroupResponseData ra = joinA.get(5, TimeUnit.SECONDS);
        String s = joinS.get(5, TimeUnit.SECONDS).memberId();
        assertThat(ra.leader()).isEqualTo(a);
        var syncS = c.syncGroup(new SyncGroupRequestData().setGroupId("g2").setMemberId(s).setGroupInstanceId("s-1")
            .setGenerationId(1));
        assertThat(sync(c, "g2", a, 1, List.of(a, s)).errorCode()).isZero();
        assertThat(syncS.get(5, TimeUnit.SECONDS).errorCode()).isZero();

        // a changes its subscription; the static member is restarting and does not rejoin within the rebalance timeout.
        JoinGroupResponseData a2 = c.joinGroup(join("g2", a, "u", 30_000, 1000), true, "a", "/127.0.0.1")
            .get(10, TimeUnit.SECONDS);
        assertThat(a2.generationId()).isEqualTo(2);
        assertThat(a2.members()).as("the static member is still in the group")
            .extracting(JoinGroupResponseData.JoinGroupResponseMember::memberId).contains(s);
    }

    /**
     * {@code group.max.size} applies to every JoinGroup, also the second one of KIP-394 (Kafka's
     * acceptJoiningMember): a member that got MEMBER_ID_REQUIRED is refused with
     * GROUP_MAX_SIZE_REACHED when it comes back to a full group.
     */
    @Test
    void groupMaxSizeAppliesToAMemberThatComesBackWithItsMemberId() throws Exception {
        GroupCoordinator c = coordinator(1000, 300, 1);
        String x = newMemberId(c, "g3", "x");
        String y = newMemberId(c, "g3", "y");
        var rx = c.joinGroup(join("g3", x, "t", 30_000, 30_000), true, "x", "/127.0.0.1");
        var ry = c.joinGroup(join("g3", y, "t", 30_000, 30_000), true, "y", "/127.0.0.1");
        assertThat(Errors.forCode(ry.get(2, TimeUnit.SECONDS).errorCode())).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(rx.get(5, TimeUnit.SECONDS).errorCode()).isZero();
        assertThat(c.describeGroup("g3", Errors.GROUP_ID_NOT_FOUND).members()).hasSize(1);
    }

    /**
     * A member id handed out with MEMBER_ID_REQUIRED (KIP-394) stays valid until that member
     * joins, leaves or its session times out; another member's join phase does not forget it.
     */
    @Test
    void aPendingMemberIdStaysValidWhenAnotherMembersJoinPhaseCompletes() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        String x = newMemberId(c, "g9", "x");
        String y = newMemberId(c, "g9", "y");
        assertThat(c.joinGroup(join("g9", x, "t", 30_000, 30_000), true, "x", "/127.0.0.1").get(5, TimeUnit.SECONDS)
            .errorCode()).isZero();
        var ry = c.joinGroup(join("g9", y, "t", 30_000, 30_000), true, "y", "/127.0.0.1");
        assertThat(ry.isDone() ? Errors.forCode(ry.get().errorCode()) : Errors.NONE)
            .as("y's member id is still valid").isNotEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }

    /**
     * An offset whose commit is still being written is not expired, and its group is not deleted
     * (Kafka's GroupMetadata#removeExpiredOffsets skips pendingOffsetCommits).
     */
    @Test
    void expiryDoesNotLoseACommitThatIsBeingWritten() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.commitOffsets("simple", -1, "", null, commitOf(5)).get(5, TimeUnit.SECONDS).get(T0))
            .isEqualTo(Errors.NONE);
        time.advance(RETENTION_MS + 1);
        log.holdAppends();
        var pending = c.commitOffsets("simple", -1, "", null, commitOf(7));
        c.expireOffsets();
        log.releaseAppends();
        assertThat(pending.get(5, TimeUnit.SECONDS).get(T0)).isEqualTo(Errors.NONE);
        OffsetAndMetadata live = c.fetchOffsets("simple", List.of(T0)).offsets().get(T0);
        assertThat(live).as("the acknowledged commit is readable").isNotNull();
        assertThat(live.offset()).isEqualTo(7);
        c.shutdown();
        GroupCoordinator reloaded = coordinator(1000, 0, 100);
        OffsetAndMetadata stored = reloaded.fetchOffsets("simple", List.of(T0)).offsets().get(T0);
        assertThat(stored).as("the acknowledged commit survives a reload").isNotNull();
        assertThat(stored.offset()).isEqualTo(7);
    }

    /**
     * DeleteGroups writes tombstones for every offset of the group, also one whose commit is in
     * flight, so a deleted group stays deleted after a reload.
     */
    @Test
    void aDeletedGroupStaysDeletedAfterReloadEvenWithACommitInFlight() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.commitOffsets("gone", -1, "", null, commitOf(1)).get(5, TimeUnit.SECONDS).get(T0))
            .isEqualTo(Errors.NONE);
        log.holdAppends();
        var pending = c.commitOffsets("gone", -1, "", null,
            Map.of(new TopicPartition("t", 1), new GroupCoordinator.CommitRequest(2, -1, "")));
        var deleted = c.deleteGroup("gone");
        log.releaseAppends();
        assertThat(deleted.get(5, TimeUnit.SECONDS)).isEqualTo(Errors.NONE);
        pending.get(5, TimeUnit.SECONDS);
        assertThat(c.fetchOffsets("gone", null).offsets()).as("deleted, as seen live").isEmpty();
        c.shutdown();
        GroupCoordinator reloaded = coordinator(1000, 0, 100);
        assertThat(reloaded.fetchOffsets("gone", null).offsets()).as("still deleted after a reload").isEmpty();
        assertThat(reloaded.listGroups(List.of(), List.of()).getValue()).extracting(GroupCoordinator.ListedGroup::groupId)
            .doesNotContain("gone");
    }

    /**
     * The controller bumps the leader epoch with the same leader when it shrinks the ISR; a
     * coordinator does not reload a partition it already owns (Kafka's CoordinatorRuntime: the
     * partition is already active), so a running rebalance goes on.
     */
    @Test
    void aLeaderEpochBumpWithTheSameLeaderDoesNotResetTheGroups() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        String a = newMemberId(c, "g6", "a");
        assertThat(c.joinGroup(join("g6", a, "t", 30_000, 30_000), true, "a", "/127.0.0.1").get(5, TimeUnit.SECONDS)
            .generationId()).isEqualTo(1);
        assertThat(sync(c, "g6", a, 1, List.of(a)).errorCode()).isZero();
        String b = newMemberId(c, "g6", "b");
        var joinB = c.joinGroup(join("g6", b, "t", 30_000, 30_000), true, "b", "/127.0.0.1");
        assertThat(c.describeGroup("g6", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("PreparingRebalance");

        c.onBecomeLeader(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, c.partitionFor("g6")), 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> c.fetchOffsets("g6", null).error() == Errors.NONE);

        assertThat(c.describeGroup("g6", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("PreparingRebalance");
        assertThat(c.heartbeat("g6", a, null, 1)).as("a learns of the rebalance").isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        JoinGroupResponseData rejoinA = c.joinGroup(join("g6", a, "t", 30_000, 30_000), true, "a", "/127.0.0.1")
            .get(5, TimeUnit.SECONDS);
        assertThat(rejoinA.generationId()).isEqualTo(2);
        assertThat(joinB.get(5, TimeUnit.SECONDS).generationId()).isEqualTo(2);
    }

    /**
     * The member and generation of a commit are checked before the CompletingRebalance state
     * (Kafka's ClassicGroup#validateOffsetCommit): a stale generation gets ILLEGAL_GENERATION and
     * an unknown member UNKNOWN_MEMBER_ID, so the consumer fails the commit and rejoins.
     */
    @Test
    void aCommitDuringCompletingRebalanceChecksMemberAndGenerationFirst() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        String a = newMemberId(c, "g7", "a");
        assertThat(c.joinGroup(join("g7", a, "t", 30_000, 30_000), true, "a", "/127.0.0.1").get(5, TimeUnit.SECONDS)
            .generationId()).isEqualTo(1);
        assertThat(sync(c, "g7", a, 1, List.of(a)).errorCode()).isZero();
        String b = newMemberId(c, "g7", "b");
        var joinB = c.joinGroup(join("g7", b, "t", 30_000, 30_000), true, "b", "/127.0.0.1");
        c.joinGroup(join("g7", a, "t", 30_000, 30_000), true, "a", "/127.0.0.1").get(5, TimeUnit.SECONDS);
        joinB.get(5, TimeUnit.SECONDS);
        assertThat(c.describeGroup("g7", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("CompletingRebalance");

        assertThat(c.commitOffsets("g7", 1, a, null, commitOf(3)).get(5, TimeUnit.SECONDS).get(T0))
            .as("stale generation").isEqualTo(Errors.ILLEGAL_GENERATION);
        assertThat(c.commitOffsets("g7", 2, "zombie", null, commitOf(3)).get(5, TimeUnit.SECONDS).get(T0))
            .as("unknown member").isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(c.commitOffsets("g7", 2, a, null, commitOf(3)).get(5, TimeUnit.SECONDS).get(T0))
            .as("a current member while the assignment is pending").isEqualTo(Errors.REBALANCE_IN_PROGRESS);
    }

    /**
     * A heartbeat while the group's partition loads is answered NONE (Kafka's
     * GroupCoordinatorService#heartbeat: "the group is still loading, so blindly respond"); the
     * Java consumer has no branch for COORDINATOR_LOAD_IN_PROGRESS in its heartbeat handling.
     */
    @Test
    void aHeartbeatWhileLoadingIsAnsweredNone() {
        GroupCoordinator c = unloaded(1000, 0, 100);
        log.holdReads();
        try {
            c.onBecomeLeader(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, c.partitionFor("g8")), 0);
            assertThat(c.heartbeat("g8", "m", null, 1)).isEqualTo(Errors.NONE);
        } finally {
            log.openReads();
        }
    }

    /** Groups of a partition that was resigned while it loaded are not served or listed. */
    @Test
    void groupsOfAPartitionUnloadedDuringItsLoadAreNotListed() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.commitOffsets("ghost", -1, "", null, commitOf(1)).get(5, TimeUnit.SECONDS).get(T0))
            .isEqualTo(Errors.NONE);
        c.shutdown();
        GroupCoordinator c2 = unloaded(1000, 0, 100);
        TopicPartition p = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, c2.partitionFor("ghost"));
        log.holdReads();
        c2.onBecomeLeader(p, 0);
        c2.onResign(p);
        log.openReads();
        // Loads run one at a time, in order, on the loader thread: once a later load is served, the stale one ended.
        String later = IntStream.range(0, 100).mapToObj(i -> "later-" + i)
            .filter(g -> c2.partitionFor(g) != p.partition()).findFirst().orElseThrow();
        c2.onBecomeLeader(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, c2.partitionFor(later)), 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> c2.fetchOffsets(later, null).error() == Errors.NONE);
        assertThat(c2.fetchOffsets("ghost", null).error()).isEqualTo(Errors.NOT_COORDINATOR);
        assertThat(c2.listGroups(List.of(), List.of()).getValue()).extracting(GroupCoordinator.ListedGroup::groupId)
            .doesNotContain("ghost");
    }

    /** A record the coordinator cannot read (a newer format, damage) is skipped; the partition's other groups load. */
    @Test
    void anUnreadableValueIsSkippedAndTheOtherGroupsOfThePartitionLoad() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.commitOffsets("readable", -1, "", null, commitOf(4)).get(5, TimeUnit.SECONDS).get(T0))
            .isEqualTo(Errors.NONE);
        TopicPartition partition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, c.partitionFor("readable"));
        byte[] unknownVersion = ByteBuffer.allocate(10).putShort((short) 99).putLong(1L).array();
        log.append(partition, MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(0L,
            GroupRecords.offsetKey("readable", new TopicPartition("t", 1)), unknownVersion)), 1000);
        c.shutdown();

        GroupCoordinator reloaded = coordinator(1000, 0, 100);
        assertThat(reloaded.fetchOffsets("readable", List.of(T0)).offsets().get(T0).offset()).isEqualTo(4L);
    }

    /** An empty group id is INVALID_GROUP_ID for every group request, as in Kafka. */
    @Test
    void anEmptyGroupIdIsInvalid() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.heartbeat("", "m", null, 1)).isEqualTo(Errors.INVALID_GROUP_ID);
        assertThat(c.syncGroup(new SyncGroupRequestData().setGroupId("").setMemberId("m")).get(5, TimeUnit.SECONDS)
            .errorCode()).isEqualTo(Errors.INVALID_GROUP_ID.code());
        assertThat(c.leaveGroup("", List.of(new GroupCoordinator.Leaving("m", null, null))).getKey())
            .isEqualTo(Errors.INVALID_GROUP_ID);
        assertThat(c.fetchOffsets("", null).error()).isEqualTo(Errors.INVALID_GROUP_ID);
        assertThat(c.describeGroup("", Errors.GROUP_ID_NOT_FOUND).errorCode()).isEqualTo(Errors.INVALID_GROUP_ID.code());
        assertThat(c.deleteGroup("").get(5, TimeUnit.SECONDS)).isEqualTo(Errors.INVALID_GROUP_ID);
        assertThat(c.commitOffsets("", -1, "", null, commitOf(1)).get(5, TimeUnit.SECONDS).get(T0))
            .isEqualTo(Errors.INVALID_GROUP_ID);
    }

    /**
     * OffsetCommit v2-4's retention_time_ms gives an offset its own expire timestamp (Kafka's
     * OffsetMetadataManager#expireTimestampMs), kept across a reload (value version 1).
     */
    @Test
    void anOffsetWithItsOwnRetentionExpiresAtItsExpireTimestampAlsoAfterAReload() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 100);
        assertThat(c.commitOffsets(new GroupCoordinator.OffsetCommit("own-retention", -1, "", null, 500, (short) 2,
            commitOf(9))).get(5, TimeUnit.SECONDS).get(T0)).isEqualTo(Errors.NONE);
        c.shutdown();
        GroupCoordinator reloaded = coordinator(1000, 0, 100);
        OffsetAndMetadata stored = reloaded.fetchOffsets("own-retention", List.of(T0)).offsets().get(T0);
        assertThat(stored.offset()).isEqualTo(9L);
        assertThat(stored.expireTimestamp()).isEqualTo(stored.commitTimestamp() + 500);
        time.advance(499);
        reloaded.expireOffsets();
        assertThat(reloaded.fetchOffsets("own-retention", List.of(T0)).offsets().get(T0)).isNotNull();
        time.advance(1);
        reloaded.expireOffsets();
        assertThat(reloaded.fetchOffsets("own-retention", List.of(T0)).offsets().get(T0)).isNull();
    }

    private static String newMemberId(GroupCoordinator c, String group, String client) throws Exception {
        JoinGroupResponseData r = c.joinGroup(join(group, "", "t", 30_000, 30_000), true, client, "/127.0.0.1")
            .get(5, TimeUnit.SECONDS);
        assertThat(r.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        return r.memberId();
    }

    private static SyncGroupResponseData sync(GroupCoordinator c, String group, String member, int generation,
                                              List<String> assignTo) throws Exception {
        SyncGroupRequestData request = new SyncGroupRequestData().setGroupId(group).setMemberId(member)
            .setGenerationId(generation);
        for (String m : assignTo) {
            request.assignments().add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(m)
                .setAssignment(new byte[]{1}));
        }
        return c.syncGroup(request).get(5, TimeUnit.SECONDS);
    }

    /** Found by GroupProtocolTest in CI: the expiry deleted a group whose only member was still pending (KIP-394). */
    @Test
    void theOffsetExpiryKeepsAnEmptyGroupWhoseNewMemberIsPending() throws Exception {
        GroupCoordinator c = coordinator(1000, 0, 10);
        JoinGroupResponseData first = c.joinGroup(join("pending-only", "", "t", 10_000, 10_000), true, "a", "/127.0.0.1")
            .get(5, TimeUnit.SECONDS);
        assertThat(Errors.forCode(first.errorCode())).isEqualTo(Errors.MEMBER_ID_REQUIRED);

        c.expireOffsets();

        JoinGroupResponseData second = c.joinGroup(join("pending-only", first.memberId(), "t", 10_000, 10_000), true,
            "a", "/127.0.0.1").get(5, TimeUnit.SECONDS);
        assertThat(Errors.forCode(second.errorCode())).isEqualTo(Errors.NONE);
        assertThat(second.memberId()).isEqualTo(first.memberId());
    }

    /** Kafka's GroupCoordinator.handleTxnCommitOffsets (3.6+, KIP-890 part 1): verify, then write holding the guard. */
    @Test
    void aTransactionalCommitIsWrittenOnlyOnceItsTransactionIsVerifiedAndHoldsTheGuard() throws Exception {
        GroupCoordinator c = coordinator(10, 0, 10);
        List<String> asked = new ArrayList<>();
        VerificationGuard guard = VerificationGuard.SENTINEL; // any guard but NOT_REQUIRED
        java.util.function.Function<Errors, TransactionVerifier> answering = error -> (tp, id, producerId, epoch) -> {
            asked.add(tp + " " + id + " " + producerId + "/" + epoch);
            return CompletableFuture.completedFuture(new TransactionVerifier.Verification(error, guard));
        };
        GroupCoordinator.TxnOffsetCommit commit = new GroupCoordinator.TxnOffsetCommit("txn-group", "app", 42, (short) 3,
            -1, "", null, commitOf(8));
        int appendsBefore = log.appendGuards().size();

        assertThat(c.commitTransactionalOffsets(commit, answering.apply(Errors.NETWORK_EXCEPTION)).get(5, TimeUnit.SECONDS))
            .as("retried by any client without a coordinator lookup").containsEntry(T0, Errors.COORDINATOR_LOAD_IN_PROGRESS);
        assertThat(c.commitTransactionalOffsets(commit, answering.apply(Errors.TRANSACTION_ABORTABLE)).get(5, TimeUnit.SECONDS))
            .containsEntry(T0, Errors.TRANSACTION_ABORTABLE);
        assertThat(log.appendGuards()).as("nothing written for an unverified commit").hasSize(appendsBefore);

        assertThat(c.commitTransactionalOffsets(commit, answering.apply(Errors.NONE)).get(5, TimeUnit.SECONDS))
            .containsEntry(T0, Errors.NONE);
        assertThat(log.appendGuards()).hasSize(appendsBefore + 1).last().isSameAs(guard);
        assertThat(asked).as("the group's offsets partition, for the producer's transaction").containsOnly(
            Topic.GROUP_METADATA_TOPIC_NAME + "-" + c.partitionFor("txn-group") + " app 42/3");
    }

    /**
     * Found by GroupSimulationTest (seed 87): an admin removes a static member by its instance id
     * (LeaveGroup without a member id) while its SyncGroup waits for the leader's assignment. The
     * waiting SyncGroup is answered UNKNOWN_MEMBER_ID at once, as its JoinGroup would be, so the
     * consumer rejoins instead of waiting for its request timeout (Kafka leaves it to that timeout).
     */
    @Test
    void aStaticMemberRemovedByAnAdminGetsItsWaitingSyncGroupAnswered() throws Exception {
        GroupCoordinator c = onMockTimer(500, 0, 100);
        String a = newMemberId(c, "g10", "a");
        var joinA = c.joinGroup(join("g10", a, "t", 30_000, 10_000), true, "a", "/127.0.0.1");
        var joinS = c.joinGroup(join("g10", "", "t", 30_000, 10_000).setGroupInstanceId("s-1"), true, "s", "/127.0.0.1");
        time.advance(0);
        assertThat(joinA.get(5, TimeUnit.SECONDS).leader()).isEqualTo(a);
        String s = joinS.get(5, TimeUnit.SECONDS).memberId();
        var syncS = c.syncGroup(new SyncGroupRequestData().setGroupId("g10").setMemberId(s).setGroupInstanceId("s-1")
            .setGenerationId(1));
        assertThat(syncS).as("waits for the leader's assignment").isNotDone();

        assertThat(c.leaveGroup("g10", List.of(new GroupCoordinator.Leaving("", "s-1", "removed by an admin")))
            .getValue()).containsExactly(Errors.NONE);

        assertThat(syncS).isDone();
        assertThat(Errors.forCode(syncS.get().errorCode())).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
        assertThat(c.describeGroup("g10", Errors.GROUP_ID_NOT_FOUND).members())
            .extracting(m -> m.memberId()).containsExactly(a);
    }

    /**
     * Found by GroupSimulationTest (seeds 2 and 64): a static member that crashed during a rebalance does
     * not rejoin, so the join phase keeps it in the next generation (KIP-345), but it never sends
     * SyncGroup. Kafka removes the members of a generation that sent no SyncGroup within the
     * rebalance timeout also when the group became Stable meanwhile (expirePendingSync), and the
     * group rebalances without it; its partitions do not wait for its session timeout.
     */
    @Test
    void aMemberOfAStableGenerationThatNeverSyncedIsRemovedAfterTheRebalanceTimeout() throws Exception {
        GroupCoordinator c = onMockTimer(500, 0, 100);
        String a = newMemberId(c, "g11", "a");
        var joinA = c.joinGroup(join("g11", a, "t", 60_000, 2000), true, "a", "/127.0.0.1");
        var joinS = c.joinGroup(join("g11", "", "t", 60_000, 2000).setGroupInstanceId("s-1"), true, "s", "/127.0.0.1");
        time.advance(0);
        assertThat(joinA.get(5, TimeUnit.SECONDS).generationId()).isEqualTo(1);
        String s = joinS.get(5, TimeUnit.SECONDS).memberId();
        var syncS = c.syncGroup(new SyncGroupRequestData().setGroupId("g11").setMemberId(s).setGroupInstanceId("s-1")
            .setGenerationId(1));
        assertThat(sync(c, "g11", a, 1, List.of(a, s)).errorCode()).isZero();
        assertThat(syncS.get(5, TimeUnit.SECONDS).errorCode()).isZero();

        // The leader rejoins; s has crashed: the join phase waits the rebalance timeout and keeps it (static).
        var rejoinA = c.joinGroup(join("g11", a, "t", 60_000, 2000), true, "a", "/127.0.0.1");
        JoinGroupResponseData a2 = advanceUntilDone(rejoinA, 100, 2000);
        assertThat(a2.generationId()).isEqualTo(2);
        assertThat(a2.members()).extracting(JoinGroupResponseData.JoinGroupResponseMember::memberId).contains(s);
        assertThat(sync(c, "g11", a, 2, List.of(a, s)).errorCode()).isZero();
        assertThat(c.describeGroup("g11", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("Stable");

        time.advance(1900);
        assertThat(c.describeGroup("g11", Errors.GROUP_ID_NOT_FOUND).members()).hasSize(2);
        time.advance(100);
        var described = c.describeGroup("g11", Errors.GROUP_ID_NOT_FOUND);
        assertThat(described.groupState()).as("rebalancing without the member that never synced")
            .isEqualTo("PreparingRebalance");
        assertThat(described.members()).extracting(m -> m.memberId()).containsExactly(a);
        assertThat(c.heartbeat("g11", a, null, 2)).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
    }

    /**
     * The sync phase's timer removes only members that sent no SyncGroup (Kafka's
     * expirePendingSync): when every member sent it and the leader's assignment is still being
     * written at the rebalance timeout, the group does not rebalance and becomes Stable once written.
     */
    @Test
    void theSyncTimeoutDoesNotRebalanceWhenEveryMemberSyncedAndTheAssignmentIsBeingWritten() throws Exception {
        GroupCoordinator c = onMockTimer(500, 0, 100);
        String a = newMemberId(c, "g12", "a");
        var joinA = c.joinGroup(join("g12", a, "t", 60_000, 2000), true, "a", "/127.0.0.1");
        time.advance(0);
        assertThat(joinA.get(5, TimeUnit.SECONDS).generationId()).isEqualTo(1);
        log.holdAppends();
        SyncGroupRequestData request = new SyncGroupRequestData().setGroupId("g12").setMemberId(a).setGenerationId(1);
        request.assignments().add(new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(a)
            .setAssignment(new byte[]{1}));
        var syncA = c.syncGroup(request);
        time.advance(2500);
        assertThat(c.describeGroup("g12", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("CompletingRebalance");
        log.releaseAppends();
        assertThat(syncA.get(5, TimeUnit.SECONDS).errorCode()).isZero();
        assertThat(c.describeGroup("g12", Errors.GROUP_ID_NOT_FOUND).groupState()).isEqualTo("Stable");
    }

    private static Map<TopicPartition, GroupCoordinator.CommitRequest> commitOf(long offset) {
        return Map.of(T0, new GroupCoordinator.CommitRequest(offset, -1, ""));
    }
}
