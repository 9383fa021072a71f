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
import org.springframework.security.concurrent.DelegatingSecurityContextExecutorService;
import org.springframework.stereotype.Component;

/**
 * Each topic's count of under-replicated and offline partitions: from the topic list when the
 * proxy gives them (Tributary's proxy does), else from the topics' partition states, asked of the
 * proxy at most {@value #CONCURRENCY} topics at a time (a proxy without the counts, e.g.
 * Confluent's). A topic deleted between the list and its lookup (404) counts nothing.
 * Thread-safe.
 */
@Component
public class TopicStates implements DisposableBean {

    /** Concurrent proxy calls; the proxy answers each from Kafka metadata. */
    static final int CONCURRENCY = 8;

    private final RestProxyClient proxy;
    // Each lookup runs as the caller who asked (their proxy identity travels with the task).
    private final ExecutorService pool = new DelegatingSecurityContextExecutorService(
        Executors.newFixedThreadPool(CONCURRENCY, r -> {
            Thread thread = new Thread(r, "topic-states");
            thread.setDaemon(true);
            return thread;
        }));

    /** @param proxy the REST proxy */
    public TopicStates(RestProxyClient proxy) {
        this.proxy = proxy;
    }

    /** Under-replicated and offline partitions of one topic. */
    public record HealthCounts(int underReplicated, int offline) {

        /** No partition under-replicated or offline. */
        public boolean healthy() {
            return underReplicated == 0 && offline == 0;
        }
    }

    /**
     * Health counts of topics, and the partition states read to get them.
     *
     * @param counts each topic's counts, keyed by name in the order given
     * @param read   the partition states of the topics the list gave no counts for, by name; empty
     *               when every topic had its counts
     */
    public record Health(Map<String, HealthCounts> counts, Map<String, List<PartitionState>> read) {
    }

    /**
     * The health counts of {@code topics}, keyed by name in the order given; looks up only the
     * topics the list gave no counts for. Throws the first proxy error other than 404.
     */
    public Map<String, HealthCounts> healthOf(List<ProxyResources.Topic> topics) {
        return health(topics).counts();
    }

    /**
     * As {@link #healthOf}, with the partition states it read, so a caller that needs them too
     * (which brokers the replicas are on) does not ask the proxy again.
     */
    public Health health(List<ProxyResources.Topic> topics) {
        List<String> missing = topics.stream().filter(t -> !t.hasHealthCounts()).map(ProxyResources.Topic::topicName)
            .toList();
        Map<String, List<PartitionState>> looked = missing.isEmpty() ? Map.of() : of(missing);
        Map<String, HealthCounts> counts = new LinkedHashMap<>();
        for (ProxyResources.Topic topic : topics) {
            if (topic.hasHealthCounts()) {
                counts.put(topic.topicName(), new HealthCounts(topic.underReplicatedPartitionsCount(),
                    topic.offlinePartitionsCount()));
            } else {
                List<PartitionState> states = looked.getOrDefault(topic.topicName(), List.of());
                counts.put(topic.topicName(), new HealthCounts(
                    (int) states.stream().filter(PartitionState::underReplicated).count(),
                    (int) states.stream().filter(PartitionState::offline).count()));
            }
        }
        return new Health(counts, looked);
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
