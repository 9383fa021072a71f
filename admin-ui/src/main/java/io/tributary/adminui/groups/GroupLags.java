package io.tributary.adminui.groups;

import io.tributary.adminui.groups.GroupsProxyClient.ProxyConsumer;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyLag;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyLagSummary;
import io.tributary.adminui.proxy.RestProxyException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.security.concurrent.DelegatingSecurityContextExecutorService;
import org.springframework.stereotype.Component;

/**
 * Lag summary and member count of many groups, asked of the proxy at most {@value #CONCURRENCY}
 * calls at a time (two per group). A group deleted between the list and its lookup (404) gets
 * nulls. Thread-safe.
 */
@Component
public class GroupLags implements DisposableBean {

    /** Concurrent proxy calls; each lag summary makes the proxy ask the brokers for offsets. */
    static final int CONCURRENCY = 8;

    /** A group's total lag and member count; nulls when the group is gone. */
    public record Summary(Long totalLag, Integer members) {
    }

    private final GroupsProxyClient proxy;
    // Each lookup runs as the caller who asked (their proxy identity travels with the task).
    private final ExecutorService pool = new DelegatingSecurityContextExecutorService(
        Executors.newFixedThreadPool(CONCURRENCY, r -> {
            Thread thread = new Thread(r, "group-lags");
            thread.setDaemon(true);
            return thread;
        }));

    /** @param proxy the REST proxy's group calls */
    public GroupLags(GroupsProxyClient proxy) {
        this.proxy = proxy;
    }

    /** Each group's summary, in the order given; throws the first proxy error other than 404. */
    public Map<String, Summary> of(String clusterId, List<String> groups) {
        Map<String, CompletableFuture<ProxyLagSummary>> lags = new LinkedHashMap<>();
        Map<String, CompletableFuture<List<ProxyConsumer>>> members = new LinkedHashMap<>();
        for (String group : groups) {
            lags.put(group, CompletableFuture.supplyAsync(() -> orNull(() -> proxy.lagSummary(clusterId, group)), pool));
            members.put(group, CompletableFuture.supplyAsync(() -> orNull(() -> proxy.consumers(clusterId, group)),
                pool));
        }
        Map<String, Summary> summaries = new LinkedHashMap<>();
        try {
            for (String group : groups) {
                ProxyLagSummary lag = lags.get(group).join();
                List<ProxyConsumer> consumers = members.get(group).join();
                summaries.put(group, new Summary(lag == null ? null : lag.totalLag(),
                    consumers == null ? null : consumers.size()));
            }
        } catch (CompletionException e) {
            lags.values().forEach(f -> f.cancel(true));
            members.values().forEach(f -> f.cancel(true));
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        return summaries;
    }

    /**
     * The topics each group has a committed offset or an assigned partition in, from its lags; a group
     * gone since the list is left out. Throws the first proxy error other than 404.
     */
    public Map<String, Set<String>> topics(String clusterId, List<String> groups) {
        Map<String, CompletableFuture<List<ProxyLag>>> lookups = new LinkedHashMap<>();
        for (String group : groups) {
            lookups.put(group, CompletableFuture.supplyAsync(() -> orNull(() -> proxy.lags(clusterId, group)), pool));
        }
        Map<String, Set<String>> topics = new LinkedHashMap<>();
        try {
            lookups.forEach((group, lookup) -> {
                List<ProxyLag> partitions = lookup.join();
                if (partitions != null) {
                    topics.put(group, partitions.stream().map(ProxyLag::topic).collect(Collectors.toSet()));
                }
            });
        } catch (CompletionException e) {
            lookups.values().forEach(f -> f.cancel(true));
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        return topics;
    }

    private static <T> T orNull(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RestProxyException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    @Override
    public void destroy() {
        pool.shutdownNow();
    }
}
