package io.tributary.broker.group;

import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;

/** Requests and set-up shared by the coordinator's unit tests. */
final class GroupTestSupport {

    private GroupTestSupport() {
    }

    /** Makes {@code coordinator} the leader of every offsets partition and waits until they are loaded. */
    static void loadAll(GroupCoordinator coordinator, int partitions) {
        for (int p = 0; p < partitions; p++) {
            coordinator.onBecomeLeader(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, p), 0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.fetchOffsets("probe", null).error() == Errors.NONE
            && coordinator.listGroups(List.of(), List.of()).getKey() == Errors.NONE);
    }

    /** A consumer-protocol JoinGroup with the range assignor, subscribed to {@code topic}. */
    static JoinGroupRequestData join(String group, String memberId, String topic, int sessionMs, int rebalanceMs) {
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new Subscription(List.of(topic)));
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range")
            .setMetadata(Utils.toArray(subscription)));
        return new JoinGroupRequestData().setGroupId(group).setMemberId(memberId).setSessionTimeoutMs(sessionMs)
            .setRebalanceTimeoutMs(rebalanceMs).setProtocolType("consumer").setProtocols(protocols);
    }
}
