package io.tributary.adminui.proxy;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the REST proxy is and how long to wait for it.
 *
 * @param restProxyUrl          base URL of the REST proxy ({@code admin-ui.rest-proxy-url}); when not
 *                              set, a proxy registered in ZooKeeper if {@code admin-ui.zookeeper-connect}
 *                              is set, else {@code http://localhost:8082}
 * @param zookeeperConnect      ZooKeeper connect string where the REST proxies register for discovery
 *                              ({@link DiscoveryEnvironmentPostProcessor}); blank turns discovery off
 * @param restProxyServiceId    the service name the proxies register as (their {@code spring.application.name})
 * @param connectTimeout        time to open a connection to the proxy
 * @param readTimeout           time to wait for an answer; creating or deleting a topic waits for the brokers
 * @param restProxySslBundle    name of the Spring Boot SSL bundle ({@code spring.ssl.bundle.*}) whose trust
 *                              store the UI trusts an HTTPS proxy's certificate with; blank: the JVM's default
 *                              trust store
 */
@ConfigurationProperties("admin-ui")
public record RestProxyProperties(
        URI restProxyUrl,
        @DefaultValue("") String zookeeperConnect,
        @DefaultValue("tributary-rest-proxy") String restProxyServiceId,
        @DefaultValue("3s") Duration connectTimeout,
        @DefaultValue("30s") Duration readTimeout,
        @DefaultValue("") String restProxySslBundle) {

    /** The proxy used when neither a URL nor ZooKeeper is configured. */
    public static final URI DEFAULT_URL = URI.create("http://localhost:8082");

    /** A fixed proxy URL with these timeouts (no discovery). */
    public static RestProxyProperties of(URI restProxyUrl, Duration connectTimeout, Duration readTimeout) {
        return new RestProxyProperties(restProxyUrl, "", "tributary-rest-proxy", connectTimeout, readTimeout, "");
    }

    /** Whether the proxy is to be found through ZooKeeper: no URL given, and ZooKeeper is. */
    public boolean discoversProxy() {
        return restProxyUrl == null && !zookeeperConnect.isBlank();
    }
}
