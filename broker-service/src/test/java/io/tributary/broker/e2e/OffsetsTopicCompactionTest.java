package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.log.PartitionLog;
import io.tributary.broker.testing.Coordinators;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code __consumer_offsets} is compacted: after many commits of the same offsets, its cleaned
 * segments hold each (group, topic, partition) key at most once, so its size is bounded by the
 * live keys, and the coordinator loads the latest offsets from the cleaned log after a restart.
 */
class OffsetsTopicCompactionTest {

    private static final String TOPIC = "committed";
    private static final int TOPIC_PARTITIONS = 10;
    private static final int GROUPS = 200;
    private static final int ROUNDS = 40;

    @TempDir
    Path dir;

    @Test
    void cleanedSegmentsOfTheOffsetsTopicHoldEachKeyOnceAndReloadToTheLatestOffsets() throws Exception {
        // One offsets partition with the smallest segments allowed (1 MiB), so the commits span several.
        Map<String, Object> settings = Map.of("broker.offsets-topic-num-partitions", "1",
            "broker.offsets-topic-segment-bytes", "1048576", "broker.log-cleaner-backoff-ms", "100");
        try (TestBroker broker = TestBroker.start(dir, settings)) {
            try (Admin admin = broker.admin()) {
                admin.createTopics(List.of(new NewTopic(TOPIC, TOPIC_PARTITIONS, (short) 1))).all().get();
            }
            Coordinators.awaitLoaded(broker.bootstrapServers(), "group-0");
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                for (int round = 1; round <= ROUNDS; round++) {
                    for (int g = 0; g < GROUPS; g++) {
                        commit(client, "group-" + g, round * 100L + g);
                    }
                }
            }
            TopicPartition offsetsPartition = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, 0);
            PartitionLog log = broker.server().logManager().getLog(offsetsPartition).orElseThrow();
            assertThat(log.logEndOffset()).isEqualTo((long) ROUNDS * GROUPS * TOPIC_PARTITIONS);
            assertThat(segments(log)).as("the commits span several segments").hasSizeGreaterThan(2);

            // Files may be renamed under the reader while the cleaner swaps segments: retry on errors too.
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                Map<String, Integer> keys = keysInCleanedSegments(log);
                assertThat(keys).isNotEmpty();
                assertThat(keys.values()).as("each key at most once below the active segment").containsOnly(1);
                assertThat(keys.size()).isLessThanOrEqualTo(GROUPS * TOPIC_PARTITIONS);
            });

            broker.restart();
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                    for (int g = 0; g < GROUPS; g += 37) {
                        assertThat(fetch(client, "group-" + g)).as("group-%d", g)
                            .containsOnly(ROUNDS * 100L + g);
                    }
                });
            }
        }
    }

    private static void commit(WireClient client, String group, long offset) throws IOException {
        OffsetCommitRequestData.OffsetCommitRequestTopic topic = new OffsetCommitRequestData.OffsetCommitRequestTopic()
            .setName(TOPIC);
        for (int p = 0; p < TOPIC_PARTITIONS; p++) {
            topic.partitions().add(new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(p)
                .setCommittedOffset(offset));
        }
        OffsetCommitResponse response = client.send(OffsetCommitRequest.Builder.forTopicNames(new OffsetCommitRequestData()
            .setGroupId(group).setGenerationIdOrMemberEpoch(-1).setMemberId("").setTopics(List.of(topic)))
            .build((short) 8));
        assertThat(response.errorCounts()).containsOnlyKeys(Errors.NONE);
    }

    private static List<Long> fetch(WireClient client, String group) throws IOException {
        OffsetFetchResponse response = client.send(OffsetFetchRequest.Builder.forTopicNames(new OffsetFetchRequestData()
            .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId(group).setTopics(null))),
            false).build((short) 8));
        assertThat(response.data().groups().get(0).errorCode()).isZero();
        List<Long> offsets = new ArrayList<>();
        response.data().groups().get(0).topics().forEach(t -> t.partitions().forEach(p -> offsets.add(p.committedOffset())));
        assertThat(offsets).hasSize(TOPIC_PARTITIONS);
        return offsets;
    }

    private static List<File> segments(PartitionLog log) {
        File[] files = log.dir().listFiles((d, n) -> n.endsWith(".log"));
        return Arrays.stream(files).sorted(Comparator.comparing(File::getName)).toList();
    }

    /** How often each key occurs in every segment but the last (active) one. */
    private static Map<String, Integer> keysInCleanedSegments(PartitionLog log) throws IOException {
        List<File> segments = segments(log);
        Map<String, Integer> keys = new HashMap<>();
        for (File segment : segments.subList(0, segments.size() - 1)) {
            try (FileRecords records = FileRecords.open(segment, false)) {
                for (RecordBatch batch : records.batches()) {
                    for (Record record : batch) {
                        ByteBuffer key = record.key();
                        byte[] bytes = new byte[key.remaining()];
                        key.get(bytes);
                        keys.merge(Arrays.toString(bytes), 1, Integer::sum);
                    }
                }
            }
        }
        return keys;
    }
}
