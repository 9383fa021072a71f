package io.tributary.adminui.proxy;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Which REST proxy the UI talks to: the one configured ({@code admin-ui.rest-proxy-url}), or, when
 * none is, one of the proxies registered for discovery in ZooKeeper (Spring Cloud Zookeeper,
 * service {@code admin-ui.rest-proxy-service-id}, {@code tributary-rest-proxy} by default).
 *
 * <p>A discovered proxy is kept until a call to it fails to connect: message searches live in the
 * proxy that started them, so the UI must keep asking the same one. The next call then picks again
 * among the registered proxies.
 *
 * <p>It also carries the TLS context to reach an HTTPS proxy with ({@link #sslContext()}), when the
 * proxy's certificate is trusted through an SSL bundle ({@code admin-ui.rest-proxy-ssl-bundle}) rather
 * than the JVM's trust store. Thread-safe.
 */
public final class RestProxyLocator {

    private static final String PLACEHOLDER_BASE = "http://rest-proxy";

    private final URI configured;
    private final DiscoveryClient discovery;
    private final String serviceId;
    private final SSLContext sslContext;
    private final AtomicReference<URI> chosen = new AtomicReference<>();

    private RestProxyLocator(URI configured, DiscoveryClient discovery, String serviceId, SSLContext sslContext) {
        this.configured = configured;
        this.discovery = discovery;
        this.serviceId = serviceId;
        this.sslContext = sslContext;
    }

    /** Always the proxy at {@code url} (its path, if any, prefixes every call). */
    public static RestProxyLocator fixed(URI url) {
        return new RestProxyLocator(Objects.requireNonNull(url, "url"), null, null, null);
    }

    /** The proxies registered as {@code serviceId} in {@code discovery}. */
    public static RestProxyLocator discovered(DiscoveryClient discovery, String serviceId) {
        return new RestProxyLocator(null, Objects.requireNonNull(discovery, "discovery"),
            Objects.requireNonNull(serviceId, "serviceId"), null);
    }

    /** The same proxy (or proxies), reached over HTTPS with {@code context}'s trust. */
    public RestProxyLocator withSslContext(SSLContext context) {
        return new RestProxyLocator(configured, discovery, serviceId, Objects.requireNonNull(context, "context"));
    }

    /** The TLS context the UI's HTTP clients use toward the proxy; null: the JVM's default. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /** Whether the proxy is found through discovery rather than configured. */
    public boolean isDiscovered() {
        return discovery != null;
    }

    /** The discovery service id proxies register as; null when the proxy is configured. */
    public String serviceId() {
        return serviceId;
    }

    /**
     * The base URL of the proxy to call now.
     *
     * @throws RestProxyException status 503 when discovery finds no registered proxy
     */
    public URI current() {
        if (configured != null) {
            return configured;
        }
        URI uri = chosen.get();
        if (uri != null) {
            return uri;
        }
        List<ServiceInstance> instances = discovery.getInstances(serviceId);
        if (instances.isEmpty()) {
            throw RestProxyException.noProxy("No REST proxy is registered in ZooKeeper as '" + serviceId
                + "' (set admin-ui.rest-proxy-url to name one)");
        }
        URI picked = instances.get(ThreadLocalRandom.current().nextInt(instances.size())).getUri();
        return chosen.compareAndSet(null, picked) ? picked : chosen.get();
    }

    /**
     * Where the UI looks for its proxy, for people: the configured URL, the discovered proxy in use,
     * or "registered in ZooKeeper as '<service>'" while none is chosen.
     */
    public String describe() {
        if (configured != null) {
            return configured.toString();
        }
        URI uri = chosen.get();
        return uri != null ? uri.toString() : "registered in ZooKeeper as '" + serviceId + "'";
    }

    /** Forgets {@code uri} as the discovered proxy after a call to it could not connect or was cut. */
    public void failed(URI uri) {
        if (discovery != null) {
            chosen.compareAndSet(uri, null);
        }
    }

    /**
     * The base URL for a {@code RestClient}: the configured URL, or a placeholder whose scheme, host
     * and port {@link #interceptor()} replaces on each call.
     */
    public String clientBaseUrl() {
        return configured != null ? configured.toString() : PLACEHOLDER_BASE;
    }

    /**
     * For discovery: sends each request to {@link #current()} and forgets that proxy when the request
     * fails with an I/O error. Null for a configured proxy, which needs none.
     */
    public ClientHttpRequestInterceptor interceptor() {
        return discovery == null ? null : this::sendToCurrent;
    }

    private ClientHttpResponse sendToCurrent(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        URI base = current();
        URI target = UriComponentsBuilder.fromUri(request.getURI()).scheme(base.getScheme()).host(base.getHost())
            .port(base.getPort()).build(true).toUri();
        try {
            return execution.execute(new HttpRequestWrapper(request) {
                @Override
                public URI getURI() {
                    return target;
                }
            }, body);
        } catch (IOException e) {
            failed(base);
            throw e;
        }
    }

    @Override
    public String toString() {
        return configured != null ? configured.toString() : "discovery:" + serviceId;
    }
}
