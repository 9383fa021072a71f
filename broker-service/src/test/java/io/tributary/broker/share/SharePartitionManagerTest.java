package io.tributary.broker.share;

import static io.tributary.broker.share.ShareTestRecords.batches;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.replica.FetchParams;
import io.tributary.broker.replica.FetchPartition;
import io.tributary.broker.replica.FetchPartitionResult;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.junit.jupiter.api.Test;

class SharePartitionManagerTest {

    private static final Uuid TOPIC_ID = Uuid.randomUuid();
    private static final TopicIdPartition P0 = new TopicIdPartition(TOPIC_ID, 0, "t");
    private static final TopicIdPartition P1 = new TopicIdPartition(TOPIC_ID, 1, "t");

    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final FakeLog log = new FakeLog();
    private final InMemoryShareStatePersister persister = new InMemoryShareStatePersister();
    private final Map<String, GroupConfig> groupConfigs = new HashMap<>();
    private final SharePartitionManager manager = new SharePartitionManager(log, persister,
        new ShareGroupSettings(30_000, 5, 200, group -> Optional.ofNullable(groupConfigs.get(group))),
        new AcquisitionLockTimer(scheduler));

    /**
     * A log of whole batches per partition whose reads wait, as the fetch purgatory does, until an
     * append brings records past the fetch offset or the wait is given up.
     */
    static final class FakeLog implements ShareLog {
        final Map<TopicPartition, List<MemoryRecords>> logs = new HashMap<>();
        final Map<TopicPartition, Integer> leaderEpochs = new HashMap<>();
        final List<Runnable> waiting = new ArrayList<>();
        final List<FetchParams> reads = new ArrayList<>();
        OptionalLong byTimestamp = OptionalLong.empty();

        synchronized void append(TopicPartition tp, int... counts) {
            List<MemoryRecords> log = logs.computeIfAbsent(tp, k -> new ArrayList<>());
            log.add(batches(end(tp), counts));
            List<Runnable> woken = new ArrayList<>(waiting);
            waiting.clear();
            woken.forEach(Runnable::run);
        }

        synchronized long end(TopicPartition tp) {
            long end = 0;
            for (MemoryRecords records : logs.getOrDefault(tp, List.of())) {
                for (RecordBatch batch : records.batches()) {
                    end = batch.lastOffset() + 1;
                }
            }
            return end;
        }

        synchronized MemoryRecords read(TopicPartition tp, long offset) {
            List<ByteBuffer> parts = new ArrayList<>();
            int size = 0;
            for (MemoryRecords records : logs.getOrDefault(tp, List.of())) {
                for (var batch : records.batches()) {
                    if (batch.lastOffset() >= offset) {
                        ByteBuffer copy = ByteBuffer.allocate(batch.sizeInBytes());
                        batch.writeTo(copy);
                        copy.flip();
                        parts.add(copy);
                        size += copy.remaining();
                    }
                }
            }
            ByteBuffer all = ByteBuffer.allocate(size);
            parts.forEach(all::put);
            all.flip();
            return MemoryRecords.readableRecords(all);
        }

        synchronized void giveUpWaiting() {
            List<Runnable> woken = new ArrayList<>(waiting);
            waiting.clear();
            woken.forEach(Runnable::run);
        }

        @Override
        public synchronized CompletableFuture<Map<TopicPartition, FetchPartitionResult>> fetch(
                FetchParams params, LinkedHashMap<TopicPartition, FetchPartition> partitions) {
            reads.add(params);
            CompletableFuture<Map<TopicPartition, FetchPartitionResult>> future = new CompletableFuture<>();
            Runnable answer = () -> {
                Map<TopicPartition, FetchPartitionResult> results = new LinkedHashMap<>();
                partitions.forEach((tp, p) -> results.put(tp, new FetchPartitionResult(Errors.NONE, end(tp), end(tp), 0,
                    read(tp, p.fetchOffset()))));
                future.complete(results);
            };
            boolean readable = partitions.entrySet().stream().anyMatch(e -> end(e.getKey()) > e.getValue().fetchOffset());
            if (readable || params.maxWaitMs() <= 0) {
                answer.run();
            } else {
                waiting.add(answer);
            }
            return future;
        }

