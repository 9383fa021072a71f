package io.tributary.adminui.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.testing.TestPorts;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The {@code restProxy} indicator: UP with the cluster id when the proxy answers, DOWN otherwise. */
class RestProxyHealthIndicatorTest {

    private static RestProxyHealthIndicator indicator(URI url) {
        return new RestProxyHealthIndicator(RestProxyProperties.of(url, Duration.ofSeconds(1), Duration.ofSeconds(1)),
            RestProxyLocator.fixed(url));
    }

    @Test
    void upWhenTheProxyListsItsCluster() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy()) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
            Health health = indicator(proxy.url()).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("clusterId", ProxyJson.CLUSTER);
        }
    }

    @Test
    void downWhenTheProxyAnswersAnErrorOrNotAtAll() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy()) {
            proxy.on("GET", "/v3/clusters", 500, "{\"error_code\":500,\"message\":\"boom\"}");
            Health health = indicator(proxy.url()).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("error", "boom");
        }
        int closedPort;
        closedPort = TestPorts.freePort();
        assertThat(indicator(URI.create("http://127.0.0.1:" + closedPort)).health(true).getStatus())
            .isEqualTo(Status.DOWN);
    }
}
