package io.tributary.adminui.reassignments;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.adminui.proxy.ProxyResources.ResourceList;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.util.List;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The REST proxy's v3 reassignment calls: the ongoing ones
 * ({@code GET /topics/-/partitions/-/reassignment}), starting some ({@code POST} there, Tributary's)
 * and cancelling one ({@code DELETE .../partitions/{p}/reassignment}, Tributary's). Errors as in
 * {@link RestProxyClient}. Thread-safe.
 */
@Component
public class ReassignmentsProxyClient {

    /** An added replica's bytes on disk against the leader's (null when not known), and whether it is in sync. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyProgress(@JsonProperty("broker_id") int brokerId, @JsonProperty("size_bytes") Long sizeBytes,
            @JsonProperty("leader_size_bytes") Long leaderSizeBytes, @JsonProperty("is_in_sync") boolean inSync) {
    }

    /** v3 {@code KafkaReassignment} with Tributary's additions. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyReassignment(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition,
            @JsonProperty("adding_replicas") List<Integer> adding, @JsonProperty("removing_replicas") List<Integer> removing,
            @JsonProperty("target_replica_ids") List<Integer> target, @JsonProperty("isr_ids") List<Integer> isr,
            @JsonProperty("leader_id") Integer leader, List<ProxyProgress> progress) {
    }

    /** A partition's new replicas, in the proxy's body. */
    public record Target(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition,
            @JsonProperty("replica_ids") List<Integer> replicas) {
    }

    /** The proxy's body of a start. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Start(List<Target> partitions, @JsonProperty("throttle_bytes_per_second") Long throttle) {
    }

    private final RestClient http;

    public ReassignmentsProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /** Every ongoing reassignment. */
    public List<ProxyReassignment> ongoing(String clusterId) {
        ResourceList<ProxyReassignment> list = RestProxyClient.call(() -> http.get()
            .uri("/v3/clusters/{c}/topics/-/partitions/-/reassignment", clusterId).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<ResourceList<ProxyReassignment>>() { }));
        return list == null || list.data() == null ? List.of() : list.data();
    }

    /** Starts moving partitions to new replicas, throttled when {@code throttle} (bytes/s) is not null. */
    public void start(String clusterId, List<Target> partitions, Long throttle) {
        RestProxyClient.call(() -> http.post().uri("/v3/clusters/{c}/topics/-/partitions/-/reassignment", clusterId)
            .contentType(MediaType.APPLICATION_JSON).body(new Start(partitions, throttle)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** Cancels a partition's reassignment; the proxy's 404 when none is in progress. */
    public void cancel(String clusterId, String topic, int partition) {
        RestProxyClient.call(() -> http.delete()
            .uri("/v3/clusters/{c}/topics/{t}/partitions/{p}/reassignment", clusterId, topic, partition).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }
}
