package io.tributary.adminui.testing;

import static org.awaitility.Awaitility.await;

import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Tributary broker (embedded ZooKeeper) and a REST proxy in front of it, each in its own JVM
 * started from the jars the reactor packaged (system properties {@code broker.jar} and
 * {@code rest-proxy.jar}). {@link #close()} kills both. The broker is awaited by its log line, the
 * proxy by {@code /actuator/health/readiness} answering 200 (a broker answered it). A
 * {@link #startSecured() secured} cluster authorizes with ACLs and its proxy signs callers in.
 */
public final class ClusterProcesses implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private URI restProxyUrl;
    private String bootstrapServers;
    private int brokerHttpPort;
    private String zookeeperConnect;

    private ClusterProcesses(Path dir) {
        this.dir = dir;
    }

    /** Starts the broker, then the proxy, and waits until the proxy is ready. */
    public static ClusterProcesses start() throws IOException, InterruptedException {
        ClusterProcesses cluster = new ClusterProcesses(Files.createTempDirectory("admin-ui-it"));
        try {
            int kafkaPort = freePort();
            String bootstrap = cluster.startBroker(kafkaPort, List.of("--broker.listeners=PLAINTEXT://127.0.0.1:"
                + kafkaPort));
            cluster.bootstrapServers = bootstrap;
            cluster.startRestProxy(List.of("--kafka.bootstrap-servers=" + bootstrap,
                "--kafka.zookeeper-connect=" + cluster.zookeeperConnect), "/actuator/health/readiness");
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * Two brokers (ids 0 and 1; broker 0 runs the embedded ZooKeeper, broker 1 joins it) and a proxy
     * bootstrapped from both, for moves between brokers. {@link #bootstrapServers()} names both.
     */
    public static ClusterProcesses startTwoBrokers() throws IOException, InterruptedException {
        ClusterProcesses cluster = new ClusterProcesses(Files.createTempDirectory("admin-ui-it-two"));
        try {
            int kafkaPort = freePort();
            String first = cluster.startBroker(kafkaPort, List.of("--broker.listeners=PLAINTEXT://127.0.0.1:"
                + kafkaPort, "--broker.auto-leader-rebalance-enable=false"));
            int secondPort = freePort();
            cluster.launchAndAwait("broker-1", List.of("-jar", jar("broker.jar"),
                "--broker.data-dir=" + cluster.dir.resolve("data-1"), "--broker.id=1",
                "--broker.zookeeper-connect=" + cluster.zookeeperConnect,
                "--broker.auto-create-topics-enable=false", "--broker.auto-leader-rebalance-enable=false",
                "--broker.offsets-topic-num-partitions=1", "--broker.group-initial-rebalance-delay-ms=0",
                "--server.port=" + freePort(),
                "--broker.listeners=PLAINTEXT://127.0.0.1:" + secondPort));
            cluster.bootstrapServers = first + ",127.0.0.1:" + secondPort;
            cluster.startRestProxy(List.of("--kafka.bootstrap-servers=" + cluster.bootstrapServers),
                "/actuator/health/readiness");
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * A broker that wants SCRAM-SHA-512 logins on its SASL listener and authorizes with Kafka's
     * {@code StandardAuthorizer}, and a proxy with {@code rest-proxy.authentication.method=basic} on
     * that listener: HTTP callers sign in as the brokers' users and the ACLs apply to them.
     * {@link #bootstrapServers()} is a PLAINTEXT listener whose anonymous clients are super users, for
     * the test to create users, topics and ACLs. The proxy is awaited by its liveness (its readiness
     * would need a broker login of its own).
     */
    public static ClusterProcesses startSecured() throws IOException, InterruptedException {
        ClusterProcesses cluster = new ClusterProcesses(Files.createTempDirectory("admin-ui-it-secured"));
        try {
            int saslPort = freePort();
            int internalPort = freePort();
            cluster.bootstrapServers = cluster.startBroker(internalPort, List.of(
                "--broker.listeners=SASL_PLAINTEXT://127.0.0.1:" + saslPort + ",INTERNAL://127.0.0.1:" + internalPort,
                "--broker.listener-security-protocol-map=SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT",
                "--broker.inter-broker-listener-name=INTERNAL",
                "--broker.sasl-enabled-mechanisms=SCRAM-SHA-512",
                "--broker.authorizer-class-name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "--broker.super-users=User:ANONYMOUS"));
            cluster.startRestProxy(List.of("--kafka.bootstrap-servers=127.0.0.1:" + saslPort,
                "--kafka.security-protocol=SASL_PLAINTEXT", "--rest-proxy.authentication.method=basic"),
                "/actuator/health/liveness");
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** Base URL of the REST proxy. */
    public URI restProxyUrl() {
        return restProxyUrl;
    }

    /** The broker's HTTP (actuator) port, where its /actuator/prometheus is. */
    public int brokerHttpPort() {
        return brokerHttpPort;
    }

    /** The broker's embedded ZooKeeper, where the REST proxy registers for discovery. */
    public String zookeeperConnect() {
        return zookeeperConnect;
    }

    /** The broker's Kafka address, host:port. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Starts the broker with these listener settings; answers {@code 127.0.0.1:kafkaPort}. */
    private String startBroker(int kafkaPort, List<String> listeners) throws IOException, InterruptedException {
        String jar = jar("broker.jar");
        brokerHttpPort = freePort();
        int zookeeperPort = freePort();
        zookeeperConnect = "127.0.0.1:" + zookeeperPort;
        List<String> args = new ArrayList<>(List.of("-jar", jar,
            "--broker.data-dir=" + dir.resolve("data"),
            "--broker.embedded-zookeeper-port=" + zookeeperPort,
            "--broker.auto-create-topics-enable=false",
            "--broker.offsets-topic-num-partitions=1",
            // A new consumer group rebalances at once, not 3 s after its first member joined (KIP-134's delay):
            // the steps' groups have one member each.
            "--broker.group-initial-rebalance-delay-ms=0",
            // Share consumers (KIP-932) learn their assignment on heartbeats: every 5 s by default.
            "--broker.group-share-heartbeat-interval-ms=500",
            "--server.port=" + brokerHttpPort));
        args.addAll(listeners);
        launchAndAwait("broker", args);
        return "127.0.0.1:" + kafkaPort;
    }

    /** Launches a broker JVM with these arguments, its log {@code <name>.log}, and waits until it has started. */
    private void launchAndAwait(String name, List<String> args) throws IOException {
        Path log = dir.resolve(name + ".log");
        Process broker = launch(log, args.toArray(String[]::new));
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
                if (!text.contains("Started BrokerApplication") && !broker.isAlive()) {
                    throw new IllegalStateException("The broker exited with " + broker.exitValue() + ":\n" + text);
                }
                return text.contains("Started BrokerApplication");
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("The broker did not start within " + START_TIMEOUT + ":\n"
                + Files.readString(log));
        }
    }

    /** Starts the proxy with these Kafka settings and waits until {@code probe} answers 200. */
    private void startRestProxy(List<String> kafka, String probe) throws IOException, InterruptedException {
        String jar = jar("rest-proxy.jar");
        int port = freePort();
        Path log = dir.resolve("rest-proxy.log");
        List<String> args = new ArrayList<>(List.of("-jar", jar, "--server.port=" + port,
            "--server.address=127.0.0.1"));
        args.addAll(kafka);
        Process proxy = launch(log, args.toArray(String[]::new));
        restProxyUrl = URI.create("http://127.0.0.1:" + port);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(restProxyUrl.resolve(probe))
            .timeout(Duration.ofSeconds(5)).build();
        try {
            await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(300)).until(() -> {
                if (!proxy.isAlive()) {
                    throw new IllegalStateException("The REST proxy exited with " + proxy.exitValue() + ":\n"
                        + Files.readString(log));
                }
                try {
                    return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException notYet) {
                    return false; // not listening yet
                }
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("The REST proxy was not ready within " + START_TIMEOUT + ":\n"
                + Files.readString(log));
        }
    }

    private Process launch(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        List<String> flags = testJvmFlags();
        command.addAll(flags.isEmpty() ? List.of("-XX:TieredStopAtLevel=1") : flags); // C1 only when unset
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        processes.add(process);
        return process;
    }

    /**
     * The build's {@code test.jvm.flags} (the parent pom's options for short-lived JVMs) for the
     * JVMs tests start, in order; none when the property is unset.
     */
    public static List<String> testJvmFlags() {
        String flags = System.getProperty("test.jvm.flags", "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    private static String jar(String property) {
        String jar = System.getProperty(property);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException(property + " (" + jar + ") does not exist: package broker-service and "
                + "rest-proxy first (mvn -B -DskipTests package -pl broker-service,rest-proxy)");
        }
        return jar;
    }

    private static int freePort() {
        return TestPorts.freePort();
    }

    /** Kills the proxy, then the broker. */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process process = processes.get(i);
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
