package io.tributary.adminui.proxy;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Turns Spring Cloud Zookeeper on only when {@code admin-ui.zookeeper-connect} names an ensemble,
 * and points it there: the UI then registers itself under {@code /services} and can find the REST
 * proxies registered beside it. Without the setting Spring Cloud Zookeeper stays off, so a UI with a
 * fixed proxy URL never waits for a ZooKeeper at its default {@code localhost:2181}. These are
 * defaults: {@code spring.cloud.zookeeper.*} set explicitly win.
 */
public class DiscoveryEnvironmentPostProcessor implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String zookeeper = environment.getProperty("admin-ui.zookeeper-connect", "").strip();
        Map<String, Object> defaults = new HashMap<>();
        defaults.put("spring.cloud.zookeeper.enabled", !zookeeper.isEmpty());
        if (!zookeeper.isEmpty()) {
            defaults.put("spring.cloud.zookeeper.connect-string", zookeeper);
        }
        environment.getPropertySources().addLast(new MapPropertySource("tributaryDiscoveryDefaults", defaults));
    }
}
