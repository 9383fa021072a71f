package io.tributary.adminui.throughput;

import io.tributary.adminui.proxy.CallerIdentity;
import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.RestProxyClient;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the {@link ThroughputService} to the REST proxy's broker list and the system clock. */
@Configuration(proxyBeanMethods = false)
public class ThroughputConfiguration {

    /** The signed-in user who last opened the chart: the scrapes list the brokers as them. */
    @Bean
    public CallerIdentity.LastCaller throughputViewer() {
        return new CallerIdentity.LastCaller();
    }

    /**
     * Scrapes the brokers the REST proxy lists, at the URLs {@link ThroughputProperties} makes of them;
     * the broker list is asked of the proxy as the user who last opened the chart.
     */
    @Bean
    public ThroughputService throughputService(RestProxyClient proxy, ThroughputProperties properties,
            CallerIdentity.LastCaller throughputViewer) {
        Supplier<List<ThroughputService.Target>> targets = targets(proxy, properties);
        return ThroughputService.scheduled(() -> throughputViewer.callAs(targets), properties, Clock.systemUTC());
    }

    /** The brokers of the REST proxy's broker list, each with its metrics URL. */
    public static Supplier<List<ThroughputService.Target>> targets(RestProxyClient proxy,
            ThroughputProperties properties) {
        return () -> {
            Cluster cluster = proxy.cluster();
            return proxy.brokers(cluster.clusterId()).stream()
                .map(b -> new ThroughputService.Target(b.brokerId(), properties.metricsUrl(b.brokerId(), b.host())))
                .toList();
        };
    }
}
