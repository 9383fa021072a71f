package io.tributary.restproxy.config;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Registers the proxy for discovery (Spring Cloud Zookeeper, {@code /services/tributary-rest-proxy})
 * in the ZooKeeper the brokers use, {@code kafka.zookeeper-connect}, so admin UIs find it. Without
 * that setting Spring Cloud Zookeeper stays off: a proxy given only bootstrap servers never waits
 * for a ZooKeeper at its default {@code localhost:2181}. A proxy bound to one address ({@code
 * server.address}) registers that address, not the host's first network interface, which it does
 * not listen on. These are defaults: {@code spring.cloud.zookeeper.*} set explicitly win.
 */
public class DiscoveryEnvironmentPostProcessor implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String zookeeper = environment.getProperty("kafka.zookeeper-connect", "").strip();
        Map<String, Object> defaults = new HashMap<>();
        defaults.put("spring.cloud.zookeeper.enabled", !zookeeper.isEmpty());
        if (!zookeeper.isEmpty()) {
            defaults.put("spring.cloud.zookeeper.connect-string", zookeeper);
            String address = environment.getProperty("server.address", "").strip();
            if (!address.isEmpty() && !address.equals("0.0.0.0") && !address.equals("::")) {
                defaults.put("spring.cloud.zookeeper.discovery.instance-host", address);
            }
        }
        environment.getPropertySources().addLast(new MapPropertySource("tributaryDiscoveryDefaults", defaults));
    }
}
