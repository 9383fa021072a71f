package io.tributary.faults.nemesis;

import io.tributary.faults.harness.BrokerProcess;
import io.tributary.faults.harness.ClusterProbe;
import io.tributary.faults.harness.FaultCluster;
import io.tributary.faults.harness.NetworkNode;
import io.tributary.faults.harness.ZooKeeperEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * What a {@link Nemesis} acts on: the cluster, a probe to find leaders and the controller, the workload's topic and its
 * partition count, and how long to wait for an answer or a restart. Immutable; the cluster it names is not.
 */
public record NemesisContext(FaultCluster cluster, ClusterProbe probe, String topic, int partitions, Duration timeout) {

    public NemesisContext {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(timeout, "timeout");
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + topic + " has " + partitions + " partitions");
        }
    }

    /** A partition of the topic drawn from {@code random}. */
    public int randomPartition(Random random) {
        return random.nextInt(partitions);
    }

    /** The id of the current leader of the topic's {@code partition}. */
    public int leader(int partition) {
        return probe.leader(topic, partition, timeout);
    }

    /** The ids of the replicas of the topic's {@code partition} other than {@code leader}. */
    public List<Integer> followers(int partition, int leader) {
        List<Integer> followers = new ArrayList<>(probe.replicas(topic, partition, timeout));
        followers.remove(Integer.valueOf(leader));
        return followers;
    }

    /** The id of the controller. */
    public int controller() {
        return probe.controller(timeout);
    }

    /** The id of the ZooKeeper server that leads the ensemble now. */
    public int zooKeeperLeader() {
        ZooKeeperEnsemble ensemble = cluster.zooKeeper();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var leader = ensemble.leader();
            if (leader.isPresent()) {
                return leader.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no ZooKeeper server says it leads within " + timeout);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** The node of broker {@code id}. */
    public NetworkNode brokerNode(int id) {
        return cluster.broker(id).node();
    }

    /** The nodes of brokers {@code ids}. */
    public Set<NetworkNode> brokerNodes(List<Integer> ids) {
        Set<NetworkNode> nodes = new LinkedHashSet<>();
        ids.forEach(id -> nodes.add(brokerNode(id)));
        return nodes;
    }

    /** The ids of every broker, in order. */
    public List<Integer> brokerIds() {
        return cluster.brokers().stream().map(BrokerProcess::id).toList();
    }

    /** The nodes of ZooKeeper servers {@code ids}. */
    public Set<NetworkNode> zooKeeperNodes(List<Integer> ids) {
        Set<NetworkNode> nodes = new LinkedHashSet<>();
        ids.forEach(id -> nodes.add(cluster.zooKeeper().node(id)));
        return nodes;
    }

    /** The ids of every ZooKeeper server, in order. */
    public List<Integer> zooKeeperIds() {
        return cluster.zooKeeper().ids();
    }

    /** {@code count} distinct elements of {@code from}, drawn from {@code random}. */
    public static <T> List<T> pick(List<T> from, int count, Random random) {
        List<T> shuffled = new ArrayList<>(from);
        java.util.Collections.shuffle(shuffled, random);
        return List.copyOf(shuffled.subList(0, count));
    }
}
