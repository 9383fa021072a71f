package io.tributary.adminui.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

/** Choosing the REST proxy: a configured URL, or a registered proxy kept until it stops answering. */
class RestProxyLocatorTest {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private static final String SERVICE = "tributary-rest-proxy";

    /** A discovery client over a list the test changes, as proxies come and go. */
    private static final class Registry implements DiscoveryClient {
        final List<ServiceInstance> instances = new CopyOnWriteArrayList<>();

        void register(URI uri) {
            instances.add(new DefaultServiceInstance(uri.toString(), SERVICE, uri.getHost(), uri.getPort(), false));
        }

        @Override
        public String description() {
            return "test registry";
        }

        @Override
        public List<ServiceInstance> getInstances(String serviceId) {
            return SERVICE.equals(serviceId) ? List.copyOf(instances) : List.of();
        }

        @Override
        public List<String> getServices() {
            return List.of(SERVICE);
        }
    }

    @Test
    void aConfiguredUrlIsUsedAsItIs() {
        RestProxyLocator locator = RestProxyConfiguration.locator(
            RestProxyProperties.of(URI.create("http://proxy.example:8082/kafka"), Duration.ofSeconds(1),
                Duration.ofSeconds(1)), null);
        assertThat(locator.isDiscovered()).isFalse();
        assertThat(locator.current()).isEqualTo(URI.create("http://proxy.example:8082/kafka"));
        assertThat(locator.clientBaseUrl()).isEqualTo("http://proxy.example:8082/kafka");
        assertThat(locator.interceptor()).isNull();
    }

    @Test
    void withoutUrlOrZooKeeperTheLocalDefaultIsUsed() {
        RestProxyProperties properties = new RestProxyProperties(null, "", SERVICE, Duration.ofSeconds(1),
            Duration.ofSeconds(1), "");
        assertThat(properties.discoversProxy()).isFalse();
        assertThat(RestProxyConfiguration.locator(properties, null).current())
            .isEqualTo(URI.create("http://localhost:8082"));
    }

    @Test
    void zooKeeperWithoutADiscoveryClientIsAClearStartupError() {
        RestProxyProperties properties = new RestProxyProperties(null, "zk:2181", SERVICE, Duration.ofSeconds(1),
            Duration.ofSeconds(1), "");
        assertThatThrownBy(() -> RestProxyConfiguration.locator(properties, null))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("admin-ui.zookeeper-connect");
    }

    @Test
    void aDiscoveredProxyIsKeptUntilItFails() {
        Registry registry = new Registry();
        URI a = URI.create("http://10.0.0.1:8082");
        URI b = URI.create("http://10.0.0.2:8082");
        registry.register(a);
        registry.register(b);
        RestProxyLocator locator = RestProxyLocator.discovered(registry, SERVICE);

        URI first = locator.current();
        assertThat(first).isIn(a, b);
        for (int i = 0; i < 50; i++) {
            assertThat(locator.current()).as("the same proxy while it answers").isEqualTo(first);
        }
        URI other = first.equals(a) ? b : a;
        locator.failed(other);
        assertThat(locator.current()).as("a failure of another proxy changes nothing").isEqualTo(first);

        registry.instances.removeIf(instance -> instance.getUri().equals(first));
        locator.failed(first);
        assertThat(locator.current()).isEqualTo(other);
    }

    @Test
    void noRegisteredProxyIs503WithWhatToDo() {
        RestProxyLocator locator = RestProxyLocator.discovered(new Registry(), SERVICE);
        assertThatThrownBy(locator::current).isInstanceOfSatisfying(RestProxyException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.getMessage()).contains(SERVICE).contains("admin-ui.rest-proxy-url");
        });
    }

    @Test
    void callsGoToTheDiscoveredProxyAndMoveOnWhenItStopsAnswering() throws Exception {
        Registry registry = new Registry();
        RestProxyLocator locator = RestProxyLocator.discovered(registry, SERVICE);
        RestProxyClient client = new RestProxyClient(RestProxyConfiguration.restClient(
            RestProxyProperties.of(null, Duration.ofSeconds(2), READ_TIMEOUT), locator));

        assertThatThrownBy(client::cluster).isInstanceOfSatisfying(RestProxyException.class,
            e -> assertThat(e.status()).isEqualTo(503));

        try (StubRestProxy second = new StubRestProxy()) {
            second.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
            try (StubRestProxy first = new StubRestProxy()) {
                first.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
                registry.register(first.url());
                assertThat(client.cluster().clusterId()).isEqualTo(ProxyJson.CLUSTER);
                assertThat(locator.current()).isEqualTo(first.url());
                registry.register(second.url());
            }
            registry.instances.removeIf(instance -> instance.getPort() != second.url().getPort());
            // The first proxy is gone: this call fails (502) and the next goes to the second.
            assertThatThrownBy(client::cluster).isInstanceOfSatisfying(RestProxyException.class,
                e -> assertThat(e.status()).isEqualTo(502));
            assertThat(client.cluster().clusterId()).isEqualTo(ProxyJson.CLUSTER);
            assertThat(locator.current()).isEqualTo(second.url());
        }
    }
}
