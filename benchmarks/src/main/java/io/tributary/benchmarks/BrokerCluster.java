package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Several broker processes of one cluster on this machine, measured as one: clients bootstrap from
 * all of them, the CPU is their sum, and its topics are replicated to every broker with
 * {@code min.insync.replicas} one less ({@code acks=all} waits for one follower besides the leader).
 * Apache Kafka's is a static KRaft quorum of combined broker+controller nodes
 * ({@link KafkaBroker#quorum}); Tributary's, brokers on one ZooKeeper embedded in broker 0
 * ({@link TributaryBroker#ofCluster}).
 */
final class BrokerCluster implements SystemUnderTest {

    private final String name;
    private final List<BrokerUnderTest> members;
    /** Whether every member is launched before waiting for any (KRaft voters), else the first goes alone first. */
    private final boolean launchTogether;

    private BrokerCluster(String name, List<BrokerUnderTest> members, boolean launchTogether) {
        this.name = name;
        this.members = List.copyOf(members);
        this.launchTogether = launchTogether;
    }

    /** Apache Kafka: {@code size} combined KRaft nodes, each a voter, in directories under {@code dir}. */
    static BrokerCluster kafka(int size, Path dir, JavaLauncher launcher, String heap, BenchmarkSecurity security)
            throws IOException {
        return new BrokerCluster("kafka", new ArrayList<>(KafkaBroker.quorum(size, dir, launcher, heap, security)), true);
    }

    /**
     * Tributary from {@code jar}: {@code size} brokers (ids 0 to {@code size - 1}) named {@code name-0}...,
     * broker 0 embedding the ZooKeeper the others use.
     */
    static BrokerCluster tributary(String name, int size, Path dir, JavaLauncher launcher, Path jar, String heap,
                                   BenchmarkSecurity security) throws IOException {
        int zooKeeperPort = BrokerUnderTest.freePort();
        List<BrokerUnderTest> members = new ArrayList<>();
        for (int id = 0; id < size; id++) {
            members.add(TributaryBroker.ofCluster(name + "-" + id, dir.resolve(name + "-" + id), launcher, jar, heap,
                    security, id, zooKeeperPort));
        }
        return new BrokerCluster(name, members, false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String bootstrap() {
        return members.stream().map(BrokerUnderTest::bootstrap).collect(Collectors.joining(","));
    }

    @Override
    public double cpuSeconds() {
        return members.stream().mapToDouble(BrokerUnderTest::cpuSeconds).sum();
    }

    @Override
    public double jitCpuSeconds() {
        return members.stream().mapToDouble(BrokerUnderTest::jitCpuSeconds).sum();
    }

    @Override
    public boolean isAlive() {
        return members.stream().allMatch(BrokerUnderTest::isAlive);
    }

    @Override
    public String logTail(int lines) {
        return members.stream().map(m -> m.logTail(lines)).collect(Collectors.joining("  "));
    }

    @Override
    public String describe() {
        return members.stream().map(m -> m.name() + " " + m.describe()).collect(Collectors.joining("; "));
    }

    /** Launches the members (see {@link #launchTogether}), then waits until the first sees all of them. */
    @Override
    public Duration start() throws IOException, InterruptedException {
        Instant begin = Instant.now();
        List<BrokerUnderTest> rest = members;
        if (!launchTogether) {
            members.get(0).start(); // the ZooKeeper the others connect to
            rest = members.subList(1, members.size());
        }
        for (BrokerUnderTest member : rest) {
            member.launchProcess();
        }
        for (BrokerUnderTest member : rest) {
            member.awaitAdmin(begin);
        }
        Instant deadline = begin.plus(BrokerUnderTest.STARTUP_TIMEOUT);
        int seen;
        while ((seen = members.get(0).brokersSeen()) < members.size()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(name + ": " + seen + " of " + members.size() + " brokers in the cluster"
                        + " after " + BrokerUnderTest.STARTUP_TIMEOUT + "\n  " + logTail(20));
            }
            Thread.sleep(500);
        }
        return Duration.between(begin, Instant.now());
    }

    @Override
    public void stop(Duration grace) {
        members.forEach(m -> m.stop(grace));
    }

    /** Replication factor: every broker; {@code min.insync.replicas} one less, unless {@code configs} sets it. */
    @Override
    public void createTopic(String topic, int partitions, Map<String, String> configs) throws Exception {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("min.insync.replicas", Integer.toString(minInsyncReplicas()));
        all.putAll(configs);
        members.get(0).createTopic(topic, partitions, (short) members.size(), all);
    }

    @Override
    public void readShareGroupFromEarliest(String group) throws Exception {
        members.get(0).readShareGroupFromEarliest(group);
    }

    /** The brokers of the cluster (the replication factor of its topics). */
    int size() {
        return members.size();
    }

    /** {@code min.insync.replicas} of its topics: one less than the replication factor, at least 1. */
    int minInsyncReplicas() {
        return Math.max(1, members.size() - 1);
    }
}
