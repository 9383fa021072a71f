package io.tributary.restproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The proxy's own settings ({@code rest-proxy.*}); names follow the Confluent REST Proxy's
 * ({@code consumer.instance.timeout.ms} becomes {@code rest-proxy.consumer-instance-timeout}).
 *
 * @param consumerInstanceTimeout an instance not used for this long is closed and its Kafka
 *                                consumer leaves its group (Confluent's default: 5 minutes)
 * @param consumerRequestTimeout  how long a {@code GET .../records} waits for records when the
 *                                request names no {@code timeout} and the instance no
 *                                {@code consumer.request.timeout.ms}
 * @param consumerRequestMaxTimeout longest wait a {@code GET .../records} may ask for with {@code timeout}
 * @param consumerRequestMaxBytes most bytes of keys and values one {@code GET .../records} returns
 *                                when the request names no {@code max_bytes}
 * @param consumerBufferMaxBytes  bytes of fetched records an instance holds ahead of its reader
 *                                before it pauses fetching
 * @param maxRequestBodySize      largest request body accepted; larger ones get 413
 * @param advertisedUrl           base URL put in {@code base_uri}; when empty, taken from the request
 * @param simpleConsumerPoolSize  Kafka consumers (and threads) serving stateless partition reads at once
 * @param maxStreams              Server-Sent Event record streams open at once (each holds a consumer and a thread)
 * @param maxConsumerInstances    consumer instances this replica holds at most (each holds a Kafka consumer
 *                                and a thread); creating more answers 503
 * @param replicaId               this proxy replica's id, part of the ids of the consumer instances it creates
 *                                (random when empty)
 * @param peers                   base URLs of the other proxy replicas behind the same load balancer; a request
 *                                for a consumer instance another replica owns is forwarded there
 */
@ConfigurationProperties("rest-proxy")
public record RestProxyProperties(
        @DefaultValue("5m") Duration consumerInstanceTimeout,
        @DefaultValue("1s") Duration consumerRequestTimeout,
        @DefaultValue("5m") Duration consumerRequestMaxTimeout,
        @DefaultValue("64MB") DataSize consumerRequestMaxBytes,
        @DefaultValue("16MB") DataSize consumerBufferMaxBytes,
        @DefaultValue("16MB") DataSize maxRequestBodySize,
        @DefaultValue("") String advertisedUrl,
        @DefaultValue("16") int simpleConsumerPoolSize,
        @DefaultValue("100") int maxStreams,
        @DefaultValue("1000") int maxConsumerInstances,
        @DefaultValue("") String replicaId,
        @DefaultValue List<String> peers) {

    public RestProxyProperties {
        if (replicaId == null || replicaId.isBlank()) {
            replicaId = UUID.randomUUID().toString().substring(0, 8);
        }
        if (!replicaId.matches("[A-Za-z0-9]{1,32}")) {
            throw new IllegalArgumentException("rest-proxy.replica-id '" + replicaId + "' must be 1 to 32 letters "
                + "or digits");
        }
        peers = peers == null ? List.of() : peers.stream().map(url -> url.replaceAll("/+$", ""))
            .filter(url -> !url.isBlank()).toList();
    }
}
