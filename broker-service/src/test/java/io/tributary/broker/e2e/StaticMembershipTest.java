package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.ConsumerLoop;
import io.tributary.broker.testing.ConsumerLoop.CommitMode;
import io.tributary.broker.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static membership (KIP-345): a member with a {@code group.instance.id} that restarts within
 * its session timeout takes its place back without a rebalance, and a second process with the
 * same instance id fences the first.
 */
class StaticMembershipTest {

    private static final int PARTITIONS = 4;

    @TempDir
    static Path dir;
    static TestBroker broker;
    static Admin admin;
    private final List<ConsumerLoop> loops = new ArrayList<>();

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir);
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    @AfterEach
    void closeConsumers() throws InterruptedException {
        for (ConsumerLoop loop : loops) {
            loop.close();
        }
    }

    @Test
    void aStaticMemberThatRestartsWithinItsSessionTimeoutCausesNoRebalance() throws Exception {
        String topic = "static-restart";
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        ConsumerLoop first = member("first", "static-group", "instance-1", topic);
        ConsumerLoop second = member("second", "static-group", "instance-2", topic);
        await().atMost(Duration.ofSeconds(60)).until(() -> first.assignment().size() + second.assignment().size()
            == PARTITIONS && first.generation() == second.generation() && !first.assignment().isEmpty()
            && !second.assignment().isEmpty());
        int generation = second.generation();
        Set<TopicPartition> firstPartitions = first.assignment();
        int secondCallbacks = second.rebalances().size();

        // A static member's close sends no LeaveGroup: the coordinator keeps its place.
        first.close();
        ConsumerLoop restarted = member("restarted", "static-group", "instance-1", topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> !restarted.assignment().isEmpty());

        assertThat(restarted.assignment()).isEqualTo(firstPartitions);
        assertThat(restarted.generation()).isEqualTo(generation);
        // A rebalance would reach the other member in a heartbeat response. Two more answered (every 500 ms), the
        // second sent after the restart joined, and two polls after that, it would have begun rejoining.
        double heartbeats = second.heartbeats();
        await().atMost(Duration.ofSeconds(30)).until(() -> second.heartbeats() >= heartbeats + 2);
        long polls = second.polls();
        await().atMost(Duration.ofSeconds(30)).until(() -> second.polls() >= polls + 2);
        assertThat(second.generation()).as("no new generation").isEqualTo(generation);
        assertThat(second.rebalances()).as("the other member saw no rebalance").hasSize(secondCallbacks);
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("static-group")).all().get()
            .get("static-group");
        assertThat(group.groupState()).isEqualTo(GroupState.STABLE);
        assertThat(group.members()).extracting(MemberDescription::groupInstanceId)
            .containsExactlyInAnyOrder(Optional.of("instance-1"), Optional.of("instance-2"));
    }

    @Test
    void aSecondMemberWithTheSameInstanceIdFencesTheFirst() throws Exception {
        String topic = "static-fence";
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        ConsumerLoop original = member("original", "fence-group", "instance-x", topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> original.assignment().size() == PARTITIONS);

        ConsumerLoop duplicate = member("duplicate", "fence-group", "instance-x", topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> duplicate.assignment().size() == PARTITIONS);
        await().atMost(Duration.ofSeconds(30)).until(() -> !original.isRunning());
        assertThat(original.failure()).isInstanceOf(FencedInstanceIdException.class);
        assertThat(duplicate.failure()).isNull();
    }

    @Test
    void anAdminRemovesSeveralStaticMembersInOneBatchedLeaveGroup() throws Exception {
        String topic = "static-remove";
        admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        ConsumerLoop a = member("a", "remove-group", "instance-a", topic);
        ConsumerLoop b = member("b", "remove-group", "instance-b", topic);
        await().atMost(Duration.ofSeconds(60)).until(() -> !a.assignment().isEmpty() && !b.assignment().isEmpty()
            && a.assignment().size() + b.assignment().size() == PARTITIONS);
        // Static members send no LeaveGroup when they close; an operator removes them (KIP-345).
        a.close();
        b.close();
        assertThat(admin.describeConsumerGroups(List.of("remove-group")).all().get().get("remove-group").members())
            .hasSize(2);
        admin.removeMembersFromConsumerGroup("remove-group", new RemoveMembersFromConsumerGroupOptions(List.of(
            new MemberToRemove("instance-a"), new MemberToRemove("instance-b")))).all().get();
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("remove-group")).all().get()
            .get("remove-group");
        assertThat(group.members()).isEmpty();
        assertThat(group.groupState()).isEqualTo(GroupState.EMPTY);
    }

    private ConsumerLoop member(String name, String group, String instanceId, String topic) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 30_000);
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        ConsumerLoop loop = new ConsumerLoop(name, broker.consumer(settings), List.of(topic), CommitMode.SYNC);
        loops.add(loop);
        return loop;
    }
}
