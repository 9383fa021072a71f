package io.tributary.adminui.proxy;

import io.tributary.adminui.proxy.ProxyResources.AlterConfig;
import io.tributary.adminui.proxy.ProxyResources.AlterConfigs;
import io.tributary.adminui.proxy.ProxyResources.Broker;
import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.ProxyResources.ConfigValue;
import io.tributary.adminui.proxy.ProxyResources.CreateTopic;
import io.tributary.adminui.proxy.ProxyResources.ErrorBody;
import io.tributary.adminui.proxy.ProxyResources.Partition;
import io.tributary.adminui.proxy.ProxyResources.PartitionState;
import io.tributary.adminui.proxy.ProxyResources.ResourceList;
import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.ProxyResources.TopicConfig;
import io.tributary.adminui.proxy.ProxyResources.TopicUsage;
import io.tributary.adminui.proxy.ProxyResources.UpdateTopic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The REST proxy as the UI uses it: one method per proxy call, no caching. Every v3 call first
 * asks {@code GET /v3/clusters} for the cluster id, so a restarted proxy in front of another
 * cluster is followed.
 *
 * <p>Errors: an error answer of the proxy becomes a {@link RestProxyException} with its status and
 * message; a proxy that cannot be reached becomes one with status 502. Thread-safe.
 */
public class RestProxyClient {

    private static final JsonMapper ERRORS = JsonMapper.builder().build();

    private final RestClient http;

    /** @param http a client whose base URL is the proxy's */
    public RestProxyClient(RestClient http) {
        this.http = http;
    }

