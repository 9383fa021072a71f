package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.cluster.BrokerState;
import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.testing.TestBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The broker's health groups as Kubernetes probes read them: readiness follows the broker's own
 * state (not ZooKeeper's), liveness is not UP until the logs are recovered (so a startup probe
 * on it waits for recovery), and readiness drops as soon as the broker starts shutting down.
 */
class BrokerHealthTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readinessStaysUpThroughAZooKeeperOutageWhileTheZooKeeperIndicatorIsDown() throws Exception {
        int zkPort = TestBroker.freePort();
        EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk").toFile(), zkPort, 500, false);
        try {
            String[] args = {"--server.port=0", "--broker.listeners=PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
                "--broker.data-dir=" + dir.resolve("data"), "--broker.zookeeper-connect=127.0.0.1:" + zkPort,
                "--broker.zookeeper-session-timeout-ms=10000"};
            try (ConfigurableApplicationContext context = SpringApplication.run(BrokerApplication.class, args)) {
                int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
                assertThat(get(port, "/actuator/health/readiness")).isEqualTo(200);
                assertThat(get(port, "/actuator/health/liveness")).isEqualTo(200);
                assertThat(get(port, "/actuator/health/zookeeper")).isEqualTo(200);

                zk.close();
                await().atMost(Duration.ofSeconds(20)).until(() -> get(port, "/actuator/health/zookeeper") == 503);
                assertThat(body(port, "/actuator/health/zookeeper")).contains("\"DOWN\"");
                assertThat(get(port, "/actuator/health/readiness")).as("readiness ignores ZooKeeper").isEqualTo(200);
                assertThat(get(port, "/actuator/health/liveness")).isEqualTo(200);
                assertThat(body(port, "/actuator/health/readiness")).contains("\"broker\"").doesNotContain("zookeeper");

                zk = EmbeddedZooKeeper.start(dir.resolve("zk").toFile(), zkPort, 500, false);
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/zookeeper") == 200);
                assertThat(get(port, "/actuator/health")).isEqualTo(200);
            }
        } finally {
            zk.close();
        }
    }

    @Test
    void livenessWaitsForLogRecoveryAndReadinessDropsWhenShutdownStarts() throws Exception {
        int httpPort = TestBroker.freePort();
        Map<BrokerState, String> seen = new ConcurrentHashMap<>();
        SpringApplication app = new SpringApplication(BrokerApplication.class);
        // Probe the endpoints from inside the broker's state changes, on the thread that makes them.
        app.addInitializers(ctx -> ctx.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof BrokerServer broker) {
                    broker.addStateListener(state -> {
                        if (state == BrokerState.RECOVERY || state == BrokerState.PENDING_CONTROLLED_SHUTDOWN) {
                            seen.put(state, "liveness " + get(httpPort, "/actuator/health/liveness") + ", readiness "
                                + get(httpPort, "/actuator/health/readiness") + " " + body(httpPort, "/actuator/health/readiness"));
                        }
                    });
                }
                return bean;
            }
        }));
        try (ConfigurableApplicationContext context = app.run("--server.port=" + httpPort,
                "--broker.listeners=PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
                "--broker.data-dir=" + dir.resolve("data"), "--broker.embedded-zookeeper-port=0")) {
            assertThat(get(httpPort, "/actuator/health/liveness")).isEqualTo(200);
            assertThat(get(httpPort, "/actuator/health/readiness")).isEqualTo(200);
            assertThat(body(httpPort, "/actuator/health/readiness")).contains("RUNNING");
        }
        assertThat(seen.get(BrokerState.RECOVERY)).as("while logs load")
            .startsWith("liveness 503, readiness 503");
        assertThat(seen.get(BrokerState.PENDING_CONTROLLED_SHUTDOWN)).as("during controlled shutdown")
            .startsWith("liveness 200, readiness 503").contains("OUT_OF_SERVICE", "PENDING_CONTROLLED_SHUTDOWN");
    }

    private int get(int port, String path) {
        return send(port, path).statusCode();
    }

    private String body(int port, String path) {
        return send(port, path).body();
    }

    private HttpResponse<String> send(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException("GET " + path + " failed: " + e, e);
        }
    }
}
