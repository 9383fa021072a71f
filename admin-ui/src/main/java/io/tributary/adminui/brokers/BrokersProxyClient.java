package io.tributary.adminui.brokers;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.adminui.proxy.ProxyResources.AlterConfig;
import io.tributary.adminui.proxy.ProxyResources.AlterConfigs;
import io.tributary.adminui.proxy.ProxyResources.ResourceList;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The REST proxy's v3 broker calls: a broker's configs and the cluster-wide ones
 * ({@code /brokers/{b}/configs}, {@code /broker-configs}, their {@code :alter}), the partition
 * replicas it holds and its log directories. Errors as in {@link RestProxyClient}: the proxy's
 * status and message, 502 when it cannot be reached. Thread-safe.
 */
@Component
public class BrokersProxyClient {

    /** A config's synonym: where else its value could come from. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxySynonym(String name, String value, String source) {
    }

    /** v3 {@code KafkaBrokerConfig} or {@code KafkaClusterConfig}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyBrokerConfig(String name, String value, @JsonProperty("is_default") boolean isDefault,
            @JsonProperty("is_read_only") boolean readOnly, @JsonProperty("is_sensitive") boolean sensitive,
            String source, List<ProxySynonym> synonyms) {
    }

    /** v3 {@code KafkaReplica} of a broker's list, with its partition's leader, replicas and ISR. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyReplica(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition,
            @JsonProperty("is_leader") boolean leader, @JsonProperty("is_in_sync") boolean inSync,
            @JsonProperty("leader_id") Integer leaderId, @JsonProperty("replica_ids") List<Integer> replicas,
            @JsonProperty("isr_ids") List<Integer> isr) {
    }

    /** A log directory of a broker. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyLogDir(@JsonProperty("log_dir") String path, String error, @JsonProperty("size_bytes") long sizeBytes,
            @JsonProperty("total_bytes") Long totalBytes, @JsonProperty("usable_bytes") Long usableBytes,
            List<Object> replicas) {
    }

    private final RestClient http;

    public BrokersProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /** The broker's configs with sources and synonyms. */
    public List<ProxyBrokerConfig> configs(String clusterId, int brokerId) {
        return list("/v3/clusters/{c}/brokers/{b}/configs",
            new ParameterizedTypeReference<ResourceList<ProxyBrokerConfig>>() { }, clusterId, brokerId);
    }

    /** The cluster-wide broker configs (those set for every broker). */
    public List<ProxyBrokerConfig> clusterConfigs(String clusterId) {
        return list("/v3/clusters/{c}/broker-configs",
            new ParameterizedTypeReference<ResourceList<ProxyBrokerConfig>>() { }, clusterId);
    }

    /** The partition replicas the broker holds. */
    public List<ProxyReplica> replicas(String clusterId, int brokerId) {
        return list("/v3/clusters/{c}/brokers/{b}/partition-replicas",
            new ParameterizedTypeReference<ResourceList<ProxyReplica>>() { }, clusterId, brokerId);
    }

    /** The broker's log directories. */
    public List<ProxyLogDir> logDirs(String clusterId, int brokerId) {
        return list("/v3/clusters/{c}/brokers/{b}/log-dirs",
            new ParameterizedTypeReference<ResourceList<ProxyLogDir>>() { }, clusterId, brokerId);
    }

    /**
     * Sets and removes dynamic configs in one {@code configs:alter} call, of one broker ({@code brokerId}
     * not null) or cluster-wide.
     */
    public void alterConfigs(String clusterId, Integer brokerId, Map<String, String> set, List<String> reset) {
        List<AlterConfig> data = new ArrayList<>();
        set.forEach((name, value) -> data.add(new AlterConfig(name, value, "SET")));
        reset.forEach(name -> data.add(new AlterConfig(name, null, "DELETE")));
        RestProxyClient.call(() -> (brokerId == null
                ? http.post().uri("/v3/clusters/{c}/broker-configs:alter", clusterId)
                : http.post().uri("/v3/clusters/{c}/brokers/{b}/configs:alter", clusterId, brokerId))
            .contentType(MediaType.APPLICATION_JSON).body(new AlterConfigs(data)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    private <T> List<T> list(String uri, ParameterizedTypeReference<ResourceList<T>> type, Object... variables) {
        ResourceList<T> list = RestProxyClient.call(() -> http.get().uri(uri, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }
}
