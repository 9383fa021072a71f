package io.tributary.broker.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Controller fencing: every controller write is a ZooKeeper transaction that checks the version
 * of {@code /controller_epoch}, so once another controller has moved the epoch on, the old
 * controller's writes fail and it stops acting, even while it still believes it leads (a GC
 * pause, a partition from ZooKeeper that has not yet ended its session).
 */
class ControllerFencingTest {

    @TempDir
    Path dir;

    @Test
    void aDeposedControllersLateWritesFailAndItStopsActing() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 2, Map.of())) {
            int controllerId = cluster.awaitController();
            Controller controller = cluster.broker(controllerId).controller();
            KafkaZkClient zk = cluster.broker(controllerId).zkClient();

            // Another controller takes over: it writes the next epoch, as ControllerWrites.incrementEpoch does.
            var epoch = zk.getDataAndVersion(ZkPaths.CONTROLLER_EPOCH).orElseThrow();
            int next = Integer.parseInt(new String(epoch.data(), StandardCharsets.UTF_8).trim()) + 1;
            zk.curator().setData().withVersion(epoch.version())
                .forPath(ZkPaths.CONTROLLER_EPOCH, Integer.toString(next).getBytes(StandardCharsets.UTF_8));

            // The old controller still acts on a new topic: its write of the partition's state must fail.
            zk.createTopic(new TopicAssignment("after-the-coup", Uuid.randomUuid(), Map.of(0, List.of(0, 1)), -1), Map.of());
            await().atMost(Duration.ofSeconds(30)).until(() -> !controller.isActive());
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() ->
                zk.getPartitionState("after-the-coup", 0).isEmpty());
        }
    }
}
