package io.tributary.adminui.sharegroups;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
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
 * The REST proxy's v3 share group calls ({@code /v3/clusters/{c}/share-groups/...}, KIP-932). Errors
 * as in {@link RestProxyClient}: the proxy's status and message, 502 when it cannot be reached.
 * Thread-safe.
 */
@Component
public class ShareGroupsProxyClient {

    private final RestClient http;

    /**
     * @param properties the proxy's timeouts, as for {@link RestProxyClient}
     * @param locator    which proxy to call
     */
    public ShareGroupsProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /**
     * v3 {@code KafkaShareGroup}; {@code totalLag} null when unknown (or from a proxy that does not give
     * it); {@code members} only on a single group, {@code authorizedOperations}
     * only when asked for (null otherwise, or from a proxy that does not say).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyShareGroup(@JsonProperty("group_id") String groupId, String state,
            @JsonProperty("group_epoch") int groupEpoch, @JsonProperty("assignment_epoch") int assignmentEpoch,
            @JsonProperty("member_count") int memberCount, @JsonProperty("coordinator_id") Integer coordinatorId,
            @JsonProperty("total_lag") Long totalLag, List<ProxyShareMember> members,
            @JsonProperty("authorized_operations") List<String> authorizedOperations) {
    }

    /** v3 {@code KafkaShareGroupMember}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyShareMember(@JsonProperty("member_id") String memberId,
            @JsonProperty("client_id") String clientId, String host, @JsonProperty("rack_id") String rackId,
            @JsonProperty("member_epoch") int memberEpoch, List<ProxyAssignment> assignments) {
    }

    /** A topic and partition. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyAssignment(@JsonProperty("topic_name") String topic,
            @JsonProperty("partition_id") int partition) {
    }

    /** v3 {@code KafkaShareGroupConfig}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyShareGroupConfig(String name, String value, @JsonProperty("is_default") boolean isDefault,
            @JsonProperty("is_read_only") boolean readOnly, @JsonProperty("is_sensitive") boolean sensitive,
            String source) {
    }

    /** v3 share group offset: the share-partition start offset, lag when the brokers give it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyShareGroupOffset(@JsonProperty("topic_name") String topic,
            @JsonProperty("partition_id") int partition, @JsonProperty("start_offset") long startOffset,
            Long lag) {
    }

    /** One change of a {@code configs:alter} batch. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ProxyConfigChange(String name, String value, String operation) {
    }

    /** Body of {@code configs:alter}. */
    public record ProxyConfigChanges(List<ProxyConfigChange> data) {
    }

    /** Every share group the caller may describe, with state, member count and coordinator. */
    public List<ProxyShareGroup> groups(String clusterId) {
        return list("/v3/clusters/{c}/share-groups",
            new ParameterizedTypeReference<ResourceList<ProxyShareGroup>>() { }, clusterId);
    }

    /** One share group with its members and the caller's operations on it; 404 when unknown. */
    public ProxyShareGroup group(String clusterId, String groupId) {
        return RestProxyClient.call(() -> http.get()
            .uri("/v3/clusters/{c}/share-groups/{g}?include_authorized_operations=true", clusterId, groupId)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(ProxyShareGroup.class));
    }

    /** The group's {@code share.*} configs. */
    public List<ProxyShareGroupConfig> configs(String clusterId, String groupId) {
        return list("/v3/clusters/{c}/share-groups/{g}/configs",
            new ParameterizedTypeReference<ResourceList<ProxyShareGroupConfig>>() { }, clusterId, groupId);
    }

    /** The group's start offsets; the proxy's error while the brokers do not serve DescribeShareGroupOffsets. */
    public List<ProxyShareGroupOffset> offsets(String clusterId, String groupId) {
        return list("/v3/clusters/{c}/share-groups/{g}/offsets",
            new ParameterizedTypeReference<ResourceList<ProxyShareGroupOffset>>() { }, clusterId, groupId);
    }

    /** Sets ({@code set}) and resets ({@code reset}: back to the brokers' value) configs in one batch. */
    public void alterConfigs(String clusterId, String groupId, Map<String, String> set, List<String> reset) {
        List<ProxyConfigChange> data = new ArrayList<>();
        set.forEach((name, value) -> data.add(new ProxyConfigChange(name, value, "SET")));
        reset.forEach(name -> data.add(new ProxyConfigChange(name, null, "DELETE")));
        RestProxyClient.call(() -> http.post().uri("/v3/clusters/{c}/share-groups/{g}/configs:alter", clusterId,
                groupId).contentType(MediaType.APPLICATION_JSON).body(new ProxyConfigChanges(data)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /**
     * Resets the group's start offsets to the earliest or latest offset of each partition of
     * {@code topics} (all the group has start offsets for when null); the proxy refuses with 409
     * while the group has members.
     */
    public void resetOffsets(String clusterId, String groupId, String to, List<String> topics) {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("to", to);
        if (topics != null) {
            body.put("topics", topics);
        }
        RestProxyClient.call(() -> http.post().uri("/v3/clusters/{c}/share-groups/{g}/offsets:reset", clusterId, groupId)
            .contentType(MediaType.APPLICATION_JSON).body(body).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** Deletes the group (the proxy refuses with 409 while it has members). */
    public void delete(String clusterId, String groupId) {
        RestProxyClient.call(() -> http.delete().uri("/v3/clusters/{c}/share-groups/{g}", clusterId, groupId)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    private <T> List<T> list(String uri, ParameterizedTypeReference<ResourceList<T>> type, Object... variables) {
        ResourceList<T> list = RestProxyClient.call(() -> http.get().uri(uri, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }
}
