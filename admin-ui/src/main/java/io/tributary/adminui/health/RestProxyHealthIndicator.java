package io.tributary.adminui.health;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.time.Duration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * Health {@code restProxy}: UP when the REST proxy answers {@code GET /v3/clusters} within
 * {@value #TIMEOUT_MS} ms, with the cluster id; DOWN otherwise. Part of the readiness group: a UI
 * that cannot reach its proxy can show nothing.
 */
@Component("restProxy")
public class RestProxyHealthIndicator extends AbstractHealthIndicator {

    static final int TIMEOUT_MS = 3000;

    private final RestProxyClient proxy;
    private final String url;

    /** A client of its own with a {@value #TIMEOUT_MS} ms timeout, shorter than the API's. */
    public RestProxyHealthIndicator(RestProxyProperties properties) {
        super("REST proxy health check failed");
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(Duration.ofMillis(TIMEOUT_MS));
        requests.setReadTimeout(Duration.ofMillis(TIMEOUT_MS));
        this.url = properties.restProxyUrl().toString();
        this.proxy = new RestProxyClient(RestClient.builder().baseUrl(url).requestFactory(requests).build());
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try {
            builder.up().withDetail("url", url).withDetail("clusterId", proxy.cluster().clusterId());
        } catch (RuntimeException e) {
            builder.down().withDetail("url", url).withDetail("error", e.getMessage());
        }
    }
}
