package io.tributary.adminui.proxy;

import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Wires the {@link RestProxyClient} to the proxy the {@link RestProxyLocator} gives, with its
 * timeouts. The JDK's HTTP client (HTTP/1.1) carries the calls: unlike {@code HttpURLConnection}
 * it can send PATCH, which adding partitions needs. An HTTPS proxy's certificate is trusted through
 * the SSL bundle {@code admin-ui.rest-proxy-ssl-bundle} names, else through the JVM's trust store.
 */
@Configuration(proxyBeanMethods = false)
public class RestProxyConfiguration {

    /**
     * The configured proxy, or the proxies registered in ZooKeeper when no URL is set and
     * {@code admin-ui.zookeeper-connect} is; with the trust of the SSL bundle
     * {@code admin-ui.rest-proxy-ssl-bundle} when it is set.
     *
     * @throws org.springframework.boot.ssl.NoSuchSslBundleException when no such bundle is configured
     */
    @Bean
    public RestProxyLocator restProxyLocator(RestProxyProperties properties, ObjectProvider<DiscoveryClient> discovery,
            ObjectProvider<SslBundles> sslBundles) {
        RestProxyLocator locator = locator(properties, discovery.getIfAvailable());
        if (properties.restProxySslBundle().isBlank()) {
            return locator;
        }
        SslBundles bundles = sslBundles.getIfAvailable();
        if (bundles == null) {
            throw new IllegalStateException("admin-ui.rest-proxy-ssl-bundle is set but no SSL bundles are configured");
        }
        return locator.withSslContext(bundles.getBundle(properties.restProxySslBundle()).createSslContext());
    }

    /** The proxy client used by the topic and cluster controllers. */
    @Bean
    public RestProxyClient restProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        return new RestProxyClient(restClient(properties, locator));
    }

    /**
     * The locator for these properties.
     *
     * @throws IllegalStateException when discovery is asked for but no discovery client runs
     */
    public static RestProxyLocator locator(RestProxyProperties properties, DiscoveryClient discovery) {
        if (!properties.discoversProxy()) {
            return RestProxyLocator.fixed(properties.restProxyUrl() != null ? properties.restProxyUrl()
                : RestProxyProperties.DEFAULT_URL);
        }
        if (discovery == null) {
            throw new IllegalStateException("admin-ui.zookeeper-connect is set but no discovery client is running"
                + " (spring.cloud.zookeeper.discovery.enabled=false?)");
        }
        return RestProxyLocator.discovered(discovery, properties.restProxyServiceId());
    }

    /**
     * An HTTP client of the located proxy with its connect and read timeouts: the one way every
     * proxy client of the UI (topics, groups, messages) is built. Each call carries the signed-in
     * caller's identity ({@link CallerIdentity}).
     */
    public static RestClient restClient(RestProxyProperties properties, RestProxyLocator locator) {
        HttpClient client = httpClient(properties.connectTimeout(), locator).version(HttpClient.Version.HTTP_1_1)
            .build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(client);
        requests.setReadTimeout(properties.readTimeout());
        RestClient.Builder builder = RestClient.builder().baseUrl(locator.clientBaseUrl()).requestFactory(requests);
        ClientHttpRequestInterceptor interceptor = locator.interceptor();
        if (interceptor != null) {
            builder.requestInterceptor(interceptor);
        }
        builder.requestInterceptor(CallerIdentity.INTERCEPTOR);
        return builder.build();
    }

    /**
     * A JDK HTTP client builder toward the located proxy: the connect timeout, and the locator's TLS
     * context when it has one. Every client of the proxy starts from it, so all trust the same certificates.
     */
    public static HttpClient.Builder httpClient(Duration connectTimeout, RestProxyLocator locator) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(connectTimeout);
        if (locator.sslContext() != null) {
            builder.sslContext(locator.sslContext());
        }
        return builder;
    }
}
