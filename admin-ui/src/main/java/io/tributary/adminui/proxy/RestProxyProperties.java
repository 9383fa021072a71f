package io.tributary.adminui.proxy;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the REST proxy is and how long to wait for it.
 *
 * @param restProxyUrl   base URL of the REST proxy ({@code admin-ui.rest-proxy-url})
 * @param connectTimeout time to open a connection to the proxy
 * @param readTimeout    time to wait for an answer; creating or deleting a topic waits for the brokers
 */
@ConfigurationProperties("admin-ui")
public record RestProxyProperties(
        @DefaultValue("http://localhost:8082") URI restProxyUrl,
        @DefaultValue("3s") Duration connectTimeout,
        @DefaultValue("30s") Duration readTimeout) {
}
