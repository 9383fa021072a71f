package io.tributary.adminui.transactions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.tributary.adminui.proxy.ProxyResources.ResourceList;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.util.List;
import java.util.Map;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The REST proxy's v3 transaction calls ({@code /v3/clusters/{c}/transactions},
 * {@code .../open-transactions}, {@code .../transactions:abort}). Errors as in
 * {@link RestProxyClient}: the proxy's status and message, 502 when it cannot be reached. Thread-safe.
 */
@Component
public class TransactionsProxyClient {

    private final RestClient http;

    public TransactionsProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /** A partition of a transaction. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyPartition(@JsonProperty("topic_name") String topic, @JsonProperty("partition_id") int partition) {
    }

    /** v3 {@code KafkaTransaction}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyTransaction(@JsonProperty("transactional_id") String transactionalId,
            @JsonProperty("producer_id") long producerId, @JsonProperty("producer_epoch") int producerEpoch,
            String state, @JsonProperty("coordinator_id") int coordinatorId,
            @JsonProperty("transaction_timeout_ms") long timeoutMs, @JsonProperty("age_ms") Long ageMs,
            List<ProxyPartition> partitions) {
    }

    /** An open transaction on a partition. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyOpenTransaction(@JsonProperty("topic_name") String topic,
            @JsonProperty("partition_id") int partition, @JsonProperty("producer_id") long producerId,
            @JsonProperty("producer_epoch") int producerEpoch, @JsonProperty("start_offset") long startOffset,
            @JsonProperty("age_ms") long ageMs, @JsonProperty("transactional_id") String transactionalId,
            boolean hanging) {
    }

    /** Every transaction the coordinators know. */
    public List<ProxyTransaction> transactions(String clusterId) {
        return list("/v3/clusters/{c}/transactions",
            new ParameterizedTypeReference<ResourceList<ProxyTransaction>>() { }, clusterId);
    }

    /** The open transactions on every topic's partitions, hanging ones flagged. */
    public List<ProxyOpenTransaction> openTransactions(String clusterId) {
        return list("/v3/clusters/{c}/open-transactions",
            new ParameterizedTypeReference<ResourceList<ProxyOpenTransaction>>() { }, clusterId);
    }

    /**
     * Aborts the producer's transaction open on the partition since {@code startOffset}; the proxy's 404
     * when there is none (it ended, or the producer has started another since).
     */
    public void abort(String clusterId, String topic, int partition, long startOffset, long producerId) {
        RestProxyClient.call(() -> http.post()
            .uri("/v3/clusters/{c}/topics/{t}/partitions/{p}/transactions:abort", clusterId, topic, partition)
            .contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("start_offset", startOffset, "producer_id", producerId)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    private <T> List<T> list(String uri, ParameterizedTypeReference<ResourceList<T>> type, Object... variables) {
        ResourceList<T> list = RestProxyClient.call(() -> http.get().uri(uri, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }
}
