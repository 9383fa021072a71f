package io.tributary.restproxy;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The REST proxy: an HTTP gateway that translates Confluent REST Proxy API calls into the Kafka
 * protocol with the ordinary {@code kafka-clients} producer, consumer and Admin client.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RestProxyApplication {

    public static void main(String[] args) {
        SpringApplication.run(RestProxyApplication.class, args);
    }
}
