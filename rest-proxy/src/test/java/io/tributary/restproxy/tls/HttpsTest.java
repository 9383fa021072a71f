package io.tributary.restproxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.testing.ProxyTestBase;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The API over HTTPS: a PKCS12 key store made with the JDK's keytool, served through a Spring Boot
 * SSL bundle ({@code spring.ssl.bundle.jks.<name>.*} and {@code server.ssl.bundle}).
 */
class HttpsTest extends ProxyTestBase {

    private static final String PASSWORD = "changeit";
    private static Path keyStore;

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("spring.ssl.bundle.jks.web.keystore.location", () -> "file:" + keyStore());
        registry.add("spring.ssl.bundle.jks.web.keystore.password", () -> PASSWORD);
        registry.add("spring.ssl.bundle.jks.web.keystore.type", () -> "PKCS12");
        registry.add("server.ssl.bundle", () -> "web");
    }

    private static synchronized Path keyStore() {
        if (keyStore == null) {
            try {
                Path dir = Files.createTempDirectory("rest-proxy-tls");
                Path file = dir.resolve("proxy.p12");
                Process keytool = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                    "-alias", "proxy", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", PASSWORD,
                    "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost"))
                    .redirectErrorStream(true).start();
                String output = new String(keytool.getInputStream().readAllBytes());
                if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                    throw new IllegalStateException("keytool failed: " + output);
                }
                keyStore = file;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return keyStore;
    }

    @Test
    void servesTheApiOverTls() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(trusting(keyStore()))
            .connectTimeout(Duration.ofSeconds(10)).build();

        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
            URI.create("https://127.0.0.1:" + port + "/topics")).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("[");
        assertThat(response.sslSession()).isPresent();
    }

    @Test
    void refusesAClientThatDoesNotTrustTheCertificate() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port
            + "/topics")).GET().build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
    }

    /** An SSL context trusting the certificate in the key store. */
    private static SSLContext trusting(Path store) throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            trusted.load(in, PASSWORD.toCharArray());
        }
        KeyStore certificates = KeyStore.getInstance("PKCS12");
        certificates.load(null, null);
        certificates.setCertificateEntry("proxy", trusted.getCertificate("proxy"));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(certificates);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
