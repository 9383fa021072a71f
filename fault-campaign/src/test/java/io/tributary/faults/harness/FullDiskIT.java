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
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
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

        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            awaitFullIsr(admin, Duration.ofSeconds(60));
            Set<Integer> onTmpfs = partitionsIn(admin, tmpfs.directory().toString());
            Set<Integer> onDisk = new TreeSet<>(List.of(0, 1, 2, 3));
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
            awaitOffline(admin, tmpfs.directory().toString(), Duration.ofSeconds(60));
            awaitReplicasOutOfSync(admin, onTmpfs, Duration.ofSeconds(60));
            assertThat(cluster.broker(1).isAlive()).as("broker 1 stays up").isTrue();
            Map<Integer, TopicPartitionInfo> partitions = describe(admin);
            for (int p : onDisk) {
                assertThat(partitions.get(p).isr()).as("ISR of %s-%d, kept on the disk", TOPIC, p)
                        .anyMatch(node -> node.id() == 1);
            }
            Thread.sleep(2000 + random.nextInt(3000));

            tmpfs.free();
            System.out.println("nemesis: freed the small log directory, restarting broker 1");
            cluster.broker(1).restart();
            cluster.broker(1).awaitStarted(START_TIMEOUT);
            awaitFullIsr(admin, Duration.ofSeconds(90));
            assertThat(admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS).get(1)
                    .get(tmpfs.directory().toString()).error()).as("the small directory after restart").isNull();
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

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        return Admin.create(p);
    }

    /** The partitions of {@link #TOPIC} broker 1 keeps in {@code logDir}. */
    private static Set<Integer> partitionsIn(Admin admin, String logDir) throws Exception {
        LogDirDescription dir = admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS).get(1)
                .get(logDir);
        assertThat(dir).as("broker 1's log directory %s", logDir).isNotNull();
        Set<Integer> partitions = new TreeSet<>();
        for (TopicPartition tp : dir.replicaInfos().keySet()) {
            if (tp.topic().equals(TOPIC)) {
                partitions.add(tp.partition());
            }
        }
        return partitions;
    }

    private static void awaitOffline(Admin admin, String logDir, Duration timeout) {
        awaitCondition("broker 1 reports " + logDir + " offline", timeout, () -> {
            LogDirDescription dir = admin.describeLogDirs(List.of(1)).allDescriptions().get(10, TimeUnit.SECONDS)
                    .get(1).get(logDir);
            return dir != null && dir.error() instanceof KafkaStorageException;
        });
    }

    private static void awaitReplicasOutOfSync(Admin admin, Set<Integer> partitions, Duration timeout)
            {
        awaitCondition("broker 1 out of the ISR and not leading " + TOPIC + " partitions " + partitions, timeout,
                () -> {
                    Map<Integer, TopicPartitionInfo> described = describe(admin);
                    return partitions.stream().map(described::get).allMatch(p -> p.leader() != null
                            && p.leader().id() != 1 && p.isr().stream().noneMatch(node -> node.id() == 1));
                });
    }

    private static void awaitFullIsr(Admin admin, Duration timeout) {
        awaitCondition(TOPIC + " fully in sync", timeout, () -> describe(admin).values().stream()
                .allMatch(p -> p.leader() != null && p.isr().size() == 3));
    }

    private static Map<Integer, TopicPartitionInfo> describe(Admin admin) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(TOPIC);
        Map<Integer, TopicPartitionInfo> byPartition = new java.util.TreeMap<>();
        d.partitions().forEach(p -> byPartition.put(p.partition(), p));
        return byPartition;
    }

    private static void awaitCondition(String what, Duration timeout, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(condition);
    }
}
