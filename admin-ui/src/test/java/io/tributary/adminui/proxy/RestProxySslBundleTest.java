package io.tributary.adminui.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.tributary.adminui.testing.ClusterProcesses;
import io.tributary.adminui.testing.ProxyJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * An HTTPS REST proxy with a self-signed certificate (made with the JDK's keytool): the UI's proxy
 * clients, as {@link RestProxyConfiguration} wires them, reach it when {@code admin-ui.rest-proxy-ssl-bundle}
 * names a Spring Boot SSL bundle whose trust store holds the certificate (PKCS12 or PEM), and refuse it
 * without the bundle or with a bundle trusting another certificate.
 */
class RestProxySslBundleTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;
    private static HttpsServer proxy;
    private static String url;

    /** The configuration the UI runs with, minus the web layer. */
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(RestProxyProperties.class)
    @Import(RestProxyConfiguration.class)
    static class ProxyClients {
    }

    private final ApplicationContextRunner ui = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
        .withUserConfiguration(ProxyClients.class);

    @BeforeAll
    static void startProxy() throws Exception {
        keytool("-genkeypair", "-alias", "proxy", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
            "-storetype", "PKCS12", "-keystore", dir.resolve("proxy.p12").toString(), "-storepass", PASSWORD,
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost");
        keytool("-exportcert", "-rfc", "-alias", "proxy", "-keystore", dir.resolve("proxy.p12").toString(),
            "-storepass", PASSWORD, "-file", dir.resolve("proxy.pem").toString());
        keytool("-importcert", "-noprompt", "-alias", "proxy", "-file", dir.resolve("proxy.pem").toString(),
            "-storetype", "PKCS12", "-keystore", dir.resolve("truststore.p12").toString(), "-storepass", PASSWORD);
        // Another self-signed certificate with the same names, which must not open the proxy.
        keytool("-genkeypair", "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
            "-storetype", "PKCS12", "-keystore", dir.resolve("other.p12").toString(), "-storepass", PASSWORD,
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost");
        keytool("-exportcert", "-rfc", "-alias", "other", "-keystore", dir.resolve("other.p12").toString(),
            "-storepass", PASSWORD, "-file", dir.resolve("other.pem").toString());

        proxy = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        proxy.setHttpsConfigurator(new HttpsConfigurator(serverContext(dir.resolve("proxy.p12"))));
        proxy.createContext("/", exchange -> {
            byte[] body = (exchange.getRequestURI().getPath().equals("/v3/clusters") ? ProxyJson.clusters(0)
                : "{\"error_code\":404,\"message\":\"not found\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/v3/clusters") ? 200 : 404,
                body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        proxy.start();
        url = "https://127.0.0.1:" + proxy.getAddress().getPort();
    }

    @AfterAll
    static void stopProxy() {
        if (proxy != null) {
            proxy.stop(0);
        }
    }

    @Test
    void reachesTheProxyThroughAPkcs12TrustStoreBundle() {
        ui.withPropertyValues("admin-ui.rest-proxy-url=" + url, "admin-ui.rest-proxy-ssl-bundle=proxy",
                "spring.ssl.bundle.jks.proxy.truststore.location=file:" + dir.resolve("truststore.p12"),
                "spring.ssl.bundle.jks.proxy.truststore.password=" + PASSWORD,
                "spring.ssl.bundle.jks.proxy.truststore.type=PKCS12")
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(RestProxyClient.class).cluster().clusterId()).isEqualTo(ProxyJson.CLUSTER);
            });
    }

    @Test
    void reachesTheProxyThroughAPemBundle() {
        ui.withPropertyValues("admin-ui.rest-proxy-url=" + url, "admin-ui.rest-proxy-ssl-bundle=proxy",
                "spring.ssl.bundle.pem.proxy.truststore.certificate=file:" + dir.resolve("proxy.pem"))
            .run(context -> assertThat(context.getBean(RestProxyClient.class).cluster().clusterId())
                .isEqualTo(ProxyJson.CLUSTER));
    }

    @Test
    void takesTheBundleFromEnvironmentVariablesAsTheHelmChartSetsThem() {
        // The chart's names (helm/tributary/templates/admin-ui/deployment.yaml): bundle "restproxy".
        Map<String, Object> variables = Map.of("ADMIN_UI_REST_PROXY_URL", url,
            "ADMIN_UI_REST_PROXY_SSL_BUNDLE", "restproxy",
            "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_LOCATION", "file:" + dir.resolve("truststore.p12"),
            "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_TYPE", "PKCS12",
            "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_PASSWORD", PASSWORD);
        ui.withInitializer(context -> context.getEnvironment().getPropertySources()
                .addFirst(new SystemEnvironmentPropertySource("chart-systemEnvironment", variables)))
            .run(context -> assertThat(context.getBean(RestProxyClient.class).cluster().clusterId())
                .isEqualTo(ProxyJson.CLUSTER));
    }

    @Test
    void refusesTheProxyWithoutABundleTrustingItsCertificate() {
        ui.withPropertyValues("admin-ui.rest-proxy-url=" + url).run(context ->
            assertThatThrownBy(() -> context.getBean(RestProxyClient.class).cluster())
                .isInstanceOfSatisfying(RestProxyException.class, e -> assertThat(e.status()).isEqualTo(502)));
        ui.withPropertyValues("admin-ui.rest-proxy-url=" + url, "admin-ui.rest-proxy-ssl-bundle=proxy",
                "spring.ssl.bundle.pem.proxy.truststore.certificate=file:" + dir.resolve("other.pem"))
            .run(context ->
                assertThatThrownBy(() -> context.getBean(RestProxyClient.class).cluster())
                    .isInstanceOfSatisfying(RestProxyException.class, e -> assertThat(e.status()).isEqualTo(502)));
    }

    @Test
    void anUnknownBundleStopsTheStart() {
        ui.withPropertyValues("admin-ui.rest-proxy-url=" + url, "admin-ui.rest-proxy-ssl-bundle=missing")
            .run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("missing"));
    }

    private static SSLContext serverContext(Path keyStore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private static void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // The build's test.jvm.flags, as a JDK tool takes JVM options.
        ClusterProcesses.testJvmFlags().forEach(flag -> command.add("-J" + flag));
        command.addAll(List.of(arguments));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }
}
