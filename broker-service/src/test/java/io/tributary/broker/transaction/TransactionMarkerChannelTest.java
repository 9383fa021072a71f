package io.tributary.broker.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.replica.ProduceResult;
import io.tributary.broker.testing.MockTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Markers to leaders: appended here for the partitions this broker leads, sent to the others,
 * retried across leader moves and missing leaders, given up for deleted partitions, and stopped
 * when the coordinator is fenced or no longer coordinates.
 */
class TransactionMarkerChannelTest {

    private static final int LOCAL = 1;
    private static final int REMOTE = 2;
    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition B0 = new TopicPartition("b", 0);

    private final Map<TopicPartition, Integer> leaders = new ConcurrentHashMap<>();
    private final List<Map<TopicPartition, MemoryRecords>> localAppends = new CopyOnWriteArrayList<>();
    private final List<List<TopicPartition>> remoteSends = new CopyOnWriteArrayList<>();
    private final Map<TopicPartition, Errors> remoteAnswers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    private final TransactionMarkerChannel channel = new TransactionMarkerChannel(LOCAL,
        tp -> leaders.containsKey(tp) ? OptionalInt.of(leaders.get(tp)) : OptionalInt.empty(),
        (timeoutMs, markers) -> {
            localAppends.add(markers);
            Map<TopicPartition, ProduceResult> results = new HashMap<>();
            markers.keySet().forEach(tp -> results.put(tp, new ProduceResult(Errors.NONE, null, 0, -1, 0, List.of(), 0)));
            return CompletableFuture.completedFuture(results);
        },
        (broker, producerId, epoch, coordinatorEpoch, commit, partitions) -> {
            assertThat(broker).isEqualTo(REMOTE);
            remoteSends.add(partitions);
            Map<TopicPartition, Errors> errors = new HashMap<>();
            partitions.forEach(tp -> errors.put(tp, remoteAnswers.getOrDefault(tp, Errors.NONE)));
            return CompletableFuture.completedFuture(errors);
        },
        scheduler, 30_000, 5, new MockTime());

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private CompletableFuture<Void> write(Set<TopicPartition> partitions) {
        return channel.writeMarkers(42L, (short) 3, 7, true, partitions, () -> true);
    }

    @Test
    void localPartitionsGetTheirMarkersAppendedAndTheOthersAreSentToTheirLeaders() {
        leaders.put(A0, LOCAL);
        leaders.put(B0, REMOTE);

        write(Set.of(A0, B0)).join();

        assertThat(localAppends).singleElement().satisfies(markers -> {
            assertThat(markers).containsOnlyKeys(A0);
            RecordBatch batch = markers.get(A0).batches().iterator().next();
            assertThat(batch.isControlBatch()).isTrue();
            assertThat(batch.producerId()).isEqualTo(42L);
            assertThat(batch.producerEpoch()).isEqualTo((short) 3);
            EndTransactionMarker marker = EndTransactionMarker.deserialize(batch.iterator().next());
            assertThat(marker.controlType()).isEqualTo(ControlRecordType.COMMIT);
            assertThat(marker.coordinatorEpoch()).isEqualTo(7);
        });
        assertThat(remoteSends).containsExactly(List.of(B0));
    }

    @Test
    void aMarkerFollowsItsPartitionToTheNewLeader() {
        leaders.put(B0, REMOTE);
        remoteAnswers.put(B0, Errors.NOT_LEADER_OR_FOLLOWER);

        CompletableFuture<Void> written = write(Set.of(B0));
        await().atMost(Duration.ofSeconds(10)).until(() -> remoteSends.size() >= 2);
        assertThat(written).isNotDone();
        leaders.put(B0, LOCAL);

        written.join();
        assertThat(localAppends).singleElement().satisfies(m -> assertThat(m).containsOnlyKeys(B0));
    }

    @Test
    void aPartitionWithoutALeaderWaitsForOneAndADeletedOneIsGivenUp() {
        leaders.put(A0, -1);

        CompletableFuture<Void> written = write(Set.of(A0, B0)); // B0 does not exist
        await().atMost(Duration.ofSeconds(10)).until(() -> !written.isDone() && localAppends.isEmpty());
        leaders.put(A0, LOCAL);

        written.join();
        assertThat(localAppends).singleElement().satisfies(m -> assertThat(m).containsOnlyKeys(A0));
        assertThat(remoteSends).isEmpty();
    }

    @Test
    void aFencedCoordinatorStopsAndSoDoesOneThatNoLongerCoordinates() {
        leaders.put(B0, REMOTE);
        remoteAnswers.put(B0, Errors.TRANSACTION_COORDINATOR_FENCED);

        assertThat(write(Set.of(B0))).failsWithin(Duration.ofSeconds(10));

        remoteSends.clear();
        CompletableFuture<Void> notCoordinating = channel.writeMarkers(42L, (short) 3, 7, false, Set.of(B0), () -> false);
        assertThat(notCoordinating).failsWithin(Duration.ofSeconds(10));
        assertThat(remoteSends).isEmpty();
    }
}
