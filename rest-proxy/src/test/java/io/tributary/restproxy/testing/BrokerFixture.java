package io.tributary.restproxy.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * One real Tributary broker (embedded ZooKeeper) started from the broker-service jar in its own
 * JVM, shared by every test of this JVM and killed at exit. The jar comes from the system
 * property {@code broker.jar}, which the build points at the reactor's broker-service jar.
 *
 * <p>Topic auto-creation is off, so tests create what they use and an unknown topic stays unknown.
 */
public final class BrokerFixture {

    private static BrokerFixture instance;

    private final Process process;
    private final Path logFile;
    private final String bootstrapServers;
    private final String zookeeperConnect;

    private BrokerFixture(Process process, Path logFile, String bootstrapServers, String zookeeperConnect) {
        this.process = process;
        this.logFile = logFile;
        this.bootstrapServers = bootstrapServers;
        this.zookeeperConnect = zookeeperConnect;
    }

    /** The shared broker, started on first use. */
    public static synchronized BrokerFixture get() {
        if (instance == null) {
            try {
                instance = start();
            } catch (IOException e) {
                throw new IllegalStateException("Could not start the broker", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            BrokerFixture started = instance;
            Runtime.getRuntime().addShutdownHook(new Thread(started::kill));
        }
        return instance;
    }

    /** {@code host:port} of the broker's Kafka listener. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** {@code host:port} of the broker's embedded ZooKeeper. */
    public String zookeeperConnect() {
        return zookeeperConnect;
    }

    /** Creates {@code topic} with {@code partitions} partitions, replication factor 1. */
    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    /** Creates {@code topic} with topic configs. */
    public void createTopic(String topic, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs))).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("Could not create topic " + topic, e);
        }
    }

    /** A new Admin client for the broker; close it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    private static BrokerFixture start() throws IOException, InterruptedException {
        String jar = System.getProperty("broker.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("broker.jar (" + jar + ") does not exist: build broker-service first "
                + "(mvn -B verify from the top directory builds it before these tests)");
        }
        Path dir = Files.createTempDirectory("rest-proxy-test-broker");
        int kafkaPort = freePort();
        int zookeeperPort = freePort();
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:TieredStopAtLevel=1",
            "-jar", jar,
            "--broker.data-dir=" + dir.resolve("data"),
            "--broker.listeners=PLAINTEXT://127.0.0.1:" + kafkaPort,
            "--broker.embedded-zookeeper-port=" + zookeeperPort,
            "--broker.auto-create-topics-enable=false",
            "--broker.offsets-topic-num-partitions=5",
            "--broker.group-initial-rebalance-delay-ms=0",
            "--broker.group-min-session-timeout-ms=1000",
            "--server.port=0"));
        Path log = dir.resolve("broker.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        BrokerFixture broker = new BrokerFixture(process, log, "127.0.0.1:" + kafkaPort,
            "127.0.0.1:" + zookeeperPort);
        broker.awaitStarted();
        return broker;
    }

    private void awaitStarted() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            String log = Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
            if (log.contains("Started BrokerApplication")) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("Broker exited with " + process.exitValue() + ":\n" + log);
            }
            Thread.sleep(100);
        }
        kill();
        throw new IllegalStateException("Broker did not start within 90 s:\n" + Files.readString(logFile));
    }

    private void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
