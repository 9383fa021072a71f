package io.tributary.adminui.proxy;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/** Wires the {@link RestProxyClient} to {@code admin-ui.rest-proxy-url} with its timeouts. */
@Configuration(proxyBeanMethods = false)
public class RestProxyConfiguration {

    /** The proxy client used by every API controller and the {@code restProxy} health indicator. */
    @Bean
    public RestProxyClient restProxyClient(RestProxyProperties properties) {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(properties.connectTimeout());
        requests.setReadTimeout(properties.readTimeout());
        return new RestProxyClient(RestClient.builder().baseUrl(properties.restProxyUrl().toString())
            .requestFactory(requests).build());
    }
}
