package io.tributary.restproxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.support.SpringApplicationJsonEnvironmentPostProcessor;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The Helm chart gives the proxy's {@code kafka.client.*} settings, whose Kafka names hold dots,
 * as {@code SPRING_APPLICATION_JSON}: they bind under their Kafka names, JAAS quotes intact.
 */
class KafkaClientJsonSettingsTest {

    @Test
    void kafkaClientSettingsFromSpringApplicationJsonKeepTheirKafkaNames() {
        String json = "{\"kafka\":{\"client\":{\"sasl.mechanism\":\"SCRAM-SHA-512\",\"sasl.jaas.config\":"
            + "\"org.apache.kafka.common.security.scram.ScramLoginModule required username=\\\"broker\\\" password=\\\"pw\\\";\","
            + "\"ssl.truststore.location\":\"/etc/tributary-kafka-tls/truststore.p12\"}}}";
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of("SPRING_APPLICATION_JSON", json)));
        new SpringApplicationJsonEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
        KafkaClientProperties kafka = Binder.get(environment).bindOrCreate("kafka", KafkaClientProperties.class);
        assertThat(kafka.client()).containsEntry("sasl.mechanism", "SCRAM-SHA-512")
            .containsEntry("sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"pw\";")
            .containsEntry("ssl.truststore.location", "/etc/tributary-kafka-tls/truststore.p12");
        assertThat(kafka.common()).containsEntry("sasl.mechanism", "SCRAM-SHA-512");
    }
}
