package io.tributary.faults.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A broker from broker-service's packaged jar ({@code java -jar}) in its node's namespace, listening on the node's
 * address, port {@value #PORT}, which it also advertises; data under {@code workDir/broker-<id>}, which survives
 * {@link #restart()}. Short timers as the in-JVM tests use (ZooKeeper session 3 s, replica lag 3 s). Not thread-safe.
 */
public final class BrokerProcess implements AutoCloseable {

    public static final int PORT = 9092;
    static final String STARTED = "Started BrokerApplication";
    /** The brokers' {@code zookeeper.session.timeout.ms}: a broker paused or cut off longer loses its session. */
    public static final Duration SESSION_TIMEOUT = Duration.ofMillis(3000);

    private final int id;
    private final NetworkNode node;
    private final NodeProcess process;

    private BrokerProcess(int id, NetworkNode node, NodeProcess process) {
        this.id = id;
        this.node = node;
        this.process = process;
    }

    /** Starts broker {@code id} without waiting; see {@link #awaitStarted(Duration)}. */
    public static BrokerProcess start(Network network, NetworkNode node, int id, Path brokerJar, String zooKeeperConnect,
                                      Path workDir, CommandRunner runner) {
        return start(network, node, id, brokerJar, zooKeeperConnect, workDir, List.of(), runner);
    }

    /**
     * Starts broker {@code id} without waiting, with {@code extraArguments} after the harness's own settings (a later
     * {@code --key=value} wins in Spring Boot), such as {@code --broker.log-dirs=...}.
     */
    public static BrokerProcess start(Network network, NetworkNode node, int id, Path brokerJar, String zooKeeperConnect,
                                      Path workDir, List<String> extraArguments, CommandRunner runner) {
        if (!Files.isRegularFile(brokerJar)) {
            throw new IllegalStateException("no broker jar at " + brokerJar.toAbsolutePath()
                    + ": package broker-service first (mvn -B -q package -pl broker-service -am -DskipTests)");
        }
        // C1 only: a broker of the campaign starts sooner and spends no core on C2 compilations, which on two cores
        // shared by five or eight JVMs made every restart (kill, rolling restart, full disk) seconds slower.
        List<String> command = NodeProcess.javaCommand("-Xmx384m", "-XX:TieredStopAtLevel=1", "-jar",
                brokerJar.toAbsolutePath().toString());
        command = new ArrayList<>(command);
        command.addAll(arguments(id, node, zooKeeperConnect, workDir.resolve("broker-" + id).toAbsolutePath()));
        command.addAll(extraArguments);
        return new BrokerProcess(id, node, NodeProcess.start(network, node, "broker-" + id, command, workDir, runner));
    }

    /** The broker's command-line settings. */
    static List<String> arguments(int id, NetworkNode node, String zooKeeperConnect, Path dataDir) {
        return List.of("--broker.id=" + id, "--broker.data-dir=" + dataDir,
                "--broker.listeners=PLAINTEXT://" + node.address() + ":" + PORT,
                "--broker.zookeeper-connect=" + zooKeeperConnect,
                "--broker.zookeeper-session-timeout-ms=" + SESSION_TIMEOUT.toMillis(),
                "--broker.replica-lag-time-max-ms=3000", "--broker.replica-fetch-backoff-ms=200",
                "--broker.offsets-topic-replication-factor=3", "--broker.offsets-topic-num-partitions=3",
                "--broker.controlled-shutdown-retry-backoff-ms=2000", "--server.port=0",
                "--broker.num-io-threads=2", "--broker.num-network-threads=2",
                "--broker.log-cleaner-dedupe-buffer-size=1048576",
                // Small segments, so the cleaner compacts the offset commits and transaction states of an hour's
                // workload (a 100 MiB segment is never cleaned, and broker 1's small log directory may hold one).
                "--broker.offsets-topic-segment-bytes=4194304",
                "--broker.transaction-state-log-segment-bytes=4194304");
    }

    /** Waits until this start of the broker logs that it started. */
    public void awaitStarted(Duration timeout) {
        process.awaitLog(STARTED, timeout);
    }

    /** {@code host:port} clients connect to. */
    public String bootstrapAddress() {
        return node.address() + ":" + PORT;
    }

    public void kill() {
        process.kill();
    }

    public void pause() {
        process.pause();
    }

    public void resume() {
        process.resume();
    }

    /**
     * Stops the broker as an operator would: SIGTERM, so it does its controlled shutdown (leaderships moved away, at
     * most the controlled-shutdown retries times their backoff), and waits up to {@code timeout} for it to exit,
     * falling back to SIGKILL with a log line.
     *
     * @return true if it exited on SIGTERM, false if it had to be SIGKILLed
     */
    public boolean stopGracefully(Duration timeout) {
        return process.terminate(timeout);
    }

    /**
     * Starts the broker again on the same data after {@link #stopGracefully(Duration)} or {@link #kill()}.
     *
     * @throws IllegalStateException if it still runs
     */
    public void startAgain() {
        process.startAgain();
    }

    /** Kills the broker if it runs and starts it again on the same data. */
    public void restart() {
        process.restart();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public int id() {
        return id;
    }

    public NetworkNode node() {
        return node;
    }

    public NodeProcess process() {
        return process;
    }

    @Override
    public void close() {
        process.close();
    }
}
