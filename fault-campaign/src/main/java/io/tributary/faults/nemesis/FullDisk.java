package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import io.tributary.faults.harness.FaultCluster;
import io.tributary.faults.harness.TmpfsMount;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * A full disk (KIP-112): another writer fills broker {@value FaultCluster#SMALL_LOG_DIR_BROKER}'s small log directory
 * until it has no space left. The broker must take that directory offline (DescribeLogDirs answers
 * KAFKA_STORAGE_ERROR for it) and stay up, its replicas there leave the ISR and their leadership, and its replicas of
 * the topic in its other directory (as listed before the fill) stay in sync; {@link #start} checks all of it and fails the fault otherwise. The
 * heal frees the space and restarts the broker, whose replicas there then catch up (the campaign waits for the full
 * ISR).
 */
public final class FullDisk implements Nemesis {

    private static final int BROKER = FaultCluster.SMALL_LOG_DIR_BROKER;

    private TmpfsMount filled;

    @Override
    public String kind() {
        return "full-disk";
    }

    @Override
    public String start(NemesisContext context, Random random) {
        TmpfsMount disk = context.cluster().smallLogDir();
        String dir = disk.directory().toString();
        Set<Integer> there = new TreeSet<>();
        Set<Integer> elsewhere = new TreeSet<>();
        placeTopicPartitions(context, dir, there, elsewhere);
        if (there.isEmpty() && !holdsCoordinatorPartitions(context, dir)) {
            throw new IllegalStateException("broker " + BROKER + " keeps no partition of " + context.topic()
                    + ", __consumer_offsets or __transaction_state in " + dir
                    + ": a full disk there would change nothing the workload sees");
        }
        filled = disk;
        long bytes = disk.fill();
        Eventually.await(context.timeout(), "broker " + BROKER + " reporting " + dir + " offline", () -> {
            LogDirDescription description = context.probe().logDirs(BROKER).get(dir);
            return description != null && description.error() instanceof KafkaStorageException ? null
                    : "directory " + (description == null ? "unknown" : "error " + description.error());
        });
        Eventually.await(context.timeout(), "broker " + BROKER + " out of the ISR and not leading " + context.topic()
                + " partitions " + there, () -> {
                    Map<Integer, TopicPartitionInfo> partitions = context.probe().partitions(context.topic());
                    return there.stream().map(partitions::get).allMatch(p -> p.leader() != null
                            && p.leader().id() != BROKER && p.isr().stream().noneMatch(n -> n.id() == BROKER))
                            ? null : partitions.toString();
                });
        BrokerProcess broker = context.cluster().broker(BROKER);
        if (!broker.isAlive()) {
            throw new IllegalStateException("broker " + BROKER + " exited when its log directory " + dir + " filled up");
        }
        Map<Integer, TopicPartitionInfo> partitions = context.probe().partitions(context.topic());
        for (int partition : elsewhere) {
            if (partitions.get(partition).isr().stream().noneMatch(n -> n.id() == BROKER)) {
                throw new IllegalStateException("broker " + BROKER + " left the ISR of " + context.topic() + "-"
                        + partition + ", which it keeps in its other log directory");
            }
        }
        return "filled broker " + BROKER + "'s small log directory (" + bytes + " bytes): offline, " + context.topic()
                + " partitions " + there + " led elsewhere without it, " + elsewhere + " (on its disk) still in sync";
    }

    @Override
    public void heal(NemesisContext context) {
        if (filled != null) {
            filled.free();
            BrokerProcess broker = context.cluster().broker(BROKER);
            broker.restart();
            broker.awaitStarted(context.timeout());
            filled = null;
        }
    }

    /**
     * Sorts the partitions of the topic broker {@value #BROKER} keeps into those in log directory {@code dir} and
     * those in its other directories, once every directory is online; with more brokers than replicas it keeps only
     * some partitions.
     */
    private static void placeTopicPartitions(NemesisContext context, String dir, Set<Integer> inDir,
                                             Set<Integer> elsewhere) {
        Eventually.await(context.timeout(), "broker " + BROKER + "'s log directories, all online", () -> {
            Map<String, LogDirDescription> dirs = context.probe().logDirs(BROKER);
            if (dirs.get(dir) == null || dirs.values().stream().anyMatch(d -> d.error() != null)) {
                return dirs.toString();
            }
            inDir.clear();
            elsewhere.clear();
            dirs.forEach((path, description) -> description.replicaInfos().keySet().stream()
                    .filter(tp -> tp.topic().equals(context.topic()))
                    .forEach(tp -> (path.equals(dir) ? inDir : elsewhere).add(tp.partition())));
            return null;
        });
    }

    /** Whether {@code dir} keeps a partition of the group or transaction coordinators, which the workload writes. */
    private static boolean holdsCoordinatorPartitions(NemesisContext context, String dir) {
        return context.probe().logDirs(BROKER).get(dir).replicaInfos().keySet().stream()
                .anyMatch(tp -> tp.topic().equals("__consumer_offsets") || tp.topic().equals("__transaction_state"));
    }
}
