package io.tributary.adminui.proxy;

import io.tributary.adminui.proxy.ProxyResources.PartitionState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Partition states (leader, in-sync flags) of many topics, asked of the proxy at most
 * {@value #CONCURRENCY} topics at a time. A topic deleted between the list and its lookup (404) is
 * left out. Thread-safe.
 */
@Component
public class TopicStates implements DisposableBean {

    /** Concurrent proxy calls; the proxy answers each from Kafka metadata. */
    static final int CONCURRENCY = 8;

    private final RestProxyClient proxy;
    private final ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY, r -> {
        Thread thread = new Thread(r, "topic-states");
        thread.setDaemon(true);
        return thread;
    });

    /** @param proxy the REST proxy */
    public TopicStates(RestProxyClient proxy) {
        this.proxy = proxy;
    }

    /** Each topic's partition states, in the order given; throws the first proxy error other than 404. */
    public Map<String, List<PartitionState>> of(List<String> topics) {
        Map<String, CompletableFuture<List<PartitionState>>> futures = new LinkedHashMap<>();
        for (String topic : topics) {
            futures.put(topic, CompletableFuture.supplyAsync(() -> lookup(topic), pool));
        }
        Map<String, List<PartitionState>> states = new LinkedHashMap<>();
        try {
            futures.forEach((topic, future) -> states.put(topic, future.join()));
        } catch (CompletionException e) {
            futures.values().forEach(f -> f.cancel(true));
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        return states;
    }

    private List<PartitionState> lookup(String topic) {
        try {
            return proxy.partitionStates(topic);
        } catch (RestProxyException e) {
            if (e.status() == 404) {
                return List.of();
            }
            throw e;
        }
    }

    @Override
    public void destroy() {
        pool.shutdownNow();
    }
}
