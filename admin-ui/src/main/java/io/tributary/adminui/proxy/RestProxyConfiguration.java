package io.tributary.adminui.proxy;

import java.net.http.HttpClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Wires the {@link RestProxyClient} to {@code admin-ui.rest-proxy-url} with its timeouts. The JDK's
 * HTTP client (HTTP/1.1) carries the calls: unlike {@code HttpURLConnection} it can send PATCH,
 * which adding partitions needs.
 */
@Configuration(proxyBeanMethods = false)
public class RestProxyConfiguration {

    /** The proxy client used by the topic and cluster controllers. */
    @Bean
    public RestProxyClient restProxyClient(RestProxyProperties properties) {
        return new RestProxyClient(restClient(properties));
    }

    /**
     * An HTTP client of the proxy at {@code admin-ui.rest-proxy-url} with its connect and read
     * timeouts: the one way every proxy client of the UI (topics, groups, messages) is built.
     */
    public static RestClient restClient(RestProxyProperties properties) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(properties.connectTimeout()).build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(client);
        requests.setReadTimeout(properties.readTimeout());
        return RestClient.builder().baseUrl(properties.restProxyUrl().toString()).requestFactory(requests).build();
    }
}
