package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.config.EndPoint;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.TestCertificates;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's SSL listener picks up a rotated certificate without a restart: the key store file
 * replaced atomically, or swapped behind a Kubernetes Secret's {@code ..data} link, is served to
 * new connections while a connection opened before keeps working; a broken replacement is
 * refused, logged without the password, and the certificate in use keeps serving.
 */
class CertificateReloadTest {

    private static final String DN = "CN=localhost,OU=brokers";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    static Path certDir;
    static TestCertificates certificates;
    static Path storeA;
    static Path storeB;

    @TempDir
    Path dir;
    TestBroker broker;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TestCertificates.create(certDir);
        storeA = certificates.keyStore("a", DN);
        storeB = certificates.keyStore("b", DN);
    }

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private TestBroker start(Path keyStore) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.listeners", "SSL://127.0.0.1:" + TestBroker.freePort() + ",INTERNAL://127.0.0.1:"
            + TestBroker.freePort());
        settings.put("broker.listener-security-protocol-map", "SSL:SSL,INTERNAL:PLAINTEXT");
        settings.put("broker.inter-broker-listener-name", "INTERNAL");
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", keyStore.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", certificates.caPem().toString());
        settings.put("broker.ssl-reload-interval-ms", "100");
        settings.put("broker.password-encoder-secret", "encoder-secret");
        broker = TestBroker.start(dir.resolve("broker"), settings);
        return broker;
    }

    private EndPoint sslEndPoint() {
        return broker.server().boundEndPoints().stream().filter(e -> e.listenerName().equals("SSL")).findFirst()
            .orElseThrow();
    }

    /** A TLS connection that trusts any certificate and remembers the one the broker served. */
    private record TlsConnection(SSLSocket socket, X509Certificate served) implements AutoCloseable {

        /** Sends ApiVersions and returns whether the answer carried its correlation id. */
        boolean answersApiVersions(int correlationId) throws Exception {
            ByteBuffer frame = new ApiVersionsRequest.Builder().build((short) 3)
                .serializeWithHeader(new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "reload-test", correlationId));
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(frame.remaining());
            out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return ByteBuffer.wrap(response).getInt() == correlationId;
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    private TlsConnection connect() throws Exception {
        AtomicReference<X509Certificate> served = new AtomicReference<>();
        X509TrustManager recordAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                served.set(chain[0]);
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {recordAll}, null);
        EndPoint endPoint = sslEndPoint();
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(endPoint.host(), endPoint.port());
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return new TlsConnection(socket, served.get());
    }

    private BigInteger servedToANewConnection() throws Exception {
        try (TlsConnection connection = connect()) {
            return connection.served().getSerialNumber();
        }
    }

    private void awaitServed(BigInteger serial) {
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
            assertThat(servedToANewConnection()).as("certificate " + serial.toString(16) + " served").isEqualTo(serial));
    }

    private double reloads(String result) {
        return broker.server().meterRegistry().get("tributary.ssl.store.reloads").tag("listener", "SSL")
            .tag("result", result).counter().count();
    }

    private Map<String, Object> kafkaClient() {
        EndPoint endPoint = sslEndPoint();
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, endPoint.host() + ":" + endPoint.port(),
            CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
            SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
            SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.caPem().toString());
    }

    @Test
    void aReplacedKeyStoreIsServedToNewConnectionsAndABrokenOneIsRefused() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        try (LogCapture logs = LogCapture.open()) {
            start(live);
            try (TlsConnection before = connect(); Admin admin = Admin.create(kafkaClient())) {
                assertThat(before.served().getSerialNumber()).isEqualTo(SslStoreWatcherTest.serial(storeA, "a"));
                assertThat(before.answersApiVersions(1)).isTrue();
                admin.describeCluster().clusterId().get();

                SslStoreWatcherTest.replaceAtomically(storeB, live);
                awaitServed(SslStoreWatcherTest.serial(storeB, "b"));
                assertThat(before.answersApiVersions(2)).as("a connection opened before keeps working").isTrue();
                assertThat(admin.describeCluster().clusterId().get()).as("a client trusting the CA").isNotEmpty();

                Path wrongPassword = SslStoreWatcherTest.withOtherPassword(storeA, "a", dir.resolve("wrong.p12"));
                SslStoreWatcherTest.replaceAtomically(wrongPassword, live);
                await("refusal").atMost(DEADLINE).pollInterval(Duration.ofMillis(50))
                    .until(() -> reloads("failure") > 0);
                assertThat(servedToANewConnection()).as("the certificate in use keeps serving")
                    .isEqualTo(SslStoreWatcherTest.serial(storeB, "b"));
                assertThat(before.answersApiVersions(3)).isTrue();
            }
            assertThat(reloads("success")).isEqualTo(1);
            assertThat(logs.lines()).anyMatch(l -> l.contains("Listener SSL refused the TLS stores"));
            logs.assertNoLineContains(TestCertificates.PASSWORD, "another-store-pass");
        }
    }

    private static org.apache.kafka.clients.admin.AlterConfigOp set(String name, String value) {
        return new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(name,
            value), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET);
    }

    /** What ZooKeeper holds at {@code /config/brokers/0}, as text. */
    private String storedBrokerConfig() throws Exception {
        try (org.apache.curator.framework.CuratorFramework zk = org.apache.curator.framework.CuratorFrameworkFactory
                .newClient(broker.server().embeddedZooKeeper().connectString(),
                    new org.apache.curator.retry.RetryOneTime(100))) {
            zk.start();
            return new String(zk.getData().forPath("/config/brokers/0"), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * A listener's key store as dynamic broker configs (KIP-226, {@code listener.name.ssl.ssl.keystore.*}):
     * loaded and checked before it is stored, its password stored encrypted with
     * {@code password.encoder.secret}, served to new connections at once and again after a restart;
     * a store that does not load, or the cluster-wide level, is refused with Kafka's message.
     */
    @Test
    void aKeyStoreSetAsADynamicConfigIsServedAndKeptAcrossARestart() throws Exception {
        start(Files.copy(storeA, dir.resolve("static.p12")));
        Path dynamicStore = Files.copy(storeB, dir.resolve("dynamic.p12"));
        org.apache.kafka.common.config.ConfigResource own = new org.apache.kafka.common.config.ConfigResource(
            org.apache.kafka.common.config.ConfigResource.Type.BROKER, "0");
        try (Admin admin = Admin.create(kafkaClient())) {
            admin.incrementalAlterConfigs(Map.of(own, java.util.List.of(
                set("listener.name.ssl.ssl.keystore.location", dynamicStore.toString()),
                set("listener.name.ssl.ssl.keystore.password", TestCertificates.PASSWORD)))).all().get();
            awaitServed(SslStoreWatcherTest.serial(storeB, "b"));
            assertThat(storedBrokerConfig()).contains(dynamicStore.toString()).contains("encryptedPassword")
                .doesNotContain(TestCertificates.PASSWORD);
            org.apache.kafka.clients.admin.Config described = admin.describeConfigs(java.util.List.of(own)).all().get()
                .get(own);
            assertThat(described.get("listener.name.ssl.ssl.keystore.location").value()).isEqualTo(dynamicStore.toString());
            assertThat(described.get("listener.name.ssl.ssl.keystore.location").source())
                .isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
            assertThat(described.get("listener.name.ssl.ssl.keystore.password").value()).isNull();
            assertThat(described.get("listener.name.ssl.ssl.keystore.password").isSensitive()).isTrue();

            Path otherPassword = SslStoreWatcherTest.withOtherPassword(storeA, "a", dir.resolve("other.p12"));
            java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> admin.incrementalAlterConfigs(Map.of(own,
                    java.util.List.of(set("listener.name.ssl.ssl.keystore.location", otherPassword.toString()))))
                    .all().get());
            assertThat(refused.getCause()).isInstanceOf(
                org.apache.kafka.common.errors.InvalidConfigurationException.class);
            org.apache.kafka.common.config.ConfigResource clusterWide = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.BROKER, "");
            refused = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                () -> admin.incrementalAlterConfigs(Map.of(clusterWide, java.util.List.of(
                    set("listener.name.ssl.ssl.keystore.location", dynamicStore.toString())))).all().get());
            assertThat(refused.getCause()).hasMessageContaining(
                "Cannot update these configs at default cluster level, broker id must be specified");
        }
        assertThat(servedToANewConnection()).as("the refused stores changed nothing")
            .isEqualTo(SslStoreWatcherTest.serial(storeB, "b"));

        broker.restart();
        assertThat(servedToANewConnection()).as("served from the start after a restart")
            .isEqualTo(SslStoreWatcherTest.serial(storeB, "b"));
    }

    @Test
    void aKubernetesSecretUpdateIsServedToNewConnections() throws Exception {
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Files.createDirectories(secret.resolve("..2026_01_01_a"));
        Files.copy(storeA, secret.resolve("..2026_01_01_a/keystore.p12"));
        Files.createSymbolicLink(secret.resolve("..data"), Path.of("..2026_01_01_a"));
        Path live = Files.createSymbolicLink(secret.resolve("keystore.p12"), Path.of("..data/keystore.p12"));
        start(live);
        try (TlsConnection before = connect()) {
            assertThat(before.served().getSerialNumber()).isEqualTo(SslStoreWatcherTest.serial(storeA, "a"));

            // What the kubelet does: a new timestamped directory, then ..data renamed over to point at it.
            Files.createDirectories(secret.resolve("..2026_03_01_b"));
            Files.copy(storeB, secret.resolve("..2026_03_01_b/keystore.p12"));
            Files.createSymbolicLink(secret.resolve("..data_tmp"), Path.of("..2026_03_01_b"));
            Files.move(secret.resolve("..data_tmp"), secret.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            Files.walk(secret.resolve("..2026_01_01_a")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });

            awaitServed(SslStoreWatcherTest.serial(storeB, "b"));
            assertThat(before.answersApiVersions(7)).as("a connection opened before keeps working").isTrue();
        }
        assertThat(reloads("failure")).isZero();
        assertThat(reloads("success")).isEqualTo(1);
    }
}
