package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.testing.TestCluster;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log directory that fails with an I/O error goes offline (KIP-112): its partitions lose
 * leadership and ISR membership on that broker, the broker keeps serving its other directory,
 * DescribeLogDirs reports the directory with KAFKA_STORAGE_ERROR, and no acknowledged record is
 * lost. The failure is real: the directory is deleted under the broker, so the next segment roll
 * cannot create its files.
 */
class OfflineLogDirTest {

    @TempDir
    Path dir;

    @Test
    void aFailedLogDirectoryGoesOfflineAndItsPartitionsMoveToOtherReplicas() throws Exception {
        String logDirs = dir.resolve("broker-{id}").resolve("disk-a") + "," + dir.resolve("broker-{id}").resolve("disk-b");
        try (TestCluster cluster = TestCluster.start(dir, 3, Map.of("broker.log-dirs", logDirs))) {
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic("disks", 2, (short) 3)
                    .configs(Map.of("segment.ms", "100", "min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
            }
            TopicPartition p0 = new TopicPartition("disks", 0);
            TopicPartition p1 = new TopicPartition("disks", 1);
            int victim = cluster.awaitLeader(p0);
            cluster.awaitLeader(p1);
            cluster.awaitIsr(p0, List.of(0, 1, 2));
            cluster.awaitIsr(p1, List.of(0, 1, 2));
            File failing = cluster.replica(victim, p0).orElseThrow().log().orElseThrow().dir().getParentFile();
            File healthy = cluster.replica(victim, p1).orElseThrow().log().orElseThrow().dir().getParentFile();
            assertThat(failing).isNotEqualTo(healthy);

            List<String> acked = new ArrayList<>();
            try (KafkaProducer<byte[], byte[]> producer = cluster.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
                long before = producer.send(new ProducerRecord<>("disks", 0, null, bytes("before")))
                    .get(30, TimeUnit.SECONDS).timestamp();
                acked.add("before");
                deleteRecursively(failing.toPath());
                // Stamped 1 s after "before", past segment.ms: the next append rolls (the age of a segment is told by
                // its records' timestamps), and the new segment cannot be created.
                long later = before + 1000;
                for (int i = 0; i < 20; i++) {
                    producer.send(new ProducerRecord<>("disks", 0, later, null, bytes("after-" + i)))
                        .get(60, TimeUnit.SECONDS);
                    acked.add("after-" + i);
                }
                producer.send(new ProducerRecord<>("disks", 1, null, bytes("other-disk"))).get(30, TimeUnit.SECONDS);
            }

            assertThat(cluster.broker(victim).logManager().offlineLogDirs()).containsExactly(failing);
            assertThat(cluster.broker(victim).meterRegistry().get("kafka.log.logmanager.offlinelogdirectorycount").gauge()
                .value()).as("OfflineLogDirectoryCount").isEqualTo(1.0);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(cluster.partitionState(p0).leader()).isNotEqualTo(victim);
                assertThat(cluster.partitionState(p0).isr()).doesNotContain(victim).hasSize(2);
            });
            // The other directory is still served: the victim stays in p1's ISR.
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() ->
                cluster.partitionState(p1).isr().contains(victim));
            assertThat(cluster.broker(victim).replicaManager().offlinePartitions()).containsExactly(p0);

            try (Admin admin = cluster.admin()) {
                Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(victim)).descriptions().get(victim)
                    .get(30, TimeUnit.SECONDS);
                assertThat(dirs.get(failing.getAbsolutePath()).error()).isInstanceOf(KafkaStorageException.class);
                assertThat(dirs.get(healthy.getAbsolutePath()).error()).isNull();
                assertThat(dirs.get(healthy.getAbsolutePath()).replicaInfos()).containsKey(p1);
            }
            List<String> consumed = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = cluster.consumer(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                    "earliest"))) {
                // Metadata names the victim's replica of p0 offline.
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    consumer.partitionsFor("disks").stream().filter(p -> p.partition() == 0).findFirst().orElseThrow()
                        .offlineReplicas()).extracting(org.apache.kafka.common.Node::id).containsExactly(victim));
                consumer.assign(List.of(p0));
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> consumed.add(new String(r.value(),
                        StandardCharsets.UTF_8)));
                    return consumed.size() >= acked.size();
                });
            }
            assertThat(consumed).containsExactlyElementsOf(acked);
            assertThat(Set.copyOf(cluster.partitionState(p1).isr())).containsExactlyInAnyOrder(0, 1, 2);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteRecursively(Path path) throws Exception {
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
