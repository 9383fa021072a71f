package io.tributary.adminui.groups;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.adminui.proxy.ProxyResources.Related;
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
 * The REST proxy's v3 consumer group calls ({@code /v3/clusters/{c}/consumer-groups/...}). Errors as
 * in {@link RestProxyClient}: the proxy's status and message, 502 when it cannot be reached. Thread-safe.
 */
@Component
public class GroupsProxyClient {

    private final RestClient http;

    /**
     * @param properties the proxy's timeouts, as for {@link RestProxyClient}
     * @param locator    which proxy to call
     */
    public GroupsProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /** v3 {@code KafkaConsumerGroup}; {@code coordinator} links to the coordinator broker. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyGroup(@JsonProperty("consumer_group_id") String groupId, String state,
            @JsonProperty("is_simple") boolean simple, @JsonProperty("partition_assignor") String partitionAssignor,
            Related coordinator) {

        /** The coordinator's broker id (the last segment of its link), null when the proxy gives none. */
        public Integer coordinatorId() {
            if (coordinator == null || coordinator.related() == null) {
                return null;
            }
            String link = coordinator.related();
            try {
                return Integer.valueOf(link.substring(link.lastIndexOf('/') + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** v3 {@code KafkaConsumer}: a member and its assignment. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyConsumer(@JsonProperty("consumer_id") String consumerId,
            @JsonProperty("instance_id") String instanceId, @JsonProperty("client_id") String clientId, String host,
            List<ProxyAssignment> assignments) {
    }

    /** A topic and partition. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyAssignment(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition) {
    }

    /** v3 {@code KafkaConsumerLag}; {@code current_offset} -1 when nothing is committed. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyLag(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition,
            @JsonProperty("current_offset") long currentOffset, @JsonProperty("log_end_offset") long logEndOffset,
            long lag, @JsonProperty("consumer_id") String consumerId, @JsonProperty("client_id") String clientId) {
    }

    /** v3 {@code KafkaConsumerGroupLagSummary}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyLagSummary(@JsonProperty("max_lag") long maxLag, @JsonProperty("total_lag") long totalLag) {
    }

    /** Body of the proxy's {@code offsets:reset}: {@code to} earliest, latest, offset or timestamp. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProxyReset(String to, Long offset, Long timestamp, List<String> topics) {
    }

    /** The offsets a reset committed. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyResetResult(@JsonProperty("consumer_group_id") String groupId, List<ProxyAssignedOffset> offsets) {
    }

    /** One committed offset of a reset. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyAssignedOffset(@JsonProperty("topic_name") String topic,
            @JsonProperty("partition_id") int partition, long offset) {
    }

    /** Every consumer group with its state. */
    public List<ProxyGroup> groups(String clusterId) {
        return list("/v3/clusters/{c}/consumer-groups", new ParameterizedTypeReference<ResourceList<ProxyGroup>>() { },
            clusterId);
    }

    /** One group; 404 when unknown. */
    public ProxyGroup group(String clusterId, String groupId) {
        return RestProxyClient.call(() -> http.get().uri("/v3/clusters/{c}/consumer-groups/{g}", clusterId, groupId)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(ProxyGroup.class));
    }

    /** A group's members with their assignments. */
    public List<ProxyConsumer> consumers(String clusterId, String groupId) {
        return list("/v3/clusters/{c}/consumer-groups/{g}/consumers",
            new ParameterizedTypeReference<ResourceList<ProxyConsumer>>() { }, clusterId, groupId);
    }

    /** Committed offset, end offset and lag of every partition of the group. */
    public List<ProxyLag> lags(String clusterId, String groupId) {
        return list("/v3/clusters/{c}/consumer-groups/{g}/lags",
            new ParameterizedTypeReference<ResourceList<ProxyLag>>() { }, clusterId, groupId);
    }

    /** Total and largest lag. */
    public ProxyLagSummary lagSummary(String clusterId, String groupId) {
        return RestProxyClient.call(() -> http.get()
            .uri("/v3/clusters/{c}/consumer-groups/{g}/lag-summary", clusterId, groupId).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(ProxyLagSummary.class));
    }

    /** Resets the group's offsets (the proxy refuses with 409 while it has members). */
    public ProxyResetResult resetOffsets(String clusterId, String groupId, ProxyReset reset) {
        return RestProxyClient.call(() -> http.post()
            .uri("/v3/clusters/{c}/consumer-groups/{g}/offsets:reset", clusterId, groupId)
            .contentType(MediaType.APPLICATION_JSON).body(reset).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(ProxyResetResult.class));
    }

    /** Deletes the group (the proxy refuses with 409 while it has members). */
    public void delete(String clusterId, String groupId) {
        RestProxyClient.call(() -> http.delete().uri("/v3/clusters/{c}/consumer-groups/{g}", clusterId, groupId)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    private <T> List<T> list(String uri, ParameterizedTypeReference<ResourceList<T>> type, Object... variables) {
        ResourceList<T> list = RestProxyClient.call(() -> http.get().uri(uri, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }
}
