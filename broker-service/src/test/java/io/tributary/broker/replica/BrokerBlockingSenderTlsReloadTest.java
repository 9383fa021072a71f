package io.tributary.broker.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.testing.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower's connection to a leader over TLS presents the rotated client certificate once the
 * key store file changed and {@link BrokerBlockingSender#reloadSslStores()} ran: the "leader" here
 * is a TLS server that requires a client certificate, records it and hangs up.
 */
class BrokerBlockingSenderTlsReloadTest {

    @TempDir
    Path dir;

    @Test
    void connectionsOpenedAfterAReloadPresentTheNewClientCertificate() throws Exception {
        rotateAndCheck(false);
    }

    @Test
    void aCopyThatKeptTheOldModificationTimeIsPresentedAfterAReloadToo() throws Exception {
        rotateAndCheck(true); // cp -p, rsync -t: SslFactory alone sees no change
    }

    private void rotateAndCheck(boolean keepModificationTime) throws Exception {
        TestCertificates certificates = TestCertificates.create(dir.resolve("certs"));
        Path storeA = certificates.keyStore("a", "CN=broker-1,OU=brokers");
        Path storeB = certificates.keyStore("b", "CN=broker-1,OU=brokers");
        Path live = Files.copy(storeA, dir.resolve("client.p12"));
        BlockingQueue<BigInteger> presented = new LinkedBlockingQueue<>();
        try (SSLServerSocket leader = recordingServer(storeA, presented)) {
            Thread acceptor = new Thread(() -> acceptAndHangUp(leader), "tls-leader");
            acceptor.setDaemon(true);
            acceptor.start();
            Map<String, Object> clientConfigs = BrokerSecurityProperties.bind(Map.of(
                "broker.ssl-keystore-type", "PKCS12",
                "broker.ssl-keystore-location", live.toString(),
                "broker.ssl-keystore-password", TestCertificates.PASSWORD,
                "broker.ssl-truststore-type", "PEM",
                "broker.ssl-truststore-location", certificates.caPem().toString()))
                .clientConfigs(SecurityProtocol.SSL, "INTERNAL");
            Node node = new Node(0, "127.0.0.1", leader.getLocalPort());
            try (BrokerBlockingSender sender = new BrokerBlockingSender("follower", "INTERNAL", clientConfigs, 5_000,
                    100, Time.SYSTEM)) {
                assertThatThrownBy(() -> sender.sendRequest(node, new ApiVersionsRequest.Builder()))
                    .isInstanceOf(IOException.class);
                assertThat(presented.poll(10, TimeUnit.SECONDS)).isEqualTo(serial(storeA, "a"));

                if (keepModificationTime) {
                    var modified = Files.getLastModifiedTime(live);
                    Files.copy(storeB, live, StandardCopyOption.REPLACE_EXISTING);
                    Files.setLastModifiedTime(live, modified);
                } else {
                    Path temporary = dir.resolve("client.p12.tmp");
                    Files.copy(storeB, temporary);
                    Files.move(temporary, live, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                sender.reloadSslStores();

                assertThatThrownBy(() -> sender.sendRequest(node, new ApiVersionsRequest.Builder()))
                    .isInstanceOf(IOException.class);
                assertThat(presented.poll(10, TimeUnit.SECONDS)).isEqualTo(serial(storeB, "b"));
            }
        }
    }

    private static SSLServerSocket recordingServer(Path keyStore, BlockingQueue<BigInteger> presented)
            throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, TestCertificates.PASSWORD.toCharArray());
        X509TrustManager recordClients = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                presented.add(chain[0].getSerialNumber());
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), new TrustManager[] {recordClients}, null);
        SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory()
            .createServerSocket(0, 10, InetAddress.getLoopbackAddress());
        server.setNeedClientAuth(true);
        return server;
    }

    private static void acceptAndHangUp(SSLServerSocket server) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(5_000);
                ((SSLSocket) socket).startHandshake();
            } catch (IOException e) {
                // a failed handshake or the server closing: next connection, or the end
            }
        }
    }

    private static BigInteger serial(Path store, String alias) throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        return ((X509Certificate) keyStore.getCertificate(alias)).getSerialNumber();
    }
}
