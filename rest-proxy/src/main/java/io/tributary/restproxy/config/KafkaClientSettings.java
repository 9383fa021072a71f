package io.tributary.restproxy.config;

import io.tributary.restproxy.security.AuthenticationProperties;
import io.tributary.restproxy.security.KafkaLogin;
import io.tributary.restproxy.security.PasswordCheckClientSettings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings of the proxy's Kafka clients for one {@link KafkaLogin}, in this order (later wins):
 * the proxy's defaults, {@code kafka.bootstrap-servers}, {@code kafka.security-protocol},
 * {@code kafka.client.*}, the client's own map ({@code kafka.producer.*}, {@code kafka.consumer.*},
 * {@code kafka.admin.*}), and last the login's SASL settings, so a caller always logs in as itself.
 * Immutable and thread-safe.
 */
public final class KafkaClientSettings implements PasswordCheckClientSettings {

    private final KafkaClientProperties kafka;
    private final String saslMechanism;

    public KafkaClientSettings(KafkaClientProperties kafka, AuthenticationProperties authentication) {
        this.kafka = kafka;
        this.saslMechanism = authentication.saslMechanism();
    }

    /** Settings without a caller login, from {@code kafka.*} alone. */
    public static KafkaClientSettings of(KafkaClientProperties kafka) {
        return new KafkaClientSettings(kafka, AuthenticationProperties.none());
    }

    public Map<String, Object> producer(KafkaLogin login) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId("rest-proxy-producer", login));
        // A missing topic should become a 404 within seconds, not after the client's 60 s default.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        config.putAll(kafka.common());
        config.putAll(kafka.producer());
        config.putAll(login.saslSettings(saslMechanism));
        return config;
    }

    public Map<String, Object> admin(KafkaLogin login) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId("rest-proxy-admin", login));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.putAll(kafka.common());
        config.putAll(kafka.admin());
        config.putAll(login.saslSettings(saslMechanism));
        return config;
    }

    /** Consumer settings; the caller adds group, client id and offset reset. */
    public Map<String, Object> consumer(KafkaLogin login) {
        Map<String, Object> config = new HashMap<>(kafka.common());
        config.putAll(kafka.consumer());
        config.putAll(login.saslSettings(saslMechanism));
        return config;
    }

    /** Settings for a short-lived Admin client that checks a caller's password. */
    @Override
    public Map<String, Object> passwordCheck(KafkaLogin login) {
        Map<String, Object> config = admin(login);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "rest-proxy-sign-in");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return config;
    }

    /** The client id: the base, plus the user for a caller's clients (the brokers' logs and quotas see it). */
    private static String clientId(String base, KafkaLogin login) {
        return login.username() == null ? base : base + "-" + login.username().replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
