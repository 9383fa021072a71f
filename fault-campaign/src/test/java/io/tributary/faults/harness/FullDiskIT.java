package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.faults.history.AnomalyKind;
import io.tributary.faults.history.CampaignRow;
import io.tributary.faults.history.CampaignTable;
import io.tributary.faults.history.CheckResult;
import io.tributary.faults.history.History;
import io.tributary.faults.history.HistoryChecker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21's full disk: broker 1 keeps its partitions in two log directories, one on the ordinary disk and one on a
 * 16 MiB tmpfs; under the queue workload the tmpfs is filled up by another writer. The broker must take that directory
 * offline (KIP-112: DescribeLogDirs answers KAFKA_STORAGE_ERROR for it) and stay up, its replicas there leave the ISR
 * and lose leadership while its replicas in the other directory stay in sync, the workload goes on; once the space is
 * freed and the broker restarted, every replica catches up, and the history shows nothing acknowledged lost,
 * duplicated or at inconsistent offsets. Timing from the seed {@code campaign.seed} (default 21). Needs root,
 * iproute2 and broker-service packaged.
 */
class FullDiskIT {

    private static final String TOPIC = "queue";
    private static final int PARTITIONS = 4;
    private static final long TMPFS_BYTES = 16L * 1024 * 1024;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final CommandRunner runner = CommandRunner.processes();
    private FaultCluster cluster;
    private TmpfsMount tmpfs;

    @AfterEach
    void tearDown() {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (tmpfs != null) {
                tmpfs.close();
            }
        }
    }

    @Test
    void aFullLogDirectoryGoesOfflineAndItsReplicasCatchUpAfterRestart() throws Exception {
        HarnessAssumptions.assumeRootWithIproute2();
        long seed = Long.getLong("campaign.seed", 21);
        Random random = new Random(seed);
        RunId run = RunId.random();
        Path campaigns = Path.of("target", "campaign");
        Path work = campaigns.resolve(run.id());
        System.out.println("full-disk seed " + seed + ", run " + run);
        TmpfsMount.cleanupStale(campaigns, runner);
        tmpfs = TmpfsMount.mount(work.resolve("broker-1-small-disk"), TMPFS_BYTES, runner);
        String logDirs = work.resolve("broker-1").resolve("kafka-logs").toAbsolutePath() + "," + tmpfs.directory();
        cluster = FaultCluster.start(run, 3, 3, brokerJar(), System.getProperty("java.class.path"), work,
                id -> id == 1 ? List.of("--broker.log-dirs=" + logDirs) : List.of(), START_TIMEOUT);

        try (ClusterProbe probe = new ClusterProbe(cluster.bootstrapServers())) {
            probe.createTopic(TOPIC, PARTITIONS, Duration.ofSeconds(60));
            Set<Integer> onTmpfs = partitionsIn(probe, tmpfs.directory().toString());
            Set<Integer> onDisk = new TreeSet<>(probe.partitions(TOPIC).keySet());
            onDisk.removeAll(onTmpfs);
            System.out.println("broker 1 keeps " + TOPIC + " partitions " + onTmpfs + " on the tmpfs, " + onDisk
                    + " on the disk");
            assertThat(onTmpfs).as("partitions in the small log directory").isNotEmpty();
            assertThat(onDisk).as("partitions in the other log directory").isNotEmpty();

            QueueWorkload workload = new QueueWorkload(cluster.bootstrapServers(), TOPIC, PARTITIONS);
            workload.start();
            Thread.sleep(2000 + random.nextInt(3000));

            long filled = tmpfs.fill();
            System.out.println("nemesis: filled broker 1's small log directory (" + filled + " bytes of filler)");
            String smallDir = tmpfs.directory().toString();
            await("broker 1 reports " + smallDir + " offline", () -> {
                LogDirDescription dir = probe.logDirs(1).get(smallDir);
                return dir != null && dir.error() instanceof KafkaStorageException;
            });
            await("broker 1 out of the ISR and not leading " + TOPIC + " partitions " + onTmpfs, () -> {
                Map<Integer, TopicPartitionInfo> described = probe.partitions(TOPIC);
                return onTmpfs.stream().map(described::get).allMatch(p -> p.leader() != null
                        && p.leader().id() != 1 && p.isr().stream().noneMatch(node -> node.id() == 1));
            });
            assertThat(cluster.broker(1).isAlive()).as("broker 1 stays up").isTrue();
            Map<Integer, TopicPartitionInfo> partitions = probe.partitions(TOPIC);
            for (int p : onDisk) {
                assertThat(partitions.get(p).isr()).as("ISR of %s-%d, kept on the disk", TOPIC, p)
                        .anyMatch(node -> node.id() == 1);
            }
            Thread.sleep(2000 + random.nextInt(3000));

            tmpfs.free();
            System.out.println("nemesis: freed the small log directory, restarting broker 1");
            cluster.broker(1).restart();
            cluster.broker(1).awaitStarted(START_TIMEOUT);
            probe.awaitFullIsr(TOPIC, Duration.ofSeconds(90));
            assertThat(probe.logDirs(1).get(smallDir).error()).as("the small directory after restart").isNull();
            Thread.sleep(1000 + random.nextInt(2000));

            History history = workload.finish(Duration.ofSeconds(60));
            CheckResult result = new HistoryChecker().check(history);
            System.out.print(CampaignTable.render(List.of(CampaignRow.of("full-disk", List.of(result)))));
            assertThat(result.acknowledged()).as("acknowledged writes").isPositive();
            assertThat(result.count(AnomalyKind.LOST)).as("lost: %s", result.examples()).isZero();
            assertThat(result.count(AnomalyKind.DUPLICATE)).as("duplicates: %s", result.examples()).isZero();
            assertThat(result.count(AnomalyKind.INCONSISTENT_OFFSET)).as("inconsistent: %s", result.examples())
                    .isZero();
            assertThat(result.valid()).as("anomalies: %s", result.examples()).isTrue();
        }
    }

    private static Path brokerJar() {
        return Path.of(System.getProperty("broker.jar", "../broker-service/target/broker-service-"
                + System.getProperty("project.version", "0.1.0-SNAPSHOT") + ".jar"));
    }

    /** The partitions of {@link #TOPIC} broker 1 keeps in {@code logDir}. */
    private static Set<Integer> partitionsIn(ClusterProbe probe, String logDir) throws Exception {
        LogDirDescription dir = probe.logDirs(1).get(logDir);
        assertThat(dir).as("broker 1's log directory %s", logDir).isNotNull();
        Set<Integer> partitions = new TreeSet<>();
        for (TopicPartition tp : dir.replicaInfos().keySet()) {
            if (tp.topic().equals(TOPIC)) {
                partitions.add(tp.partition());
            }
        }
        return partitions;
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(condition);
    }
}
