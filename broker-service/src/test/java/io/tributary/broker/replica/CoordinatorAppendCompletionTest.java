package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.producer.VerificationGuard;
import io.tributary.broker.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator appends under its group's lock; the waiting requests its append lets complete must complete on the
 * completion thread, not on the appending one, because their callbacks take other groups' locks (fault campaign, seed
 * 21, after pause-controller: two request handlers, each committing offsets for one classic group, completed each
 * other's DelayedProduce and waited for the other group's lock; the broker stopped serving).
 */
class CoordinatorAppendCompletionTest {

    @TempDir
    Path dir;

    @Test
    void aWaitingRequestThatACoordinatorsAppendCompletesCompletesOffTheAppendingThread() throws Exception {
        TopicPartition tp = new TopicPartition("offsets-like", 0);
        try (TestBroker broker = TestBroker.start(dir, Map.of()); Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(tp.topic(), Optional.of(1), Optional.empty()))).all().get();
            ReplicaManager replicas = broker.server().replicaManager();
            await().atMost(Duration.ofSeconds(30)).until(() -> replicas.getPartition(tp).filter(Partition::isLeader)
                    .isPresent());
            // A consumer's fetch at the log end waits (up to 60 s) for one byte.
            LinkedHashMap<TopicPartition, FetchPartition> fetchInfos = new LinkedHashMap<>();
            fetchInfos.put(tp, new FetchPartition(0, RecordBatch.NO_PARTITION_LEADER_EPOCH, 1024, -1));
            AtomicReference<Thread> completedOn = new AtomicReference<>();
            CompletableFuture<?> fetched = replicas.fetchMessages(
                    new FetchParams(-1, 60_000, 1, 1024, IsolationLevel.READ_UNCOMMITTED), fetchInfos)
                    .thenRun(() -> completedOn.set(Thread.currentThread()));
            assertThat(replicas.waitingFetches(tp)).isEqualTo(1);

            var appended = replicas.appendToInternalTopic(tp, MemoryRecords.withRecords(Compression.NONE,
                    new SimpleRecord("commit".getBytes(StandardCharsets.UTF_8))), 30_000, VerificationGuard.NOT_REQUIRED);

            assertThat(appended.get(30, TimeUnit.SECONDS).error()).isEqualTo(Errors.NONE);
            fetched.get(30, TimeUnit.SECONDS);
            assertThat(completedOn.get()).as("the thread that completed the waiting fetch")
                    .isNotSameAs(Thread.currentThread());
        }
    }
}
