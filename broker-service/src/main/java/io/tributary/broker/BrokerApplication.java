package io.tributary.broker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Starts a Tributary broker: the Kafka protocol on {@code broker.listeners}, with an embedded
 * ZooKeeper unless {@code broker.zookeeper-connect} is set, and Spring Boot Actuator on
 * {@code server.port}. Settings: {@code broker.*} properties (Kafka's names in Spring's relaxed
 * form) or a Kafka {@code server.properties} given as {@code --server-properties=PATH}.
 */
@SpringBootApplication
public class BrokerApplication {

    public static void main(String[] args) {
        SpringApplication.run(BrokerApplication.class, args);
    }
}
