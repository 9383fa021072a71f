package io.tributary.adminui.health;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.time.Duration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code restProxy}: UP when the REST proxy answers {@code GET /v3/clusters} within
 * {@value #TIMEOUT_MS} ms, with the cluster id, or answers 401 (it wants its callers signed in; the
 * probe is nobody); DOWN otherwise. Part of the readiness group: a UI
 * that cannot reach its proxy can show nothing.
 */
@Component("restProxy")
public class RestProxyHealthIndicator extends AbstractHealthIndicator {

    static final int TIMEOUT_MS = 3000;

    private final RestProxyClient proxy;
    private final RestProxyLocator locator;

    /** A client of its own with a {@value #TIMEOUT_MS} ms timeout, shorter than the API's, to the located proxy. */
    public RestProxyHealthIndicator(RestProxyProperties properties, RestProxyLocator locator) {
        super("REST proxy health check failed");
        Duration timeout = Duration.ofMillis(TIMEOUT_MS);
        this.locator = locator;
        this.proxy = new RestProxyClient(RestProxyConfiguration.restClient(
            RestProxyProperties.of(properties.restProxyUrl(), timeout, timeout), locator));
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (locator.isDiscovered()) {
            builder.withDetail("discovery", locator.serviceId());
        }
        try {
            String url = locator.current().toString();
            builder.withDetail("url", url);
            builder.up().withDetail("clusterId", proxy.cluster().clusterId());
        } catch (RestProxyException e) {
            if (e.status() == 401) {
                // It answers, and wants its callers signed in: the UI's users sign in, the probe does not.
                builder.up().withDetail("signIn", "required");
            } else {
                builder.down().withDetail("error", e.getMessage());
            }
        } catch (RuntimeException e) {
            builder.down().withDetail("error", RestProxyException.describe(e));
        }
    }
}
