package io.tributary.faults.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * A campaign's cluster: a {@link Network} with ZooKeeper servers on nodes {@code n1..nZ} and brokers (ids 1..B) on the
 * nodes after them, every process in its own namespace; broker 1 has a second log directory on a small tmpfs
 * ({@link #smallLogDir()}). {@link #close()} kills every process and removes the network,
 * also from a JVM shutdown hook when the test is interrupted. Not thread-safe.
 */
public final class FaultCluster implements AutoCloseable {

    /** The broker whose second log directory is a small tmpfs, which the full-disk nemesis fills. */
    public static final int SMALL_LOG_DIR_BROKER = 1;
    /** The size of that tmpfs: room for a long campaign's data there, filled at once by the nemesis. */
    static final long SMALL_LOG_DIR_BYTES = 128L * 1024 * 1024;

    private final Network network;
    private final ZooKeeperEnsemble zooKeeper;
    private TmpfsMount smallLogDir;
    private final Map<Integer, BrokerProcess> brokers = new TreeMap<>();
    private final Thread shutdownHook = new Thread(this::closeQuietly, "fault-cluster-cleanup");
    private boolean closed;

    private FaultCluster(Network network, ZooKeeperEnsemble zooKeeper) {
        this.network = network;
        this.zooKeeper = zooKeeper;
    }

    /**
     * Removes stale runs' leftovers, builds the network, starts the ensemble and, once it has a quorum, the brokers;
     * returns when every broker has started.
     */
    public static FaultCluster start(RunId run, int zooKeepers, int brokerCount, Path brokerJar, String zooKeeperClasspath,
                                     Path workDir, Duration timeout) {
        return start(run, zooKeepers, brokerCount, brokerJar, zooKeeperClasspath, workDir, id -> List.of(), timeout);
    }

    /** As {@link #start(RunId, int, int, Path, String, Path, Duration)}, each broker with its extra arguments. */
    public static FaultCluster start(RunId run, int zooKeepers, int brokerCount, Path brokerJar, String zooKeeperClasspath,
                                     Path workDir, IntFunction<List<String>> brokerArguments, Duration timeout) {
        CommandRunner runner = CommandRunner.processes();
        Network.cleanupStale(runner, Network.PREFIX);
        Network network = Network.create(runner, run.id(), run.subnet(), zooKeepers + brokerCount);
        List<NetworkNode> nodes = network.nodes();
        FaultCluster cluster;
        try {
            cluster = new FaultCluster(network, ZooKeeperEnsemble.start(network, nodes.subList(0, zooKeepers), workDir,
                    zooKeeperClasspath, runner));
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            TmpfsMount.cleanupStale(workDir.toAbsolutePath().getParent(), runner);
            cluster.smallLogDir = TmpfsMount.mount(workDir.resolve("broker-" + SMALL_LOG_DIR_BROKER + "-small-disk"),
                    SMALL_LOG_DIR_BYTES, runner);
            String logDirs = workDir.resolve("broker-" + SMALL_LOG_DIR_BROKER).resolve("kafka-logs").toAbsolutePath()
                    + "," + cluster.smallLogDir.directory();
            cluster.zooKeeper.awaitQuorum(timeout);
            for (int id = 1; id <= brokerCount; id++) {
                List<String> arguments = new ArrayList<>();
                if (id == SMALL_LOG_DIR_BROKER) {
                    arguments.add("--broker.log-dirs=" + logDirs);
                }
                arguments.addAll(brokerArguments.apply(id));
                cluster.brokers.put(id, BrokerProcess.start(network, nodes.get(zooKeepers + id - 1), id, brokerJar,
                        cluster.zooKeeper.connectString(), workDir, arguments, runner));
            }
            cluster.brokers.values().forEach(b -> b.awaitStarted(timeout));
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The brokers' addresses, for clients in the host namespace. */
    public String bootstrapServers() {
        return brokers.values().stream().map(BrokerProcess::bootstrapAddress).collect(Collectors.joining(","));
    }

    public BrokerProcess broker(int id) {
        BrokerProcess broker = brokers.get(id);
        if (broker == null) {
            throw new IllegalArgumentException("no broker " + id + " in " + brokers.keySet());
        }
        return broker;
    }

    public List<BrokerProcess> brokers() {
        return new ArrayList<>(brokers.values());
    }

    /**
     * Broker {@value #SMALL_LOG_DIR_BROKER}'s second log directory, a {@value #SMALL_LOG_DIR_BYTES}-byte tmpfs (the
     * first is on the disk, under the work directory); its partitions are placed by Kafka's rule, in the directory
     * with the fewest.
     */
    public TmpfsMount smallLogDir() {
        return smallLogDir;
    }

    public ZooKeeperEnsemble zooKeeper() {
        return zooKeeper;
    }

    public Network network() {
        return network;
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            // shutting down: nothing more to do
        }
    }

    /** Kills brokers, then ZooKeeper servers, then unmounts the small log directory and removes the network. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            brokers.values().forEach(BrokerProcess::close);
            zooKeeper.close();
        } finally {
            try {
                if (smallLogDir != null) {
                    smallLogDir.close();
                }
            } catch (RuntimeException e) {
                // a stale mount is unmounted by the next start's clean-up
            }
            network.close();
            if (Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down; the hook runs anyway
                }
            }
        }
    }
}