        @Override
        public synchronized int leaderEpoch(TopicPartition tp) {
            return leaderEpochs.getOrDefault(tp, 7);
        }

        @Override
        public synchronized OptionalLong offsetForTimestamp(TopicPartition tp, long timestamp, IsolationLevel isolationLevel) {
            if (leaderEpoch(tp) < 0) {
                return OptionalLong.empty();
            }
            if (timestamp >= 0) {
                return byTimestamp; // the first record at or after the timestamp, as the test sets it
            }
            return OptionalLong.of(timestamp == ListOffsetsRequest.EARLIEST_TIMESTAMP ? 0 : end(tp));
        }
    }

    private static ShareFetchParams params(String member, long maxWaitMs, int maxRecords) {
        return new ShareFetchParams("g", member, maxWaitMs, 1, 1 << 20, maxRecords, false);
    }

    private void earliest(String group) {
        groupConfigs.put(group, new GroupConfig(Map.of(GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "earliest")));
    }

    @Test
    void aLongPollIsAnsweredWithTheRecordsAppendedWhileItWaits() {
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            manager.fetch(params("m1", 10_000, 100), List.of(P0));

        assertThat(pending).isNotDone();
        assertThat(log.reads.get(0).maxWaitMs()).isEqualTo(10_000);
        log.append(P0.topicPartition(), 2, 3);

        ShareFetchPartitionResult result = pending.join().get(P0);
        assertThat(result.error()).isEqualTo(Errors.NONE);
        assertThat(result.acquired()).containsExactly(new AcquiredRange(0, 4, 1));
        assertThat(result.records().sizeInBytes()).isPositive();
    }

    @Test
    void aSharePartitionWhoseWriteIsFencedIsLoadedAgainFromTheStoredState() {
        earliest("g");
        log.append(P0.topicPartition(), 4);
        assertThat(manager.fetch(params("m1", 0, 100), List.of(P0)).join().get(P0).acquired())
            .containsExactly(new AcquiredRange(0, 3, 1));
        SharePartitionKey key = new SharePartitionKey("g", P0);
        // Another leader, in a newer epoch, stored the state meanwhile: offsets 0-1 done.
        persister.writeState(key, new ShareGroupState(0, 9, 2, List.of())).join();

        Map<TopicIdPartition, Errors> acked = manager.acknowledge("g", "m1", Map.of(P0,
            List.of(ShareAcknowledgement.of(0, 3, ShareAcknowledgement.RELEASE)))).join();
        assertThat(acked.get(P0)).isEqualTo(Errors.FENCED_LEADER_EPOCH);

        assertThat(manager.fetch(params("m2", 0, 100), List.of(P0)).join().get(P0).acquired())
            .as("reloaded from the stored state").containsExactly(new AcquiredRange(2, 3, 1));
    }

    @Test
    void latestIsTheDefaultAutoOffsetResetAndEarliestReadsFromTheLogStart() {
        log.append(P0.topicPartition(), 4);

        ShareFetchPartitionResult latest = manager.fetch(params("m1", 0, 100), List.of(P0)).join().get(P0);
        assertThat(latest.acquired()).isEmpty();
        assertThat(persister.state(new SharePartitionKey("g", P0)).orElseThrow().startOffset()).isEqualTo(4);

        earliest("e");
        ShareFetchPartitionResult fromStart = manager.fetch(new ShareFetchParams("e", "m1", 0, 1, 1 << 20, 100, false),
            List.of(P0)).join().get(P0);
        assertThat(fromStart.acquired()).containsExactly(new AcquiredRange(0, 3, 1));
        assertThat(persister.state(new SharePartitionKey("e", P0)).orElseThrow().startOffset()).isZero();
    }

    @Test
    void maxRecordsBoundsTheWholeFetch() {
        earliest("g");
        log.append(P0.topicPartition(), 3, 3);
        log.append(P1.topicPartition(), 3);

        Map<TopicIdPartition, ShareFetchPartitionResult> results = manager.fetch(params("m1", 0, 3), List.of(P0, P1)).join();

        assertThat(results.get(P0).acquired()).containsExactly(new AcquiredRange(0, 2, 1));
        assertThat(results.get(P1).acquired()).isEmpty();
        assertThat(results.get(P0).records().batches()).hasSize(1);
    }

