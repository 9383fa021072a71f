package io.tributary.restproxy.testing;

import static org.awaitility.Awaitility.await;

import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One real Tributary broker (embedded ZooKeeper) started from the broker-service jar in its own
 * JVM, shared by every test of this JVM and killed at exit. The jar comes from the system
 * property {@code broker.jar}, which the build points at the reactor's broker-service jar.
 *
 * <p>Topic auto-creation is off, so tests create what they use and an unknown topic stays unknown.
 *
 * <p>{@link #startSasl()} starts another, unshared broker whose clients must log in (SCRAM-SHA-512)
 * and whose requests pass Kafka's {@code StandardAuthorizer}; its test closes it. {@link #sharedSasl()}
 * is one such broker shared by the secured tests of this JVM (each with users, topics and ACLs of its own)
 * and killed at exit.
 */
public final class BrokerFixture implements AutoCloseable {

    /** The super user of {@link #startSasl()} brokers (besides the PLAINTEXT internal listener's ANONYMOUS). */
    public static final String SUPER_USER = "admin";

    /** The password of {@value #SUPER_USER} on the {@link #sharedSasl()} broker. */
    public static final String SUPER_USER_PASSWORD = "admin-pw-Xq81";

    private static BrokerFixture instance;
    private static BrokerFixture saslInstance;

    private final Process process;
    private final Path logFile;
    private final String bootstrapServers;
    private final String zookeeperConnect;
    /** The PLAINTEXT listener where ANONYMOUS is a super user, or the only listener. */
    private final String internalServers;

    private BrokerFixture(Process process, Path logFile, String bootstrapServers, String zookeeperConnect,
            String internalServers) {
        this.process = process;
        this.logFile = logFile;
        this.bootstrapServers = bootstrapServers;
        this.zookeeperConnect = zookeeperConnect;
        this.internalServers = internalServers;
    }

    /**
     * A new broker with a SASL_PLAINTEXT listener ({@link #bootstrapServers()}, SCRAM-SHA-512) and a
     * PLAINTEXT one for the test's own Admin client ({@link #admin()}, a super user as ANONYMOUS),
     * authorizing with Kafka's {@code StandardAuthorizer}; super users ANONYMOUS and {@value #SUPER_USER}.
     */
    public static BrokerFixture startSasl() {
        try {
            int saslPort = freePort();
            int internalPort = freePort();
            return start(List.of(
                "--broker.listeners=SASL_PLAINTEXT://127.0.0.1:" + saslPort + ",INTERNAL://127.0.0.1:" + internalPort,
                "--broker.listener-security-protocol-map=SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT",
                "--broker.inter-broker-listener-name=INTERNAL",
                "--broker.sasl-enabled-mechanisms=SCRAM-SHA-512",
                "--broker.authorizer-class-name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "--broker.super-users=User:ANONYMOUS;User:" + SUPER_USER),
                "127.0.0.1:" + saslPort, "127.0.0.1:" + internalPort);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the broker", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A new broker like {@link #startSasl()} whose SASL_PLAINTEXT listener wants OAUTHBEARER instead:
     * JWTs signed by a key of {@code jwksUrl}'s set, issued by {@code issuer} for {@code audience}
     * (kafka-clients' validator, KIP-768); the principal is {@code User:<sub>}. The broker's JVM is
     * allowed to read {@code jwksUrl} (Kafka 4's {@code org.apache.kafka.sasl.oauthbearer.allowed.urls}).
     */
    public static BrokerFixture startOAuthBearer(String jwksUrl, String issuer, String audience) {
        try {
            int saslPort = freePort();
            int internalPort = freePort();
            return start(List.of("-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=" + jwksUrl), List.of(
                "--broker.listeners=SASL_PLAINTEXT://127.0.0.1:" + saslPort + ",INTERNAL://127.0.0.1:" + internalPort,
                "--broker.listener-security-protocol-map=SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT",
                "--broker.inter-broker-listener-name=INTERNAL",
                "--broker.sasl-enabled-mechanisms=OAUTHBEARER",
                "--broker.sasl-oauthbearer-jwks-endpoint-url=" + jwksUrl,
                "--broker.sasl-oauthbearer-expected-issuer=" + issuer,
                "--broker.sasl-oauthbearer-expected-audience=" + audience,
                "--broker.authorizer-class-name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "--broker.super-users=User:ANONYMOUS"),
                "127.0.0.1:" + saslPort, "127.0.0.1:" + internalPort);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the broker", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates or replaces a SCRAM-SHA-512 user (through the internal listener). */
    public void createScramUser(String user, String password) {
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password))).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("Could not create user " + user, e);
        }
    }

    /** Creates ACLs (through the internal listener, whose ANONYMOUS is a super user). */
    public void createAcls(List<AclBinding> acls) {
        try (Admin admin = admin()) {
            admin.createAcls(acls).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("Could not create ACLs " + acls, e);
        }
    }

    /** Kills a broker from {@link #startSasl()}; the shared brokers stay up until the JVM exits. */
    @Override
    public void close() {
        if (this != instance && this != saslInstance) {
            kill();
        }
    }

    /**
     * The secured broker shared by this JVM's tests, started on first use as {@link #startSasl()} starts
     * one, with the SCRAM user {@value #SUPER_USER} ({@link #SUPER_USER_PASSWORD}); killed at exit. Its
     * tests share its ACLs, users and quotas: each gives its users names of its own and removes the
     * quotas it sets. Thread-safe.
     */
    public static synchronized BrokerFixture sharedSasl() {
        if (saslInstance == null) {
            BrokerFixture started = startSasl();
            Runtime.getRuntime().addShutdownHook(new Thread(started::kill));
            started.createScramUser(SUPER_USER, SUPER_USER_PASSWORD);
            saslInstance = started;
        }
        return saslInstance;
    }

    /** An ACL that allows {@code principal} (e.g. {@code User:alice}) {@code operation} on the literal resource. */
    public static AclBinding allow(ResourceType type, String name, String principal, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
            new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
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

    /** {@code host:port} of the listener where no login is needed (ANONYMOUS is a super user on SASL brokers). */
    public String internalServers() {
        return internalServers;
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

    /** The values of partition 0's records of {@code topic}, as UTF-8, read as the internal listener's super user. */
    public List<String> recordValues(String topic) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, internalServers);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            List<String> values = new ArrayList<>();
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
            return values;
        }
    }

    /** A record as read back: where it is and its value as UTF-8. */
    public record StoredRecord(int partition, long offset, String value) {
    }

    /**
     * Every record of every partition of {@code topic} up to its end (the last stable offset when
     * {@code readCommitted}), ordered by partition and offset, read as the internal listener's super user.
     */
    public List<StoredRecord> records(String topic, boolean readCommitted) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, internalServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<StoredRecord> records = new ArrayList<>();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    records.add(new StoredRecord(record.partition(), record.offset(),
                        record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8)));
                }
            }
            records.sort(java.util.Comparator.comparingInt(StoredRecord::partition)
                .thenComparingLong(StoredRecord::offset));
            return records;
        }
    }

    /** A new Admin client for the broker; close it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, internalServers));
    }

    private static BrokerFixture start() throws IOException, InterruptedException {
        int kafkaPort = freePort();
        return start(List.of("--broker.listeners=PLAINTEXT://127.0.0.1:" + kafkaPort), "127.0.0.1:" + kafkaPort,
            "127.0.0.1:" + kafkaPort);
    }

    private static BrokerFixture start(List<String> listeners, String bootstrapServers, String internalServers)
            throws IOException, InterruptedException {
        return start(List.of(), listeners, bootstrapServers, internalServers);
    }

    /** A new, unshared broker with an embedded ZooKeeper (broker id 0); its test closes it. */
    public static BrokerFixture startStandalone() {
        try {
            return start();
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the broker", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A new, unshared broker with id {@code brokerId} joining the cluster of {@code first}'s ZooKeeper; its test closes it. */
    public static BrokerFixture startJoining(BrokerFixture first, int brokerId) {
        try {
            int kafkaPort = freePort();
            return start(List.of(), List.of("--broker.listeners=PLAINTEXT://127.0.0.1:" + kafkaPort,
                "--broker.id=" + brokerId, "--broker.zookeeper-connect=" + first.zookeeperConnect()),
                "127.0.0.1:" + kafkaPort, "127.0.0.1:" + kafkaPort, first.zookeeperConnect());
        } catch (IOException e) {
            throw new IllegalStateException("Could not start broker " + brokerId, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static BrokerFixture start(List<String> jvmOptions, List<String> listeners, String bootstrapServers,
            String internalServers) throws IOException, InterruptedException {
        return start(jvmOptions, listeners, bootstrapServers, internalServers, null);
    }

    /** Starts a broker; with {@code zookeeperConnect} null, on an embedded ZooKeeper of its own. */
    private static BrokerFixture start(List<String> jvmOptions, List<String> listeners, String bootstrapServers,
            String internalServers, String zookeeperConnect) throws IOException, InterruptedException {
        String jar = System.getProperty("broker.jar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("broker.jar (" + jar + ") does not exist: build broker-service first "
                + "(mvn -B verify from the top directory builds it before these tests)");
        }
        Path dir = Files.createTempDirectory("rest-proxy-test-broker");
        int zookeeperPort = freePort();
        String zookeeper = zookeeperConnect != null ? zookeeperConnect : "127.0.0.1:" + zookeeperPort;
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        command.addAll(testJvmFlags());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar,
            "--broker.data-dir=" + dir.resolve("data"),
            "--broker.embedded-zookeeper-port=" + zookeeperPort,
            "--broker.auto-create-topics-enable=false",
            "--broker.offsets-topic-num-partitions=5",
            "--broker.group-initial-rebalance-delay-ms=0",
            "--broker.group-min-session-timeout-ms=1000",
            // Share consumers (KIP-932) learn their assignment on heartbeats: every 5 s by default.
            "--broker.group-share-heartbeat-interval-ms=500",
            "--server.port=0"));
        command.addAll(listeners);
        Path log = dir.resolve("broker.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        BrokerFixture broker = new BrokerFixture(process, log, bootstrapServers, zookeeper, internalServers);
        broker.awaitStarted();
        return broker;
    }

    private void awaitStarted() throws IOException {
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
                String log = Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
                if (!log.contains("Started BrokerApplication") && !process.isAlive()) {
                    throw new IllegalStateException("Broker exited with " + process.exitValue() + ":\n" + log);
                }
                return log.contains("Started BrokerApplication");
            });
        } catch (ConditionTimeoutException e) {
            kill();
            throw new IllegalStateException("Broker did not start within 90 s:\n" + Files.readString(logFile));
        }
    }

    private void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        return TestPorts.freePort();
    }

    /**
     * The build's {@code test.jvm.flags} (the parent pom's options for short-lived JVMs) for the
     * JVMs tests start; C1 only when the property is unset.
     */
    public static List<String> testJvmFlags() {
        String flags = System.getProperty("test.jvm.flags", "-XX:TieredStopAtLevel=1").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }
}
