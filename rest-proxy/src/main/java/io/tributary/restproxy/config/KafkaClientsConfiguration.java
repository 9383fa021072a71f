package io.tributary.restproxy.config;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared Kafka clients: one producer (thread-safe; every produce request goes through it, so
 * batches from many HTTP requests share network round trips) and one Admin client.
 */
@Configuration(proxyBeanMethods = false)
public class KafkaClientsConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean(destroyMethod = "close")
    Producer<byte[], byte[]> producer(KafkaClientProperties kafka) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "rest-proxy-producer");
        // A missing topic should become a 404 within seconds, not after the client's 60 s default.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        config.putAll(kafka.producer());
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Bean(destroyMethod = "close")
    Admin admin(KafkaClientProperties kafka) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "rest-proxy-admin");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.putAll(kafka.admin());
        return Admin.create(config);
    }
}
