package io.tributary.broker.security;

import static io.tributary.broker.security.SslStoreWatcherTest.replaceAtomically;
import static io.tributary.broker.security.SslStoreWatcherTest.serial;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.security.SslStoreWatcher.Outcome;
import io.tributary.broker.testing.TestCertificates;
import java.io.File;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edge cases of the TLS store reload found in review: a reload stuck reading a store file (a hung
 * network mount, here a named pipe) must not hold up the Netty event loops that create engines
 * for new connections, nor the watcher's scheduler thread; a change seen while another store is
 * missing must not be lost; a huge file is not read; nothing reloaded is not counted as a success.
 */
class SslReloadEdgeCasesTest {

    private static final String DN = "CN=localhost,OU=brokers";
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 40_000);

    @TempDir
    static Path certDir;
    static TestCertificates certificates;
    static Path storeA;
    static Path storeB;

    @TempDir
    Path dir;
    MeterRegistry registry;
    BrokerSecurityProperties security;
    ListenerSecurity listener;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TestCertificates.create(certDir);
        storeA = certificates.keyStore("a", DN);
        storeB = certificates.keyStore("b", DN);
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

    private SslStoreWatcher watch(Path keyStore, Path trustStore) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("broker.ssl-keystore-type", "PKCS12");
        settings.put("broker.ssl-keystore-location", keyStore.toString());
        settings.put("broker.ssl-keystore-password", TestCertificates.PASSWORD);
        settings.put("broker.ssl-truststore-type", "PEM");
        settings.put("broker.ssl-truststore-location", trustStore.toString());
        settings.put("broker.ssl-client-auth", "required");
        security = BrokerSecurityProperties.bind(settings);
        SslStoreWatcher watcher = new SslStoreWatcher(security, registry);
        listener = new ListenerSecurity(new EndPoint("SSL", SecurityProtocol.SSL, "127.0.0.1", 0), security,
            new CredentialCache(), registry);
        watcher.watch(listener);
        return watcher;
    }

    private BigInteger served() {
        return listener.serverCertificate().orElseThrow().getSerialNumber();
    }

    private double reloads(String result) {
        return registry.get("tributary.ssl.store.reloads").tag("listener", "SSL").tag("result", result).counter().count();
    }

    /** A named pipe at {@code target}: opening it for reading blocks until a writer comes. */
    private Path namedPipeOver(Path target) throws Exception {
        Path pipe = dir.resolve("pipe-" + System.nanoTime());
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).start();
        } catch (java.io.IOException e) {
            mkfifo = null;
        }
        assumeTrue(mkfifo != null && mkfifo.waitFor() == 0 && Files.exists(pipe), "mkfifo is not available");
        Files.move(pipe, target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    /** Whether {@code thread} is in a native open (of the pipe: it blocks) called from {@code className}'s code. */
    private static boolean openingAFileInside(Thread thread, String className) {
        StackTraceElement[] stack = thread.getStackTrace();
        return stack.length > 0 && stack[0].isNativeMethod() && stack[0].getMethodName().startsWith("open")
            && Arrays.stream(stack).anyMatch(frame -> frame.getClassName().equals(className));
    }

    /** Starts a reload of {@code listener} and returns once it is blocked reading the key store (a pipe). */
    private CompletableFuture<Boolean> stuckReload() {
        CompletableFuture<Boolean> reload = new CompletableFuture<>();
        Thread reloader = new Thread(() -> {
            try {
                reload.complete(listener.reloadSslStores(true));
            } catch (Throwable t) {
                reload.completeExceptionally(t);
            }
        }, "reloader");
        reloader.setDaemon(true);
        reloader.start();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
            .until(() -> openingAFileInside(reloader, "org.apache.kafka.common.security.ssl.DefaultSslEngineFactory"));
        return reload;
    }

    @Test
    void aNewConnectionsEngineDoesNotWaitForAReloadStuckReadingTheKeyStore() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        watch(live, certificates.caPem());
        namedPipeOver(live);

        CompletableFuture<Boolean> reload = stuckReload();
        try {
            CompletableFuture<SSLEngine> engine = CompletableFuture.supplyAsync(() -> listener.newSslEngine(PEER));
            assertThat(engine.get(5, TimeUnit.SECONDS)).as("an event loop creating an engine while a reload is stuck")
                .isNotNull();
            assertThat(reload).as("the reload is still reading the store").isNotDone();
        } finally {
            try (OutputStream writer = Files.newOutputStream(live)) { // releases the reload
                writer.write(Files.readAllBytes(storeB));
            }
        }
        assertThat(reload.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(served()).isEqualTo(serial(storeB, "b"));
        assertThat(listener.newSslEngine(PEER)).isNotNull();
    }

    @Test
    void closingTheListenerAtShutdownDoesNotWaitForAReloadStuckReadingTheKeyStore() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        watch(live, certificates.caPem());
        namedPipeOver(live);
        CompletableFuture<Boolean> reload = stuckReload();
        try {
            CompletableFuture<Void> close = CompletableFuture.runAsync(listener::close);
            close.get(5, TimeUnit.SECONDS);
        } finally {
            try (OutputStream writer = Files.newOutputStream(live)) { // releases the reload
                writer.write(Files.readAllBytes(storeB));
            }
        }
        assertThat(reload.get(10, TimeUnit.SECONDS)).as("a reload that ends after the close serves nothing").isFalse();
    }

    @Test
    void theWatcherSkipsAStoreThatIsNotARegularFileInsteadOfBlockingOnIt() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live, certificates.caPem());
        namedPipeOver(live);

        CompletableFuture<Outcome> check = CompletableFuture.supplyAsync(watcher::check);
        try {
            assertThat(check.get(5, TimeUnit.SECONDS)).isEqualTo(Outcome.UNCHANGED);
        } finally {
            if (!check.isDone()) {
                try (OutputStream writer = Files.newOutputStream(live)) { // releases the stuck check
                    writer.write(new byte[0]);
                }
            }
        }
        assertThat(served()).isEqualTo(serial(storeA, "a"));
    }

    @Test
    void aHugeFileAtAStoreLocationIsNotReadNorHandedToTheListener() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live, certificates.caPem());
        Path huge = dir.resolve("huge.p12");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(SslStoreWatcher.MAX_STORE_BYTES + 1); // sparse: no disk used
        }
        replaceAtomically(huge, live);

        assertThat(watcher.check()).isEqualTo(Outcome.UNCHANGED);
        assertThat(reloads("failure")).isZero();
        assertThat(served()).isEqualTo(serial(storeA, "a"));
        replaceAtomically(storeB, live);
        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
    }

    @Test
    void aTrustStoreChangeSeenWhileTheKeyStoreIsMissingIsAppliedOnceTheKeyStoreIsBack() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        Path trusted = Files.copy(certificates.caPem(), dir.resolve("ca-bundle.pem"));
        SslStoreWatcher watcher = watch(live, trusted);
        byte[] keyStoreBytes = Files.readAllBytes(live);

        Files.delete(live); // an operator's "rm; cp", or a volume remounting
        TestCertificates nextCa = TestCertificates.create(dir.resolve("next-ca"));
        Path bundle = dir.resolve("bundle.pem");
        Files.writeString(bundle, Files.readString(certificates.caPem()) + Files.readString(nextCa.caPem()));
        replaceAtomically(bundle, trusted);
        assertThat(watcher.check()).as("the key store cannot be read: wait").isEqualTo(Outcome.UNCHANGED);
        assertThat(reloads("failure")).as("nothing was refused").isZero();

        Files.write(live, keyStoreBytes); // the same key store is back
        assertThat(watcher.check()).as("the new CA is applied now").isEqualTo(Outcome.RELOADED);
        assertThat(listener.serverCertificate()).isPresent();
        assertThat(reloads("success")).isEqualTo(1);
    }

    @Test
    void aCheckAfterTheListenerClosedCountsNoSuccess() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live, certificates.caPem());
        listener.close(); // shutdown closes the listeners before it stops the scheduler
        replaceAtomically(storeB, live);

        watcher.check();
        assertThat(reloads("success")).isZero();
        assertThat(reloads("failure")).isZero();
    }

    @Test
    void respelledLocationsNameTheSameFiles() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        Map<String, Object> respelled = ListenerSecurity.respelled(Map.of("ssl.keystore.location", live.toString(),
            "ssl.truststore.location", "ca.pem", "ssl.keystore.type", "PKCS12"));
        String keyStore = (String) respelled.get("ssl.keystore.location");
        assertThat(keyStore).isNotEqualTo(live.toString()).endsWith("." + File.separator + "broker.p12");
        assertThat(Files.isSameFile(Path.of(keyStore), live)).isTrue();
        assertThat(respelled.get("ssl.truststore.location")).as("a bare name").isEqualTo("." + File.separator + "ca.pem");
        assertThat(respelled.get("ssl.keystore.type")).isEqualTo("PKCS12");
    }

    @Test
    void aGoodKeyStoreWithABrokenTrustStoreIsRefusedWholeAndAppliedOnceTheTrustStoreIsFixed() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        Path trusted = Files.copy(certificates.caPem(), dir.resolve("ca-bundle.pem"));
        SslStoreWatcher watcher = watch(live, trusted);
        replaceAtomically(storeB, live);
        Path broken = Files.writeString(dir.resolve("broken.pem"), "-----BEGIN CERTIFICATE-----\nnot base64\n");
        replaceAtomically(broken, trusted);

        assertThat(watcher.check()).isEqualTo(Outcome.REFUSED);
        assertThat(served()).as("no half reload: the key store is not taken alone").isEqualTo(serial(storeA, "a"));
        replaceAtomically(certificates.caPem(), trusted);
        assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
        assertThat(served()).isEqualTo(serial(storeB, "b"));
    }

    @Test
    void aSaslSslListenerIsReloadedLikeAnSslOne() throws Exception {
        Path live = Files.copy(storeA, dir.resolve("broker.p12"));
        SslStoreWatcher watcher = watch(live, certificates.caPem());
        ListenerSecurity saslSsl = new ListenerSecurity(new EndPoint("SASL_SSL", SecurityProtocol.SASL_SSL,
            "127.0.0.1", 0), security, new CredentialCache(), registry);
        try {
            watcher.watch(saslSsl);
            replaceAtomically(storeB, live);
            assertThat(watcher.check()).isEqualTo(Outcome.RELOADED);
            assertThat(saslSsl.serverCertificate().orElseThrow().getSerialNumber()).isEqualTo(serial(storeB, "b"));
            assertThat(saslSsl.newSslEngine(PEER)).isNotNull();
        } finally {
            saslSsl.close();
        }
    }
}
