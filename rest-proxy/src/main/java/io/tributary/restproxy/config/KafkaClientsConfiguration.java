package io.tributary.restproxy.config;

import io.tributary.restproxy.security.AuthenticationProperties;
import io.tributary.restproxy.security.BearerTokens;
import io.tributary.restproxy.security.Callers;
import java.time.Clock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Kafka clients the services use. The {@code Producer} and {@code Admin} beans stand for the
 * current caller's clients ({@link CallerBoundClients}), kept per caller in a
 * {@link KafkaClientPool}: with authentication off there is one caller, the proxy itself, so one
 * producer (thread-safe; every produce request goes through it, and batches from many HTTP
 * requests share network round trips) and one Admin client, as before authentication existed.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    Callers callers(AuthenticationProperties authentication) {
        return new Callers(authentication);
    }

    @Bean
    KafkaClientSettings kafkaClientSettings(KafkaClientProperties kafka, AuthenticationProperties authentication) {
        return new KafkaClientSettings(kafka, authentication);
    }

    @Bean(destroyMethod = "close")
    KafkaClientPool kafkaClientPool(KafkaClientSettings settings, AuthenticationProperties authentication,
            Clock clock, BearerTokens tokens) {
        return new KafkaClientPool(settings, authentication.clientIdleTimeout(), clock, tokens::expired);
    }

    /** The current caller's producer. The pool closes the real clients, so no destroy method here. */
    @Bean(destroyMethod = "")
    Producer<byte[], byte[]> producer(KafkaClientPool pool, Callers callers) {
        return CallerBoundClients.producer(pool, callers::current);
    }

    /** The current caller's Admin client. */
    @Bean(destroyMethod = "")
    Admin admin(KafkaClientPool pool, Callers callers) {
        return CallerBoundClients.admin(pool, callers::current);
    }
}
