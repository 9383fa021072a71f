package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ConsumerLoop;
import io.tributary.broker.testing.ConsumerLoop.CommitMode;
import io.tributary.broker.testing.ConsumerLoop.Consumed;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Consumer groups with unmodified kafka-clients consumers, each polling on its own thread:
 * queue semantics inside a group, publish-subscribe across groups, rebalances when members
 * join, leave or vanish, and the assignors that run in the clients.
 */
class ConsumerGroupTest {

    private static final int PARTITIONS = 6;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    private final List<ConsumerLoop> loops = new ArrayList<>();

    @BeforeAll
    static void startBroker() {
        broker = TestBroker.start(dir);
        admin = broker.admin();
    }

    @AfterAll
    static void stopBroker() {
        admin.close();
        broker.close();
    }

    @AfterEach
    void closeConsumers() throws InterruptedException {
        for (ConsumerLoop loop : loops) {
            loop.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = CommitMode.class, names = {"AUTO", "SYNC"})
    void threeMembersShareSixPartitionsAndConsumeEveryRecordOnce(CommitMode mode) throws Exception {
        String topic = "queue-" + mode.name().toLowerCase();
        String group = "queue-group-" + mode.name().toLowerCase();
        createTopic(topic);
        List<ConsumerLoop> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(member("m" + i, group, mode, Map.of(), topic));
        }
        awaitStableAssignment(members, PARTITIONS);
        List<Set<TopicPartition>> assignments = members.stream().map(ConsumerLoop::assignment).toList();
        Set<TopicPartition> union = new HashSet<>();
        assignments.forEach(union::addAll);
        assertThat(union).hasSize(PARTITIONS);
        assertThat(assignments.stream().mapToInt(Set::size).sum()).as("disjoint").isEqualTo(PARTITIONS);
        assertThat(assignments).allSatisfy(a -> assertThat(a).hasSize(2));

        Set<String> produced = produce(topic, 3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> consumedBy(members).size() >= produced.size());
        List<Consumed> consumed = consumedBy(members);
        assertThat(consumed).hasSize(produced.size());
        assertThat(consumed.stream().map(Consumed::value).collect(Collectors.toSet())).isEqualTo(produced);
        for (Consumed c : consumed) {
            assertThat(members.stream().filter(m -> m.name().equals(c.member())).findFirst().orElseThrow().assignment())
                .as("record consumed by the member that owns its partition").contains(c.partition());
        }

        for (ConsumerLoop member : members) {
            member.close();
            assertThat(member.failure()).isNull();
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, Long> committedOffsets = committed.entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        assertThat(committedOffsets).as("the group committed the log end offset of every partition")
            .isEqualTo(endOffsets(topic));
        ConsumerLoop again = member("again", group, mode, Map.of(), topic);
        // One new record (at least) at the end of every partition: once all are read, so is anything read again.
        Set<String> producedAgain = produce(topic, 10);
        await().atMost(Duration.ofSeconds(30)).until(() -> distinctValues(List.of(again)).containsAll(producedAgain));
        assertThat(again.consumed()).as("nothing consumed twice after the group restarts").hasSize(10);
    }

    @Test
    void everyGroupReceivesEveryRecord() throws Exception {
        String topic = "pubsub";
        createTopic(topic);
        Set<String> produced = produce(topic, 1000);
        List<ConsumerLoop> groupA = List.of(member("a1", "pubsub-a", CommitMode.SYNC, Map.of(), topic),
            member("a2", "pubsub-a", CommitMode.SYNC, Map.of(), topic));
        List<ConsumerLoop> groupB = List.of(member("b1", "pubsub-b", CommitMode.AUTO, Map.of(), topic));
        await().atMost(Duration.ofSeconds(60)).until(() -> distinctValues(groupA).size() == produced.size()
            && distinctValues(groupB).size() == produced.size());
        assertThat(distinctValues(groupA)).isEqualTo(produced);
        assertThat(distinctValues(groupB)).isEqualTo(produced);
        assertThat(admin.listGroups().all().get()).extracting(g -> g.groupId())
            .contains("pubsub-a", "pubsub-b");
    }

    @Test
    void aMemberThatStopsHeartbeatingLosesItsPartitionsAfterTheSessionTimeout() throws Exception {
        String topic = "vanish";
        createTopic(topic);
        Map<String, Object> session = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3000,
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        ConsumerLoop stays = member("stays", "vanish-group", CommitMode.SYNC, session, topic);
        ConsumerLoop vanishes = member("vanishes", "vanish-group", CommitMode.SYNC, session, topic);
        awaitStableAssignment(List.of(stays, vanishes), PARTITIONS);
        Set<TopicPartition> orphaned = vanishes.assignment();
        assertThat(orphaned).isNotEmpty();

        long closedAt = System.nanoTime();
        vanishes.closeWithoutLeaving();
        await().atMost(Duration.ofSeconds(30)).until(() -> stays.assignment().size() == PARTITIONS);
        long tookMs = (System.nanoTime() - closedAt) / 1_000_000;
        assertThat(tookMs).as("reassigned by session expiry, not by a LeaveGroup").isGreaterThanOrEqualTo(2500);
        Set<String> produced = produce(topic, 300);
        await().atMost(Duration.ofSeconds(30)).until(() -> distinctValues(List.of(stays)).containsAll(produced));
    }

    @Test
    void aMemberThatLeavesCleanlyTriggersAnImmediateRebalance() throws Exception {
        String topic = "leave";
        createTopic(topic);
        Map<String, Object> longSession = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 60_000,
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1000);
        ConsumerLoop stays = member("stays", "leave-group", CommitMode.SYNC, longSession, topic);
        ConsumerLoop leaves = member("leaves", "leave-group", CommitMode.SYNC, longSession, topic);
        awaitStableAssignment(List.of(stays, leaves), PARTITIONS);
        leaves.close();
        // Well before the 60 s session timeout: the LeaveGroup started the rebalance.
        await().atMost(Duration.ofSeconds(20)).until(() -> stays.assignment().size() == PARTITIONS);

        // The last member leaves: the group is Empty at once, not after the rebalance timeout
        // (max.poll.interval.ms, 5 minutes by default).
        stays.close();
        await().atMost(Duration.ofSeconds(20)).until(() -> admin.describeConsumerGroups(List.of("leave-group")).all()
            .get().get("leave-group").groupState() == GroupState.EMPTY);
    }

