package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.config.BrokerConfigNames;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.security.SslStoreWatcher.Outcome;
import io.tributary.broker.testing.LogCapture;
import io.tributary.broker.testing.MockScheduler;
import io.tributary.broker.testing.MockTime;
import io.tributary.broker.testing.TestCertificates;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SslStoreWatcher} with a TLS {@link ListenerSecurity} and no broker: store files replaced
 * in place, copied with their old modification time, swapped behind a Kubernetes-style
 * {@code ..data} link, broken, or missing; checks driven by a {@link MockScheduler}.
 */
class SslStoreWatcherTest {

    private static final String DN = "CN=localhost,OU=brokers";
    private static final long INTERVAL_MS = 60_000;

    @TempDir
    static Path certDir;
    static TestCertificates certificates;
    static Path storeA;
    static Path storeB;
    static Path otherDn;

    @TempDir
    Path dir;
    MeterRegistry registry;
    ListenerSecurity listener;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TestCertificates.create(certDir);
        storeA = certificates.keyStore("a", DN);
        storeB = certificates.keyStore("b", DN);
        otherDn = certificates.keyStore("other", "CN=elsewhere,OU=brokers");
    }

    @BeforeEach
    void setUp() {
        registry = new SimpleMeterRegistry();
    }

    @AfterEach
    void tearDown() {
        if (listener != null) {
            listener.close();
        }
    }

    private SslStoreWatcher watch(Path keyStore) {
        return watch(keyStore, certificates.caPem());
    }

    private SslStoreWatcher watch(Path keyStore, Path trustStore) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", keyStore.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", trustStore.toString());
        settings.put("broker.ssl-client-auth", "required");
        BrokerSecurityProperties security = BrokerSecurityProperties.bind(settings);
        SslStoreWatcher watcher = new SslStoreWatcher(security, registry);
        listener = new ListenerSecurity(new EndPoint("SSL", SecurityProtocol.SSL, "127.0.0.1", 0), security,
            new CredentialCache(), registry);
        watcher.watch(listener);
        return watcher;
    }

    private BigInteger served() {
        return listener.serverCertificate().orElseThrow().getSerialNumber();
    }

    static BigInteger serial(Path store, String alias) throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(store)) {
            keyStore.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        return ((X509Certificate) keyStore.getCertificate(alias)).getSerialNumber();
    }

    /** Writes {@code source} next to {@code target} and renames it over it, as an atomic writer does. */
    static void replaceAtomically(Path source, Path target) throws Exception {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.copy(source, temporary, StandardCopyOption.REPLACE_EXISTING);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The B key store under another store and key password. */
    static Path withOtherPassword(Path store, String alias, Path target) throws Exception {
        KeyStore original = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(store)) {
            original.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        char[] other = "another-store-pass".toCharArray();
        KeyStore copy = KeyStore.getInstance("PKCS12");
        copy.load(null, null);
        copy.setKeyEntry(alias, original.getKey(alias, TestCertificates.PASSWORD.toCharArray()), other,
            original.getCertificateChain(alias));
        try (OutputStream out = Files.newOutputStream(target)) {
            copy.store(out, other);
        }
        return target;
    }

    private double reloads(String result) {
        return registry.get("tributary.ssl.store.reloads").tag("listener", "SSL").tag("result", result).counter().count();
    }

    @Test
    void aKeyStoreReplacedInPlaceIsServedAfterTheNextScheduledCheck() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live);
        MockTime time = new MockTime();
        watcher.start(new MockScheduler(time), INTERVAL_MS);
        assertThat(served()).isEqualTo(serial(storeA, "a"));

        time.advance(INTERVAL_MS);
        assertThat(served()).as("nothing changed").isEqualTo(serial(storeA, "a"));
        assertThat(reloads("success")).isZero();

        replaceAtomically(storeB, live);
        time.advance(INTERVAL_MS - 1);
        assertThat(served()).as("before the next check").isEqualTo(serial(storeA, "a"));
        time.advance(1);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
        assertThat(reloads("success")).isEqualTo(1);
        assertThat(watcher.check()).as("reloaded once per change").isEqualTo(Outcome.UNCHANGED);
    }

    @Test
    void aCopyThatKeptTheOldModificationTimeIsStillReloaded() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live);
        var modified = Files.getLastModifiedTime(live);
        Files.copy(storeB, live, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(live, modified);

        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
    }

    @Test
    void aKubernetesSecretUpdateThatSwapsTheDataLinkIsReloaded() throws Exception {
        // The layout of a Secret volume: files are links through ..data to a timestamped directory.
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Files.createDirectories(secret.resolve("..2026_01_01_a"));
        Files.copy(storeA, secret.resolve("..2026_01_01_a/keystore.p12"));
        Files.createSymbolicLink(secret.resolve("..data"), Path.of("..2026_01_01_a"));
        Path live = Files.createSymbolicLink(secret.resolve("keystore.p12"), Path.of("..data/keystore.p12"));
        SslStoreWatcher watcher = watch(live);
        assertThat(served()).isEqualTo(serial(storeA, "a"));

        Files.createDirectories(secret.resolve("..2026_03_01_b"));
        Files.copy(storeB, secret.resolve("..2026_03_01_b/keystore.p12"));
        Files.createSymbolicLink(secret.resolve("..data_tmp"), Path.of("..2026_03_01_b"));
        Files.move(secret.resolve("..data_tmp"), secret.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);

        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
    }

    @Test
    void brokenOrForeignReplacementsAreRefusedWithoutSecretsInTheLogAndTheOldCertificateKeepsServing()
            throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        try (LogCapture logs = LogCapture.open()) {
            SslStoreWatcher watcher = watch(live);

            replaceAtomically(withOtherPassword(storeB, "b", dir.resolve("wrong-password.p12")), live);
            assertThat(watcher.check()).as("wrong password").isEqualTo(Outcome.REFUSED);
            assertThat(served()).isEqualTo(serial(storeA, "a"));
            assertThat(watcher.check()).as("not retried until the file changes").isEqualTo(Outcome.UNCHANGED);

            Path corrupt = dir.resolve("corrupt.p12");
            Files.write(corrupt, new byte[] {0x30, (byte) 0x82, 0x01, 0x00, 1, 2, 3, 4, 5});
            replaceAtomically(corrupt, live);
            assertThat(watcher.check()).as("corrupt").isEqualTo(Outcome.REFUSED);
            assertThat(served()).isEqualTo(serial(storeA, "a"));

            replaceAtomically(otherDn, live);
            assertThat(watcher.check()).as("another DN, ssl.allow.dn.changes not set").isEqualTo(Outcome.REFUSED);
            assertThat(served()).isEqualTo(serial(storeA, "a"));

            assertThat(reloads("failure")).isEqualTo(3);
            assertThat(reloads("success")).isZero();

            replaceAtomically(storeB, live);
            assertThat(watcher.check()).as("a good store after refused ones").isEqualTo(Outcome.RELOADED);
            assertThat(served()).isEqualTo(serial(storeB, "b"));

            List<String> refusals = logs.lines().stream().filter(l -> l.contains("refused the TLS stores")).toList();
            assertThat(refusals).hasSize(3).allMatch(l -> l.contains(live.toString()));
            assertThat(refusals.get(0)).as("the JDK's reason").contains("password was incorrect");
            assertThat(refusals.get(2)).contains("DistinguishedName does not match");
            logs.assertNoLineContains(TestCertificates.PASSWORD, "another-store-pass");
        }
    }

    @Test
    void aTrustStoreGainingANewCertificateAuthorityIsReloaded() throws Exception {
        Path trusted = Files.copy(certificates.caPem(), dir.resolve("ca-bundle.pem"));
        SslStoreWatcher watcher = watch(storeA, trusted);
        TestCertificates nextCa = TestCertificates.create(dir.resolve("next-ca"));
        Path bundle = dir.resolve("bundle.pem");
        Files.writeString(bundle, Files.readString(certificates.caPem()) + Files.readString(nextCa.caPem()));
        replaceAtomically(bundle, trusted);

        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(reloads("success")).isEqualTo(1);
        assertThat(served()).as("the key store is the same").isEqualTo(serial(storeA, "a"));
    }

    @Test
    void aStoreThatIsMissingForAWhileIsSkippedUntilItReturns() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live);
        Files.delete(live);
        assertThat(watcher.check()).isEqualTo(Outcome.UNCHANGED);
        assertThat(served()).isEqualTo(serial(storeA, "a"));

        Files.copy(storeB, live);
        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
    }

    @Test
    void theIntervalIsASettingUnderItsServerPropertiesNameAndZeroTurnsItOff() {
        assertThat(BrokerConfigNames.propertyFor("ssl.reload.interval.ms")).hasValue("broker.ssl-reload-interval-ms");
        assertThat(BrokerSecurityProperties.defaults().sslReloadIntervalMs()).isEqualTo(60_000);
        assertThat(BrokerSecurityProperties.bind(Map.of("broker.ssl-reload-interval-ms", "0")).sslReloadIntervalMs())
            .isZero();
        assertThatThrownBy(() -> BrokerSecurityProperties.bind(Map.of("broker.ssl-reload-interval-ms", "-1")))
            .hasStackTraceContaining("ssl-reload-interval-ms");
    }
}