    /** The cluster this proxy serves ({@code GET /v3/clusters}, first entry). */
    public Cluster cluster() {
        List<Cluster> clusters = call(() -> http.get().uri("/v3/clusters").retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<ResourceList<Cluster>>() { })).data();
        if (clusters == null || clusters.isEmpty()) {
            throw new RestProxyException(502, null, "The REST proxy lists no cluster");
        }
        return clusters.get(0);
    }

    /**
     * Checks a user's credentials with the proxy: {@code GET /v3/clusters} with {@code authorization}
     * as the {@code Authorization} header instead of the current caller's. Answers the cluster; a
     * proxy that refuses them throws a {@link RestProxyException} with status 401.
     */
    public Cluster signIn(String authorization) {
        List<Cluster> clusters = call(() -> http.get().uri("/v3/clusters")
            .header(HttpHeaders.AUTHORIZATION, authorization).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<ResourceList<Cluster>>() { })).data();
        if (clusters == null || clusters.isEmpty()) {
            throw new RestProxyException(502, null, "The REST proxy lists no cluster");
        }
        return clusters.get(0);
    }

    /**
     * The cluster operations the caller may do ({@code include_authorized_operations=true}); null when
     * the proxy does not say.
     */
    public List<String> clusterOperations(String clusterId) {
        return call(() -> http.get().uri("/v3/clusters/{c}?include_authorized_operations=true", clusterId)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(Cluster.class))
            .authorizedOperations();
    }

    /** The brokers of cluster {@code clusterId}. */
    public List<Broker> brokers(String clusterId) {
        return list("/v3/clusters/{c}/brokers", new ParameterizedTypeReference<ResourceList<Broker>>() { }, clusterId);
    }

    /**
     * Every topic the caller may describe, internal ones included, in one call; each with the caller's
     * operations on it when the proxy gives them.
     */
    public List<Topic> topics(String clusterId) {
        return list("/v3/clusters/{c}/topics?include_authorized_operations=true",
            new ParameterizedTypeReference<ResourceList<Topic>>() { }, clusterId);
    }

    /**
     * Bytes on disk and message counts of {@code topics} (null: of every topic) by topic name, from the
     * proxy's {@code /topic-usage}; empty when the proxy has no such endpoint (404), so a list still shows.
     */
    public Map<String, TopicUsage> topicUsage(String clusterId, Collection<String> topics) {
        if (topics != null && topics.isEmpty()) {
            return Map.of();
        }
        List<TopicUsage> usage;
        try {
            usage = topics == null ? list("/v3/clusters/{c}/topic-usage",
                    new ParameterizedTypeReference<ResourceList<TopicUsage>>() { }, clusterId)
                : listWith(clusterId, topics);
        } catch (RestProxyException e) {
            if (e.status() == 404) {
                return Map.of();
            }
            throw e;
        }
        Map<String, TopicUsage> byName = new HashMap<>();
        usage.forEach(u -> byName.put(u.topicName(), u));
        return byName;
    }

    /** {@code /topic-usage?topic=..&topic=..}, each name encoded as a URI variable. */
    private List<TopicUsage> listWith(String clusterId, Collection<String> topics) {
        StringBuilder uri = new StringBuilder("/v3/clusters/{c}/topic-usage?");
        Map<String, Object> variables = new HashMap<>();
        variables.put("c", clusterId);
        int i = 0;
        for (String topic : topics) {
            uri.append(i == 0 ? "" : "&").append("topic={t").append(i).append('}');
            variables.put("t" + i, topic);
            i++;
        }
        ResourceList<TopicUsage> list = call(() -> http.get().uri(uri.toString(), variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<ResourceList<TopicUsage>>() { }));
        return list == null || list.data() == null ? List.of() : list.data();
    }

    /**
     * One topic ({@code GET /v3/clusters/{c}/topics/{t}}): its partition count among others, and the
     * caller's operations on it when the proxy gives them.
     */
    public Topic topic(String clusterId, String topic) {
        return call(() -> http.get().uri("/v3/clusters/{c}/topics/{t}?include_authorized_operations=true",
                clusterId, topic).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(Topic.class));
    }

    /** Raises a topic's partition count to {@code partitions} ({@code PATCH} with {@code partitions_count}). */
    public void addPartitions(String clusterId, String topic, int partitions) {
        call(() -> http.patch().uri("/v3/clusters/{c}/topics/{t}", clusterId, topic)
            .contentType(MediaType.APPLICATION_JSON).body(new UpdateTopic(partitions)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /**
     * Sets and resets a topic's configs in one {@code configs:alter} call: {@code set} values by name
     * (SET), then {@code reset} names (DELETE: back to the default). Kafka applies the batch or none of it.
     */
    public void alterConfigs(String clusterId, String topic, Map<String, String> set, List<String> reset) {
        List<AlterConfig> data = new ArrayList<>();
        set.forEach((name, value) -> data.add(new AlterConfig(name, value, "SET")));
        reset.forEach(name -> data.add(new AlterConfig(name, null, "DELETE")));
        call(() -> http.post().uri("/v3/clusters/{c}/topics/{t}/configs:alter", clusterId, topic)
            .contentType(MediaType.APPLICATION_JSON).body(new AlterConfigs(data)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** A topic's partitions with leader, replicas, ISR and offsets (v3; the proxy reads offsets too). */
    public List<Partition> partitions(String clusterId, String topic) {
        return list("/v3/clusters/{c}/topics/{t}/partitions",
            new ParameterizedTypeReference<ResourceList<Partition>>() { }, clusterId, topic);
    }

    /** A topic's configs. */
    public List<TopicConfig> configs(String clusterId, String topic) {
        return list("/v3/clusters/{c}/topics/{t}/configs",
            new ParameterizedTypeReference<ResourceList<TopicConfig>>() { }, clusterId, topic);
    }

    /** A topic's partitions' leader and in-sync flags only (v2, no offset lookups). */
    public List<PartitionState> partitionStates(String topic) {
        return call(() -> http.get().uri("/topics/{t}/partitions", topic).accept(MediaType.APPLICATION_JSON)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<List<PartitionState>>() { }));
    }

    /** Creates a topic; null partitions or replication factor take the broker's defaults. */
    public void createTopic(String clusterId, String name, Integer partitions, Short replicationFactor,
            Map<String, String> configs) {
        List<ConfigValue> values = configs == null ? List.of()
            : configs.entrySet().stream().map(e -> new ConfigValue(e.getKey(), e.getValue())).toList();
        call(() -> http.post().uri("/v3/clusters/{c}/topics", clusterId).contentType(MediaType.APPLICATION_JSON)
            .body(new CreateTopic(name, partitions, replicationFactor, values)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** Deletes a topic. */
    public void deleteTopic(String clusterId, String topic) {
        call(() -> http.delete().uri("/v3/clusters/{c}/topics/{t}", clusterId, topic).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    private <T> List<T> list(String uri, ParameterizedTypeReference<ResourceList<T>> type, Object... variables) {
        ResourceList<T> list = call(() -> http.get().uri(uri, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }

    /** Runs a proxy call; an unreachable proxy becomes a {@link RestProxyException} with status 502. */
    public static <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (ResourceAccessException e) {
            throw RestProxyException.noAnswer(e);
        }
    }

    /** Turns the proxy's error answer {@code {"error_code", "message"}} into an exception. */
    public static void fail(org.springframework.http.HttpRequest request, ClientHttpResponse response)
            throws IOException {
        int status = response.getStatusCode().value();
        byte[] body = response.getBody().readAllBytes();
        try {
            ErrorBody error = ERRORS.readValue(body, ErrorBody.class);
            if (error != null && error.message() != null) {
                throw new RestProxyException(status, error.errorCode(), error.message());
            }
        } catch (JacksonException notJson) {
            // fall through: say what we got
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        throw new RestProxyException(status, null, "REST proxy answered " + status + " to " + request.getMethod()
            + " " + request.getURI().getPath() + (text.isEmpty() ? "" : ": " + abbreviate(text)));
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
