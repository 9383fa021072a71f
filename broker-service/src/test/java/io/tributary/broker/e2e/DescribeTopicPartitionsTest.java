package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.testing.KafkaTool;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeTopicPartitionsRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DescribeTopicPartitions (KIP-966) on the wire and through Kafka 4's clients: pages of at most
 * {@code min(ResponsePartitionLimit, max.request.partition.size.limit)} partitions in topic-name
 * order with a cursor to the next, every topic for an empty list, Kafka's errors for unknown and
 * invalid names and bad cursors; {@code kafka-topics --describe} and {@code Admin.describeTopics}
 * page through it.
 */
class DescribeTopicPartitionsTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() throws Exception {
        broker = TestBroker.start(dir, Map.of("broker.max-request-partition-size-limit", "5"));
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic("paged-a", 3, (short) 1), new NewTopic("paged-b", 2, (short) 1),
                new NewTopic("paged-c", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static DescribeTopicPartitionsResponseData describe(int limit, DescribeTopicPartitionsRequestData.Cursor cursor,
                                                                String... topics) throws Exception {
        DescribeTopicPartitionsRequestData request = new DescribeTopicPartitionsRequestData().setResponsePartitionLimit(limit)
            .setCursor(cursor);
        for (String topic : topics) {
            request.topics().add(new DescribeTopicPartitionsRequestData.TopicRequest().setName(topic));
        }
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            DescribeTopicPartitionsResponse response = client.send(new DescribeTopicPartitionsRequest.Builder(request).build());
            return response.data();
        }
    }

    private static List<String> partitions(DescribeTopicPartitionsResponseData data) {
        return data.topics().stream().flatMap(t -> t.partitions().stream().map(p -> t.name() + "-" + p.partitionIndex()
            + " leader " + p.leaderId())).toList();
    }

    private static DescribeTopicPartitionsRequestData.Cursor cursor(String topic, int partition) {
        return new DescribeTopicPartitionsRequestData.Cursor().setTopicName(topic).setPartitionIndex(partition);
    }

    @Test
    void pagesInNameOrderWithACursorToTheNextPartition() throws Exception {
        DescribeTopicPartitionsResponseData first = describe(4, null, "paged-c", "paged-a", "paged-b");
        assertThat(partitions(first)).containsExactly("paged-a-0 leader 0", "paged-a-1 leader 0", "paged-a-2 leader 0",
            "paged-b-0 leader 0");
        assertThat(first.nextCursor().topicName()).isEqualTo("paged-b");
        assertThat(first.nextCursor().partitionIndex()).isEqualTo(1);
        DescribeTopicPartitionsResponseTopic a = first.topics().find("paged-a");
        assertThat(a.topicId()).isNotEqualTo(Uuid.ZERO_UUID);
        assertThat(a.partitions().get(0).replicaNodes()).containsExactly(0);
        assertThat(a.partitions().get(0).isrNodes()).containsExactly(0);
        assertThat(a.partitions().get(0).leaderEpoch()).isZero();
        assertThat(a.partitions().get(0).eligibleLeaderReplicas()).as("empty, never null").isEmpty();
        assertThat(a.topicAuthorizedOperations()).as("authorization off: every operation").isPositive();

        DescribeTopicPartitionsResponseData second = describe(4, cursor("paged-b", 1), "paged-a", "paged-b", "paged-c");
        assertThat(partitions(second)).as("topics before the cursor's are skipped")
            .containsExactly("paged-b-1 leader 0", "paged-c-0 leader 0");
        assertThat(second.nextCursor()).isNull();

        DescribeTopicPartitionsResponseData exactly = describe(3, null, "paged-a", "paged-b");
        assertThat(partitions(exactly)).hasSize(3);
        assertThat(exactly.nextCursor().topicName()).as("the next topic from its start").isEqualTo("paged-b");
        assertThat(exactly.nextCursor().partitionIndex()).isZero();

        assertThat(partitions(describe(100, null, "paged-a", "paged-b", "paged-c")))
            .as("max.request.partition.size.limit caps the request's limit").hasSize(5);
        assertThat(partitions(describe(0, null, "paged-a"))).as("at least one").hasSize(1);

        DescribeTopicPartitionsResponseData all = describe(5, null);
        assertThat(all.topics()).extracting(DescribeTopicPartitionsResponseTopic::name)
            .containsExactly("paged-a", "paged-b");
        assertThat(describe(5, cursor("paged-b", 0)).topics()).extracting(DescribeTopicPartitionsResponseTopic::name)
            .containsExactly("paged-b", "paged-c");
    }

    @Test
    void unknownAndInvalidTopicsAndBadCursorsGetKafkasErrors() throws Exception {
        DescribeTopicPartitionsResponseData data = describe(10, null, "paged-c", "no-such-topic", "bad name!");
        assertThat(Errors.forCode(data.topics().find("no-such-topic").errorCode())).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(data.topics().find("no-such-topic").topicId()).isEqualTo(Uuid.ZERO_UUID);
        assertThat(Errors.forCode(data.topics().find("bad name!").errorCode())).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION);
        assertThat(Errors.forCode(data.topics().find("paged-c").errorCode())).isEqualTo(Errors.NONE);

        DescribeTopicPartitionsResponseData notListed = describe(10, cursor("paged-b", 0), "paged-a", "paged-c");
        assertThat(notListed.topics()).allSatisfy(t -> assertThat(Errors.forCode(t.errorCode())).isEqualTo(Errors.INVALID_REQUEST));
        DescribeTopicPartitionsResponseData negative = describe(10, cursor("paged-a", -1), "paged-a");
        assertThat(negative.topics()).isNotEmpty()
            .allSatisfy(t -> assertThat(Errors.forCode(t.errorCode())).isEqualTo(Errors.INVALID_REQUEST));
    }

    @Test
    void kafkaTopicsAndTheAdminClientPageThroughIt() throws Exception {
        try (Admin admin = broker.admin()) {
            Map<String, TopicDescription> described = admin.describeTopics(List.of("paged-a", "paged-b", "paged-c"),
                new DescribeTopicsOptions().partitionSizeLimitPerResponse(2)).allTopicNames().get();
            assertThat(described.get("paged-a").partitions()).extracting(TopicPartitionInfo::partition).containsExactly(0, 1, 2);
            assertThat(described.get("paged-b").partitions()).extracting(TopicPartitionInfo::partition).containsExactly(0, 1);
            assertThat(described.get("paged-c").partitions().get(0).leader().id()).isZero();
            assertThatThrownBy(() -> admin.describeTopics(List.of("no-such-topic")).allTopicNames().get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        }

        KafkaTool.Result result = KafkaTool.runWithKafkaToolsClasspath("org.apache.kafka.tools.TopicCommand",
            "--bootstrap-server", broker.bootstrapServers(), "--describe", "--topic", "paged-.*",
            "--partition-size-limit-per-response", "2");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).containsPattern("Topic: paged-a\\s+TopicId: \\S+\\s+PartitionCount: 3\\s+ReplicationFactor: 1")
            .containsPattern("Topic: paged-a\\s+Partition: 2\\s+Leader: 0\\s+Replicas: 0\\s+Isr: 0")
            .containsPattern("Topic: paged-b\\s+Partition: 1\\s+Leader: 0")
            .containsPattern("Topic: paged-c\\s+Partition: 0\\s+Leader: 0");
    }
}
