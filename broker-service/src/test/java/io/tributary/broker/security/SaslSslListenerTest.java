package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.config.EndPoint;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCertificates;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker with a SASL_SSL listener for clients (SCRAM-SHA-512 and PLAIN over TLS 1.3) and a
 * SASL_PLAINTEXT listener between brokers (PLAIN, the broker's own login), driven by kafka-clients.
 */
class SaslSslListenerTest {

    private static final String ALICE_PASSWORD = "alice-scram-secret";
    private static final String ADMIN_PASSWORD = "admin-plain-secret";
    private static final int FAILED_AUTH_DELAY_MS = 600;

    @TempDir
    static Path dir;
    static TestCertificates certificates;
    static TestBroker broker;
    static LogCapture logs;

    @BeforeAll
    static void start() throws Exception {
        logs = LogCapture.open();
        certificates = TestCertificates.create(dir.resolve("certs"));
        Path brokerStore = certificates.keyStore("broker", "CN=localhost");
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SASL_SSL://127.0.0.1:" + TestBroker.freePort() + ",INTERNAL://127.0.0.1:"
            + TestBroker.freePort());
        settings.put("broker.listener-security-protocol-map", "SASL_SSL:SASL_SSL,INTERNAL:SASL_PLAINTEXT");
        settings.put("broker.inter-broker-listener-name", "INTERNAL");
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", brokerStore.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-key-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", certificates.caPem().toString());
        settings.put("broker.sasl-enabled-mechanisms", "SCRAM-SHA-512,PLAIN");
        settings.put("broker.sasl-mechanism-inter-broker-protocol", "PLAIN");
        settings.put("broker.sasl-jaas-config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"" + ADMIN_PASSWORD + "\" user_admin=\"" + ADMIN_PASSWORD
            + "\" user_bob=\"bob-plain-secret\";");
        settings.put("broker.connection-failed-authentication-delay-ms", String.valueOf(FAILED_AUTH_DELAY_MS));
        broker = TestBroker.start(dir.resolve("broker"), settings);
        // alice's SCRAM credential goes to ZooKeeper through AlterUserScramCredentials, sent by the
        // broker's own PLAIN login on the inter-broker listener.
        try (Admin admin = Admin.create(internalAdmin())) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), ALICE_PASSWORD))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
        try (LogCapture captured = logs) {
            assertThat(captured.lines()).as("the clients' config dumps were captured, their JAAS hidden")
                .anyMatch(l -> l.contains("sasl.jaas.config = [hidden]"));
            captured.assertNoLineContains(ALICE_PASSWORD, ADMIN_PASSWORD, "bob-plain-secret", "not-the-password", TestCertificates.PASSWORD);
        }
    }

    private static String address(String listener) {
        EndPoint e = broker.server().boundEndPoints().stream().filter(b -> b.listenerName().equals(listener))
            .findFirst().orElseThrow();
        return e.host() + ":" + e.port();
    }

    private static Map<String, Object> saslSsl(String mechanism, String jaas) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, address("SASL_SSL"));
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        configs.put(SaslConfigs.SASL_MECHANISM, mechanism);
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, jaas);
        configs.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        configs.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.caPem().toString());
        return configs;
    }

    private static String scram(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
            + "\" password=\"" + password + "\";";
    }

    @Test
    void scramSha512ProducesAndConsumesOverTls() throws Exception {
        Map<String, Object> alice = saslSsl("SCRAM-SHA-512", scram("alice", ALICE_PASSWORD));
        try (Admin admin = Admin.create(alice)) {
            admin.createTopics(List.of(new NewTopic("secured", 1, (short) 1), new NewTopic("secured-large", 1, (short) 1)))
                .all().get();
        }
        Map<String, Object> producerConfigs = new HashMap<>(alice);
        producerConfigs.put("key.serializer", ByteArraySerializer.class.getName());
        producerConfigs.put("value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfigs)) {
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("secured", ("record-" + i).getBytes(StandardCharsets.UTF_8))).get();
            }
            // Once authenticated, frames may exceed the 512 KiB pre-authentication limit.
            producer.send(new ProducerRecord<>("secured-large", new byte[700 * 1024])).get();
        }
        Map<String, Object> consumerConfigs = new HashMap<>(alice);
        consumerConfigs.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumerConfigs.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfigs)) {
            TopicPartition partition = new TopicPartition("secured", 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read.size() < 20 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(read).hasSize(20).startsWith("record-0").endsWith("record-19");
        assertThat(counter("successful")).isPositive();
    }

    @Test
    void plainUsersOfTheJaasEntryAuthenticate() throws Exception {
        Map<String, Object> bob = saslSsl("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"bob\" password=\"bob-plain-secret\";");
        try (Admin admin = Admin.create(bob)) {
            assertThat(admin.describeCluster().clusterId().get()).isNotBlank();
        }
    }

    @Test
    void aWrongPasswordIsRefusedAfterTheDelay() throws Exception {
        double failedBefore = counter("failed");
        Map<String, Object> wrong = saslSsl("SCRAM-SHA-512", scram("alice", "not-the-password"));
        long start = System.nanoTime();
        try (Admin admin = Admin.create(wrong)) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class);
        }
        long elapsedMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(elapsedMs).as("the refusal waits connection.failed.authentication.delay.ms")
            .isGreaterThanOrEqualTo(FAILED_AUTH_DELAY_MS);
        assertThat(counter("failed")).isGreaterThan(failedBefore);
    }

    @Test
    void anUnknownUserIsRefusedLikeAWrongPassword() throws Exception {
        Map<String, Object> nobody = saslSsl("SCRAM-SHA-512", scram("nobody", "whatever"));
        try (Admin admin = Admin.create(nobody)) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                .cause().isInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void aRequestBeforeAuthenticationClosesTheConnection() throws Exception {
        String[] hostPort = address("INTERNAL").split(":");
        try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
            socket.setSoTimeout(10_000);
            MetadataRequest request = new MetadataRequest(new MetadataRequestData().setTopics(null), (short) 12);
            RequestHeader header = new RequestHeader(org.apache.kafka.common.protocol.ApiKeys.METADATA, (short) 12,
                "sneaky", 1);
            ByteBuffer frame = request.serializeWithHeader(header);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frame.remaining());
            out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            assertThat(in.read()).as("closed without an answer").isEqualTo(-1);
        }
    }

    @Test
    void aLargeFrameBeforeAuthenticationClosesTheConnectionAtOnce() throws Exception {
        String[] hostPort = address("INTERNAL").split(":");
        try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(600 * 1024); // over sasl.server.max.receive.size (512 KiB): closed before it arrives
            out.write(new byte[1024]);
            out.flush();
            // Closed: an end of stream, or a reset when the broker closed with the frame's bytes unread.
            int read;
            try {
                read = new DataInputStream(socket.getInputStream()).read();
            } catch (java.net.SocketException reset) {
                read = -1;
            }
            assertThat(read).as("closed").isEqualTo(-1);
        }
    }

    private static Map<String, Object> internalAdmin() {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, address("INTERNAL"));
        configs.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        configs.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        configs.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"" + ADMIN_PASSWORD + "\";");
        return configs;
    }

    @Test
    void theInterBrokerListenerAuthenticatesTheBrokersOwnLogin() throws Exception {
        try (Admin admin = Admin.create(internalAdmin())) {
            assertThat(admin.describeCluster().nodes().get()).hasSize(1);
            assertThat(admin.describeUserScramCredentials(List.of("alice")).all().get().get("alice")
                .credentialInfos()).extracting(ScramCredentialInfo::mechanism)
                .containsExactly(ScramMechanism.SCRAM_SHA_512);
        }
    }

    private static double counter(String outcome) {
        return broker.server().meterRegistry().find("kafka.server.socket.server.metrics." + outcome + ".authentication")
            .tag("listener", "SASL_SSL").counter().count();
    }

    private static String plain(String user, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
            + "\" password=\"" + password + "\";";
    }

    private static void alterQuota(Admin admin, String user, String clientId, Double producerByteRate) throws Exception {
        Map<String, String> entity = new HashMap<>();
        if (user != null) {
            entity.put(org.apache.kafka.common.quota.ClientQuotaEntity.USER, user);
        }
        if (clientId != null) {
            entity.put(org.apache.kafka.common.quota.ClientQuotaEntity.CLIENT_ID, clientId);
        }
        admin.alterClientQuotas(List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration(
            new org.apache.kafka.common.quota.ClientQuotaEntity(entity),
            List.of(new org.apache.kafka.common.quota.ClientQuotaAlteration.Op("producer_byte_rate", producerByteRate)))))
            .all().get();
    }

    /** A producer over SASL_SSL as {@code jaas}'s user with client id {@code clientId}. */
    private static KafkaProducer<byte[], byte[]> quotaProducer(String mechanism, String jaas, String clientId) {
        Map<String, Object> configs = new HashMap<>(saslSsl(mechanism, jaas));
        configs.put("key.serializer", ByteArraySerializer.class.getName());
        configs.put("value.serializer", ByteArraySerializer.class.getName());
        configs.put("client.id", clientId);
        configs.put("linger.ms", 0);
        return new KafkaProducer<>(configs);
    }

    /** The longest throttle time the broker asked of the producer, ms (its produce-throttle-time-max). */
    private static double throttleMs(KafkaProducer<byte[], byte[]> producer) {
        return producer.metrics().entrySet().stream().filter(e -> e.getKey().name().equals("produce-throttle-time-max"))
            .mapToDouble(e -> (Double) e.getValue().metricValue()).filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    /** Creates topic user-quotas unless it exists. */
    private static void createTheQuotaTopic() throws Exception {
        try (Admin admin = Admin.create(internalAdmin())) {
            admin.createTopics(List.of(new NewTopic("user-quotas", 1, (short) 1))).all().get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e;
            }
        }
    }

    /** Sends {@code records} records of 50 KB one after another. */
    private static void send(KafkaProducer<byte[], byte[]> producer, int records) throws Exception {
        for (int i = 0; i < records; i++) {
            producer.send(new ProducerRecord<>("user-quotas", new byte[50_000])).get();
        }
    }

    /**
     * A {@code producer_byte_rate} quota of a user (KIP-55, {@code /config/users/bob}) is enforced on
     * that authenticated user's producer, whatever its client id: it is told to wait
     * ({@code throttle_time_ms} > 0); another user's producer sending as much is not.
     */
    @Test
    void aUsersProducerByteRateQuotaThrottlesThatUserOnly() throws Exception {
        createTheQuotaTopic();
        try (Admin admin = Admin.create(internalAdmin())) {
            alterQuota(admin, "bob", null, 20_000.0);
        }
        try (KafkaProducer<byte[], byte[]> bob = quotaProducer("PLAIN", plain("bob", "bob-plain-secret"), "bob-app");
             KafkaProducer<byte[], byte[]> admin = quotaProducer("PLAIN", plain("admin", ADMIN_PASSWORD), "admin-app")) {
            // 20 KB/s: a few 50 KB records are over it (once the broker has read the quota).
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                send(bob, 2);
                return throttleMs(bob) > 0;
            });
            send(admin, 10);
            assertThat(throttleMs(admin)).as("another user is not throttled").isZero();
        } finally {
            try (Admin admin = Admin.create(internalAdmin())) {
                alterQuota(admin, "bob", null, null);
            }
        }
    }

    /**
     * Kafka's precedence (KIP-55): a quota of user and client id ({@code /config/users/admin/clients/shared-app})
     * comes before a quota of the client id alone ({@code /config/clients/shared-app}): admin's producer with
     * that client id is held to the former (generous), alice's with the same client id to the latter.
     */
    @Test
    void aUserAndClientIdQuotaTakesPrecedenceOverAClientIdQuota() throws Exception {
        createTheQuotaTopic();
        try (Admin admin = Admin.create(internalAdmin())) {
            // In this order: the broker's quota cache applies ZooKeeper's changes in order, so once alice is
            // throttled by the client id's quota, the broker has admin's too.
            alterQuota(admin, "admin", "shared-app", 1_000_000_000.0);
            alterQuota(admin, null, "shared-app", 20_000.0);
        }
        try (KafkaProducer<byte[], byte[]> alice = quotaProducer("SCRAM-SHA-512", scram("alice", ALICE_PASSWORD),
                "shared-app");
             KafkaProducer<byte[], byte[]> admin = quotaProducer("PLAIN", plain("admin", ADMIN_PASSWORD), "shared-app")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                send(alice, 2);
                return throttleMs(alice) > 0;
            });
            send(admin, 10);
            assertThat(throttleMs(admin)).as("user and client id before client id").isZero();
        } finally {
            try (Admin admin = Admin.create(internalAdmin())) {
                alterQuota(admin, null, "shared-app", null);
                alterQuota(admin, "admin", "shared-app", null);
            }
        }
    }
}