    @Test
    void cooperativeStickyMovesOnlyWhatMustMove() throws Exception {
        String topic = "cooperative";
        createTopic(topic);
        Map<String, Object> cooperative = Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
            CooperativeStickyAssignor.class.getName());
        ConsumerLoop first = member("first", "coop-group", CommitMode.SYNC, cooperative, topic);
        ConsumerLoop second = member("second", "coop-group", CommitMode.SYNC, cooperative, topic);
        awaitStableAssignment(List.of(first, second), PARTITIONS);
        Set<TopicPartition> firstBefore = first.assignment();
        Set<TopicPartition> secondBefore = second.assignment();
        int firstCallbacks = first.rebalances().size();
        int secondCallbacks = second.rebalances().size();

        ConsumerLoop third = member("third", "coop-group", CommitMode.SYNC, cooperative, topic);
        awaitStableAssignment(List.of(first, second, third), PARTITIONS);
        assertThat(first.assignment()).hasSize(2);
        assertThat(second.assignment()).hasSize(2);
        assertThat(third.assignment()).hasSize(2);
        assertThat(firstBefore).containsAll(first.assignment());
        assertThat(secondBefore).containsAll(second.assignment());
        Set<TopicPartition> revoked = new HashSet<>();
        first.rebalances().subList(firstCallbacks, first.rebalances().size()).stream()
            .filter(r -> r.kind().equals("revoked")).forEach(r -> revoked.addAll(r.partitions()));
        second.rebalances().subList(secondCallbacks, second.rebalances().size()).stream()
            .filter(r -> r.kind().equals("revoked")).forEach(r -> revoked.addAll(r.partitions()));
        assertThat(revoked).as("only the partitions handed to the new member are revoked")
            .isEqualTo(third.assignment());
    }

    @ParameterizedTest
    @ValueSource(classes = {RangeAssignor.class, RoundRobinAssignor.class, StickyAssignor.class})
    void eagerAssignorsShareThePartitions(Class<?> assignor) throws Exception {
        String topic = "assignor-" + assignor.getSimpleName();
        createTopic(topic);
        Map<String, Object> strategy = Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor.getName());
        List<ConsumerLoop> members = List.of(member("x", topic, CommitMode.SYNC, strategy, topic),
            member("y", topic, CommitMode.SYNC, strategy, topic), member("z", topic, CommitMode.SYNC, strategy, topic));
        awaitStableAssignment(members, PARTITIONS);
        Set<String> produced = produce(topic, 600);
        await().atMost(Duration.ofSeconds(30)).until(() -> distinctValues(members).equals(produced));
        assertThat(consumedBy(members)).hasSize(600);
    }

    @Test
    void theBrokerPicksAProtocolEveryMemberSupports() throws Exception {
        String topic = "protocols";
        createTopic(topic);
        ConsumerLoop rangeAndRoundRobin = member("rr", "protocol-group", CommitMode.SYNC,
            Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                List.of(RangeAssignor.class.getName(), RoundRobinAssignor.class.getName())), topic);
        ConsumerLoop roundRobinOnly = member("r", "protocol-group", CommitMode.SYNC,
            Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RoundRobinAssignor.class.getName()), topic);
        awaitStableAssignment(List.of(rangeAndRoundRobin, roundRobinOnly), PARTITIONS);
        var description = admin.describeConsumerGroups(List.of("protocol-group")).all().get().get("protocol-group");
        assertThat(description.partitionAssignor()).isEqualTo("roundrobin");
        assertThat(description.members()).hasSize(2);
    }

    private ConsumerLoop member(String name, String group, CommitMode mode, Map<String, Object> overrides,
                                String topic) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, mode == CommitMode.AUTO);
        settings.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 200);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        // Members learn of a rebalance from a heartbeat response: at Kafka's 3 s interval every join
        // waits up to 3 s for the others to rejoin; at 300 ms the rebalances themselves are what is timed.
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 300);
        settings.putAll(overrides);
        ConsumerLoop loop = new ConsumerLoop(name, broker.consumer(settings), List.of(topic), mode);
        loops.add(loop);
        return loop;
    }

    private static void awaitStableAssignment(List<ConsumerLoop> members, int partitions) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            int total = 0;
            Set<TopicPartition> union = new HashSet<>();
            for (ConsumerLoop m : members) {
                if (m.failure() != null) {
                    throw new AssertionError(m.name() + " failed", m.failure());
                }
                if (m.assignment().isEmpty()) {
                    return false;
                }
                total += m.assignment().size();
                union.addAll(m.assignment());
            }
            return total == partitions && union.size() == partitions
                && members.stream().map(ConsumerLoop::generation).distinct().count() == 1;
        });
    }

    private static void createTopic(String topic) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
    }

    private static Set<String> produce(String topic, int count) throws Exception {
        Set<String> values = new HashSet<>();
        try (KafkaProducer<byte[], byte[]> producer = broker.producer(Map.of())) {
            long base = System.nanoTime();
            for (int i = 0; i < count; i++) {
                String value = topic + "-" + base + "-" + i;
                values.add(value);
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, value.getBytes()));
            }
            producer.flush();
        }
        return values;
    }

    private static Map<TopicPartition, Long> endOffsets(String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(request).all().get().forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    private static List<Consumed> consumedBy(List<ConsumerLoop> members) {
        List<Consumed> out = new ArrayList<>();
        members.forEach(m -> out.addAll(m.consumed()));
        return out;
    }

    private static Set<String> distinctValues(List<ConsumerLoop> members) {
        return consumedBy(members).stream().map(Consumed::value).collect(Collectors.toSet());
    }
}
