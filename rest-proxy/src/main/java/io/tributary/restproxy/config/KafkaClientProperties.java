package io.tributary.restproxy.config;

import java.util.Map;
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
        @DefaultValue Map<String, String> producer,
        @DefaultValue Map<String, String> consumer,
        @DefaultValue Map<String, String> admin) {
}
