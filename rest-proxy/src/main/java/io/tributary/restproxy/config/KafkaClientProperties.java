package io.tributary.restproxy.config;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the proxy reaches the cluster ({@code kafka.*}).
 *
 * @param bootstrapServers {@code host:port[,...]} of brokers ({@code --kafka.bootstrap-servers},
 *                         {@code KAFKA_BOOTSTRAP_SERVERS}); when not set, found in ZooKeeper by
 *                         {@link ZooKeeperBootstrapEnvironmentPostProcessor}, else {@code 127.0.0.1:9092}
 * @param zookeeperConnect ZooKeeper connect string where the brokers register, used only when
 *                         {@code bootstrap-servers} is not set
 * @param listenerName     the listener whose endpoints are taken from the registrations (default: the first)
 * @param securityProtocol Kafka's {@code security.protocol} for every client ({@code PLAINTEXT}, {@code SSL},
 *                         {@code SASL_PLAINTEXT}, {@code SASL_SSL}); empty leaves Kafka's default, PLAINTEXT.
 *                         With {@code rest-proxy.authentication.method=basic} it is a SASL protocol
 * @param client           Kafka settings for every client (producer, consumer, Admin), under their Kafka
 *                         names, e.g. {@code kafka.client.[ssl.truststore.location]=ca.p12}; the
 *                         client-specific maps below win over them
 * @param producer         extra Kafka producer settings under their Kafka names, e.g.
 *                         {@code kafka.producer.[linger.ms]=5}; they win over the proxy's defaults
 * @param consumer         extra Kafka consumer settings for every consumer instance
 * @param admin            extra Admin client settings
 */
@ConfigurationProperties("kafka")
public record KafkaClientProperties(
        @DefaultValue("127.0.0.1:9092") String bootstrapServers,
        @DefaultValue("") String zookeeperConnect,
        @DefaultValue("") String listenerName,
        @DefaultValue("") String securityProtocol,
        @DefaultValue Map<String, String> client,
        @DefaultValue Map<String, String> producer,
        @DefaultValue Map<String, String> consumer,
        @DefaultValue Map<String, String> admin) {

    /** The settings every client starts from: bootstrap servers, security protocol, {@code kafka.client.*}. */
    public Map<String, Object> common() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        if (securityProtocol != null && !securityProtocol.isBlank()) {
            settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, securityProtocol);
        }
        settings.putAll(client);
        return settings;
    }
}
