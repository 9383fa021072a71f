package io.tributary.broker.share;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.junit.jupiter.api.Test;

/**
 * The KIP-1103 share-partition meters and Tributary's archived-records counter: registered with
 * Kafka's tags when a share-partition is loaded, reading its values, and removed when it is unloaded
 * (leadership moved, state reset), but not by a stale share-partition after a newer one of the key loaded.
 */
class SharePartitionMetricsTest {

    private static final TopicIdPartition P0 = new TopicIdPartition(Uuid.randomUuid(), 0, "orders");
    private static final int LOCK_MS = 30_000;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SharePartitionMetrics metrics = new SharePartitionMetrics(registry);
    private final MockTime time = new MockTime();
    private final MockScheduler scheduler = new MockScheduler(time);
    private final SharePartitionManagerTest.FakeLog log = new SharePartitionManagerTest.FakeLog();
    private final InMemoryShareStatePersister persister = new InMemoryShareStatePersister();
    private final SharePartitionManager manager = new SharePartitionManager(log, persister,
        new ShareGroupSettings(LOCK_MS, 2, 200, group -> Optional.of(new GroupConfig(Map.of(
            GroupConfig.SHARE_AUTO_OFFSET_RESET_CONFIG, "earliest")))),
        new AcquisitionLockTimer(scheduler), ShareArchiveListener.NONE, metrics);

    private Gauge gauge(String name) {
        return registry.find(name).tags("group", "g", "topic", "orders", "partition", "0").gauge();
    }

    private FunctionCounter counter(String name, String... moreTags) {
        return registry.find(name).tags("group", "g", "topic", "orders", "partition", "0").tags(moreTags).functionCounter();
    }

    private List<AcquiredRange> fetch(String member) {
        return manager.fetch(new ShareFetchParams("g", member, 0, 1, 1 << 20, 100, false), List.of(P0)).join()
            .get(P0).acquired();
    }

    private void ack(String member, long first, long last, byte type) {
        manager.acknowledge("g", member, Map.of(P0, List.of(ShareAcknowledgement.of(first, last, type)))).join();
    }

    @Test
    void metersFollowTheSharePartitionAndGoWhenItIsUnloaded() {
        log.leaderEpochs.put(P0.topicPartition(), 1);
        log.append(P0.topicPartition(), 3, 3);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT)).as("nothing loaded yet").isNull();

        assertThat(fetch("m1")).isNotEmpty();
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT).value()).isEqualTo(6);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_BATCH_COUNT).value()).isEqualTo(2);

        ack("m1", 0, 0, ShareAcknowledgement.REJECT);
        ack("m1", 1, 2, ShareAcknowledgement.ACCEPT);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT).value()).isEqualTo(3);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_BATCH_COUNT).value()).isEqualTo(1);
        assertThat(counter(SharePartitionMetrics.ARCHIVED_RECORDS, "reason", "rejected").count()).isEqualTo(1);

        time.advance(LOCK_MS); // 3-5 released: delivery 1 of 2
        assertThat(counter(SharePartitionMetrics.ACQUISITION_LOCK_TIMEOUT).count()).isEqualTo(3);
        assertThat(fetch("m2")).containsExactly(new AcquiredRange(3, 5, 2));
        time.advance(LOCK_MS); // released at the delivery count limit: archived
        assertThat(counter(SharePartitionMetrics.ACQUISITION_LOCK_TIMEOUT).count()).isEqualTo(6);
        assertThat(counter(SharePartitionMetrics.ARCHIVED_RECORDS, "reason", "delivery_limit").count()).isEqualTo(3);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT).value()).isZero();

        log.leaderEpochs.put(P0.topicPartition(), -1);
        manager.onResign(P0.topicPartition());

        assertThat(registry.find(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT).meters()).isEmpty();
        assertThat(registry.find(SharePartitionMetrics.IN_FLIGHT_BATCH_COUNT).meters()).isEmpty();
        assertThat(registry.find(SharePartitionMetrics.ACQUISITION_LOCK_TIMEOUT).meters()).isEmpty();
        assertThat(registry.find(SharePartitionMetrics.ARCHIVED_RECORDS).meters()).isEmpty();
        assertThat(metrics.size()).isZero();
    }

    @Test
    void aResetSharePartitionIsUnregisteredAndItsReloadRegisteredAgain() {
        log.leaderEpochs.put(P0.topicPartition(), 1);
        log.append(P0.topicPartition(), 4);
        fetch("m1");
        SharePartition first = manager.sharePartition(new SharePartitionKey("g", P0)).orElseThrow();

        first.fence(); // as a reset of the group's offsets or its deletion does
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT)).isNull();

        fetch("m1");
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_MESSAGE_COUNT).value()).as("reloaded and acquired again")
            .isEqualTo(4);
    }

    @Test
    void aStaleSharePartitionDoesNotRemoveTheMetersOfItsSuccessor() {
        SharePartitionKey key = new SharePartitionKey("g", P0);
        SharePartitionConfig config = new ShareGroupSettings(LOCK_MS, 2, 200, group -> Optional.empty()).forGroup("g");
        SharePartition older = new SharePartition(key, 1, new ShareGroupState(0, 1, 0, List.of()), config, persister,
            new AcquisitionLockTimer(scheduler), () -> { }, ShareArchiveListener.NONE, metrics::unregister);
        SharePartition newer = new SharePartition(key, 2, new ShareGroupState(0, 2, 7, List.of()), config, persister,
            new AcquisitionLockTimer(scheduler), () -> { }, ShareArchiveListener.NONE, metrics::unregister);
        metrics.register(older);
        metrics.register(newer);

        older.fence();

        assertThat(metrics.size()).isEqualTo(1);
        assertThat(gauge(SharePartitionMetrics.IN_FLIGHT_BATCH_COUNT)).isNotNull();
        newer.fence();
        assertThat(registry.getMeters()).isEmpty();
    }
}
