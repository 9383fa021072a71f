package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import io.tributary.faults.harness.ClusterProbe;
import io.tributary.faults.harness.FaultCluster;
import io.tributary.faults.harness.TmpfsMount;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.KafkaStorageException;

/**
 * A full disk (KIP-112): another writer fills broker {@value FaultCluster#SMALL_LOG_DIR_BROKER}'s small log directory
 * until it has no space left. The broker must take that directory offline (DescribeLogDirs answers
 * KAFKA_STORAGE_ERROR for it) and stay up, its replicas there leave the ISR and their leadership, and its replicas of
 * the topic in its other directory stay in sync; {@link #start} checks all of it and fails the fault otherwise. The
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
        Set<Integer> there = topicPartitionsIn(context, dir);
        if (there.isEmpty()) {
            throw new IllegalStateException("broker " + BROKER + " keeps no partition of " + context.topic() + " in "
                    + dir + ": a full disk there would change nothing the workload sees");
        }
        filled = disk;
        long bytes = disk.fill();
        await(context, "broker " + BROKER + " to report " + dir + " offline", () -> {
            LogDirDescription description = context.probe().logDirs(BROKER).get(dir);
            return description != null && description.error() instanceof KafkaStorageException;
        });
        await(context, "broker " + BROKER + " out of the ISR and not leading " + context.topic() + " partitions "
                + there, () -> {
                    Map<Integer, TopicPartitionInfo> partitions = context.probe().partitions(context.topic());
                    return there.stream().map(partitions::get).allMatch(p -> p.leader() != null
                            && p.leader().id() != BROKER && p.isr().stream().noneMatch(n -> n.id() == BROKER));
                });
        BrokerProcess broker = context.cluster().broker(BROKER);
        if (!broker.isAlive()) {
            throw new IllegalStateException("broker " + BROKER + " exited when its log directory " + dir + " filled up");
        }
        try {
            Map<Integer, TopicPartitionInfo> partitions = context.probe().partitions(context.topic());
            for (var entry : partitions.entrySet()) {
                if (!there.contains(entry.getKey())
                        && entry.getValue().isr().stream().noneMatch(n -> n.id() == BROKER)) {
                    throw new IllegalStateException("broker " + BROKER + " left the ISR of " + context.topic() + "-"
                            + entry.getKey() + ", which it keeps in its other log directory");
                }
            }
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + context.topic(), e);
        }
        return "filled broker " + BROKER + "'s small log directory (" + bytes + " bytes): offline, " + context.topic()
                + " partitions " + there + " led elsewhere without it, the rest still in sync";
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

    private static Set<Integer> topicPartitionsIn(NemesisContext context, String dir) {
        Set<Integer> partitions = new TreeSet<>();
        await(context, "broker " + BROKER + "'s log directories", () -> {
            LogDirDescription description = context.probe().logDirs(BROKER).get(dir);
            if (description == null || description.error() != null) {
                return false;
            }
            partitions.clear();
            for (TopicPartition tp : description.replicaInfos().keySet()) {
                if (tp.topic().equals(context.topic())) {
                    partitions.add(tp.partition());
                }
            }
            return true;
        });
        return partitions;
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Waits up to the context's timeout until {@code condition} holds. */
    private static void await(NemesisContext context, String what, Condition condition) {
        ClusterProbe.retry(context.timeout(), what, () -> condition.holds() ? Boolean.TRUE : null);
    }
}
