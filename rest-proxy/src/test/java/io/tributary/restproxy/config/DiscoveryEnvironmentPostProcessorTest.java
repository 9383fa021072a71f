package io.tributary.restproxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The proxy registers for discovery only in the brokers' ZooKeeper, at the address it listens on. */
class DiscoveryEnvironmentPostProcessorTest {

    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        new DiscoveryEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void withoutZooKeeperDiscoveryStaysOff() {
        StandardEnvironment environment = environment(Map.of("kafka.bootstrap-servers", "b:9092"));
        assertThat(environment.getProperty("spring.cloud.zookeeper.enabled", Boolean.class)).isFalse();
        assertThat(environment.containsProperty("spring.cloud.zookeeper.connect-string")).isFalse();
    }

    @Test
    void registersInTheBrokersZooKeeperAtTheBoundAddress() {
        StandardEnvironment environment = environment(Map.of("kafka.zookeeper-connect", "zk1:2181,zk2:2181/tributary",
            "server.address", "10.1.2.3"));
        assertThat(environment.getProperty("spring.cloud.zookeeper.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.zookeeper.connect-string"))
            .isEqualTo("zk1:2181,zk2:2181/tributary");
        assertThat(environment.getProperty("spring.cloud.zookeeper.discovery.instance-host")).isEqualTo("10.1.2.3");
    }

    @Test
    void aWildcardAddressLeavesTheHostToSpringCloud() {
        StandardEnvironment environment = environment(Map.of("kafka.zookeeper-connect", "zk:2181",
            "server.address", "0.0.0.0"));
        assertThat(environment.containsProperty("spring.cloud.zookeeper.discovery.instance-host")).isFalse();
    }

    @Test
    void explicitSpringCloudSettingsWin() {
        StandardEnvironment environment = environment(Map.of("kafka.zookeeper-connect", "zk:2181",
            "spring.cloud.zookeeper.enabled", "false", "spring.cloud.zookeeper.connect-string", "other:2181"));
        assertThat(environment.getProperty("spring.cloud.zookeeper.enabled", Boolean.class)).isFalse();
        assertThat(environment.getProperty("spring.cloud.zookeeper.connect-string")).isEqualTo("other:2181");
    }
}