    @Test
    void acknowledgementsAndReleasingASessionMakeRecordsAvailableToOthers() {
        earliest("g");
        log.append(P0.topicPartition(), 2, 2);
        manager.fetch(params("m1", 0, 2), List.of(P0)).join();
        manager.fetch(params("m2", 0, 2), List.of(P0)).join();

        Map<TopicIdPartition, Errors> errors = manager.acknowledge("g", "m1", Map.of(P0,
            List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.RELEASE)))).join();
        manager.releaseSession("g", "m2").join();

        assertThat(errors).containsEntry(P0, Errors.NONE);
        assertThat(manager.fetch(params("m3", 0, 10), List.of(P0)).join().get(P0).acquired())
            .containsExactly(new AcquiredRange(0, 3, 2));
    }

    @Test
    void losingLeadershipDropsTheSharePartitions() {
        earliest("g");
        log.append(P0.topicPartition(), 2);
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();
        SharePartition dropped = manager.sharePartition(new SharePartitionKey("g", P0)).orElseThrow();

        log.leaderEpochs.put(P0.topicPartition(), -1);
        manager.onResign(P0.topicPartition());

        assertThat(manager.sharePartition(new SharePartitionKey("g", P0))).isEmpty();
        assertThat(dropped.lockCount()).isZero();
        assertThat(manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 1,
            ShareAcknowledgement.ACCEPT)))).join()).containsEntry(P0, Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(manager.fetch(params("m1", 0, 10), List.of(P0)).join().get(P0).error())
            .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
    }

    @Test
    void aRestartedLeaderResumesFromThePersistedState() {
        earliest("g");
        log.append(P0.topicPartition(), 2, 2);
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();
        manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.ACCEPT))))
            .join();
        manager.onResign(P0.topicPartition());

        ShareFetchPartitionResult resumed = manager.fetch(params("m2", 0, 10), List.of(P0)).join().get(P0);

        assertThat(resumed.acquired()).containsExactly(new AcquiredRange(2, 3, 2));
    }

    @Test
    void aWaitGivenUpAnswersEmpty() {
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            manager.fetch(params("m1", 500, 100), List.of(P0));

        log.giveUpWaiting();

        assertThat(pending.join().get(P0)).isEqualTo(ShareFetchPartitionResult.empty());
    }

    @Test
    void aFetchWithNothingToAcquireWaitsForAnAcknowledgement() {
        SharePartitionManager small = new SharePartitionManager(log, persister,
            new ShareGroupSettings(30_000, 5, 2, group -> Optional.of(new GroupConfig(Map.of(
                GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "earliest")))), new AcquisitionLockTimer(scheduler));
        log.append(P0.topicPartition(), 2, 2);
        small.fetch(params("m1", 0, 10), List.of(P0)).join();

        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            small.fetch(params("m2", 5_000, 10), List.of(P0));
        assertThat(pending).isNotDone();
        assertThat(small.waitingFetches(new SharePartitionKey("g", P0))).isEqualTo(1);

        small.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.ACCEPT))))
            .join();

        assertThat(pending.join().get(P0).acquired()).containsExactly(new AcquiredRange(2, 3, 1));
        assertThat(small.waitingFetches(new SharePartitionKey("g", P0))).isZero();
    }

    @Test
    void aFetchWithNothingToAcquireAnswersEmptyAfterItsMaxWait() {
        SharePartitionManager small = new SharePartitionManager(log, persister,
            new ShareGroupSettings(30_000, 5, 2, group -> Optional.of(new GroupConfig(Map.of(
                GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "earliest")))), new AcquisitionLockTimer(scheduler));
        log.append(P0.topicPartition(), 2, 2);
        small.fetch(params("m1", 0, 10), List.of(P0)).join();
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            small.fetch(params("m2", 5_000, 10), List.of(P0));

        time.advance(5_000);

        assertThat(pending.join().get(P0).acquired()).isEmpty();
        assertThat(small.waitingFetches(new SharePartitionKey("g", P0))).isZero();
    }

    @Test
    void aMemberLeavingLosesItsSessionAndItsRecords() {
        earliest("g");
        log.append(P0.topicPartition(), 2);
        ShareSessionCache sessions = new ShareSessionCache(10, 45_000, time, key -> { });
        ShareComponents shares = new ShareComponents(manager, sessions, persister);
        sessions.fetchContext("g", "m1", 0, List.of(P0), List.of(), false);
        sessions.fetchContext("g", "m2", 0, List.of(P0), List.of(), false); // keeps the group's share-partitions here
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();

        shares.memberLeft("g", "m1").join();

        assertThat(sessions.expectedEpoch("g", "m1")).isEqualTo(-1);
        assertThat(manager.sharePartition(new SharePartitionKey("g", P0)).orElseThrow().stateOf(0))
            .isEqualTo(RecordState.AVAILABLE);
    }

    @Test
    void byDurationStartsAtTheFirstRecordThatRecentElseAtTheEnd() {
        log.append(P0.topicPartition(), 2, 2);
        groupConfigs.put("d", new GroupConfig(Map.of(GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "by_duration:PT1H")));
        groupConfigs.put("none", new GroupConfig(Map.of(GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "by_duration:PT1H")));
        log.byTimestamp = OptionalLong.of(2);

        assertThat(manager.fetch(new ShareFetchParams("d", "m1", 0, 1, 1 << 20, 100, false), List.of(P0)).join()
            .get(P0).acquired()).containsExactly(new AcquiredRange(2, 3, 1));

        log.byTimestamp = OptionalLong.empty();
        assertThat(manager.fetch(new ShareFetchParams("none", "m1", 0, 1, 1 << 20, 100, false), List.of(P0)).join()
            .get(P0).acquired()).isEmpty();
        assertThat(persister.state(new SharePartitionKey("none", P0)).orElseThrow().startOffset()).isEqualTo(4);
    }

    @Test
    void aFetchWaitingForNewRecordsIsAnsweredWithRecordsReleasedMeanwhile() {
        earliest("g");
        log.append(P0.topicPartition(), 2);
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            manager.fetch(params("m2", 10_000, 10), List.of(P0));
        assertThat(pending).isNotDone(); // waiting in the purgatory for records past offset 2

        manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.RELEASE))))
            .join();

        assertThat(pending).isCompleted(); // no append, no time passed: woken by the release
        assertThat(pending.join().get(P0).acquired()).containsExactly(new AcquiredRange(0, 1, 2));
        log.giveUpWaiting(); // the purgatory's late answer acquires nothing more
        assertThat(manager.sharePartition(new SharePartitionKey("g", P0)).orElseThrow().acquiredCount()).isEqualTo(2);
    }

    @Test
    void aFetchWaitingForNewRecordsIsAnsweredWithRecordsWhoseLockExpired() {
        earliest("g");
        log.append(P0.topicPartition(), 3);
        SharePartitionManager shortLocks = new SharePartitionManager(log, persister,
            new ShareGroupSettings(1_000, 5, 200, group -> Optional.ofNullable(groupConfigs.get(group))),
            new AcquisitionLockTimer(scheduler));
        shortLocks.fetch(params("m1", 0, 10), List.of(P0)).join();
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            shortLocks.fetch(params("m2", 30_000, 10), List.of(P0));
        assertThat(pending).isNotDone();

        time.advance(1_000); // m1's lock expires, well before m2's max wait

        assertThat(pending).isCompleted();
        assertThat(pending.join().get(P0).acquired()).containsExactly(new AcquiredRange(0, 2, 2));
    }

    @Test
    void anAcceptDoesNotEndAWaitForNewRecords() {
        earliest("g");
        log.append(P0.topicPartition(), 2);
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();
        CompletableFuture<Map<TopicIdPartition, ShareFetchPartitionResult>> pending =
            manager.fetch(params("m2", 10_000, 10), List.of(P0));

        manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 1, ShareAcknowledgement.ACCEPT))))
            .join();
        assertThat(pending).isNotDone(); // nothing acquirable again: it keeps waiting for new records

        log.append(P0.topicPartition(), 1);
        assertThat(pending.join().get(P0).acquired()).containsExactly(new AcquiredRange(2, 2, 1));
    }

    @Test
    void theLastSessionOfAGroupClosingDropsItsSharePartitionsSoTheNextFetchReadsTheStoredState() {
        earliest("g");
        log.append(P0.topicPartition(), 5);
        ShareSessionCache sessions = new ShareSessionCache(10, 45_000, time, key -> { });
        ShareComponents shares = new ShareComponents(manager, sessions, persister);
        SharePartitionKey key = new SharePartitionKey("g", P0);
        sessions.fetchContext("g", "m1", 0, List.of(P0), List.of(), false);
        sessions.fetchContext("g", "m2", 0, List.of(P0), List.of(), false);
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();
        manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 4, ShareAcknowledgement.ACCEPT))))
            .join();

        sessions.acknowledgeContext("g", "m1", 1); // advance m1's epoch: the close below uses the final one
        assertThat(sessions.fetchContext("g", "m1", -1, List.of(), List.of(), false).isFinal()).isTrue();
        shares.sessionClosed("g", "m1").join();
        assertThat(manager.sharePartition(key)).as("m2 still has a session here").isPresent();
        SharePartition held = manager.sharePartition(key).orElseThrow();

        shares.memberLeft("g", "m2").join();
        assertThat(manager.sharePartition(key)).isEmpty();
        assertThat(held.isFenced()).isTrue();

        // The group coordinator alters the start offset of the empty group: the next fetch here serves it.
        persister.initializeState(key, new ShareGroupState(2, -1, 1, List.of())).join();
        assertThat(manager.fetch(params("m3", 0, 10), List.of(P0)).join().get(P0).acquired())
            .containsExactly(new AcquiredRange(1, 4, 1));
    }

    @Test
    void stateTheGroupCoordinatorInitializedWithoutAStartOffsetStartsAtTheAutoOffsetReset() {
        log.append(P0.topicPartition(), 3);
        groupConfigs.put("late", new GroupConfig(Map.of(GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "latest")));
        earliest("g");
        persister.initializeState(new SharePartitionKey("g", P0), new ShareGroupState(4, -1, -1, List.of())).join();
        persister.initializeState(new SharePartitionKey("late", P0), new ShareGroupState(4, -1, -1, List.of())).join();

        assertThat(manager.fetch(params("m1", 0, 10), List.of(P0)).join().get(P0).acquired())
            .containsExactly(new AcquiredRange(0, 2, 1));
        assertThat(manager.fetch(new ShareFetchParams("late", "m1", 0, 1, 1 << 20, 100, false), List.of(P0)).join()
            .get(P0).acquired()).isEmpty();
        assertThat(manager.sharePartition(new SharePartitionKey("late", P0)).orElseThrow().startOffset()).isEqualTo(3);
        assertThat(persister.state(new SharePartitionKey("late", P0)).orElseThrow().startOffset())
            .as("the start is written at once, so it stays put").isEqualTo(3);
        manager.acknowledge("g", "m1", Map.of(P0, List.of(ShareAcknowledgement.of(0, 2, ShareAcknowledgement.ACCEPT))))
            .join();
        assertThat(persister.state(new SharePartitionKey("g", P0)).orElseThrow())
            .as("written in the coordinator's state epoch").extracting(ShareGroupState::stateEpoch, ShareGroupState::startOffset)
            .containsExactly(4, 3L);
    }

    @Test
    void aClosedConnectionEndsItsSessionsReleasingTheirRecordsAndDroppingTheGroupsSharePartitions() {
        earliest("g");
        log.append(P0.topicPartition(), 3);
        ShareSessionCache sessions = new ShareSessionCache(10, 45_000, time, key -> { });
        ShareComponents shares = new ShareComponents(manager, sessions, persister);
        SharePartitionKey key = new SharePartitionKey("g", P0);
        sessions.fetchContext("g", "m1", 0, List.of(P0), List.of(), false, "conn-1");
        manager.fetch(params("m1", 0, 10), List.of(P0)).join();

        shares.connectionClosed("conn-1"); // the consumer died: no final epoch

        assertThat(sessions.size()).isZero();
        assertThat(manager.sharePartition(key)).as("no session of the group left here").isEmpty();
        assertThat(manager.fetch(params("m2", 0, 10), List.of(P0)).join().get(P0).acquired())
            .as("released before the drop, so delivered again").containsExactly(new AcquiredRange(0, 2, 2));
    }
}
