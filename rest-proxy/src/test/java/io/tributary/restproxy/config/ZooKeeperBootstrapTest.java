package io.tributary.restproxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.testing.BrokerFixture;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import tools.jackson.databind.json.JsonMapper;

class ZooKeeperBootstrapTest {

    private final ZooKeeperBootstrapEnvironmentPostProcessor processor = new ZooKeeperBootstrapEnvironmentPostProcessor();

    @Test
    void findsTheBrokersRegisteredInZooKeeper() {
        BrokerFixture broker = BrokerFixture.get();
        StandardEnvironment environment = environment(Map.of("kafka.zookeeper-connect", broker.zookeeperConnect()));

        processor.postProcessEnvironment(environment, null);

        assertThat(environment.getProperty("kafka.bootstrap-servers")).isEqualTo(broker.bootstrapServers());
    }

    @Test
    void givenBootstrapServersWinAndNothingMeansLocalhost() {
        StandardEnvironment given = environment(Map.of("kafka.bootstrap-servers", "b1:9092",
            "kafka.zookeeper-connect", "127.0.0.1:1"));
        StandardEnvironment nothing = environment(Map.of());

        processor.postProcessEnvironment(given, null);
        processor.postProcessEnvironment(nothing, null);

        assertThat(given.getProperty("kafka.bootstrap-servers")).isEqualTo("b1:9092");
        assertThat(nothing.getProperty("kafka.bootstrap-servers")).isEqualTo("127.0.0.1:9092");
    }

    @Test
    void picksTheNamedListener() {
        var registration = JsonMapper.builder().build().readTree(
            "{\"endpoints\":[\"INTERNAL://10.0.0.1:9093\",\"EXTERNAL://broker.example.com:9094\"]}");

        assertThat(ZooKeeperBootstrapEnvironmentPostProcessor.endpoint(registration, "")).isEqualTo("10.0.0.1:9093");
        assertThat(ZooKeeperBootstrapEnvironmentPostProcessor.endpoint(registration, "EXTERNAL"))
            .isEqualTo("broker.example.com:9094");
        assertThat(ZooKeeperBootstrapEnvironmentPostProcessor.endpoint(registration, "OTHER")).isNull();
    }

    @Test
    void aZooKeeperWithoutBrokersIsAClearError() {
        BrokerFixture broker = BrokerFixture.get();

        assertThatThrownBy(() -> ZooKeeperBootstrapEnvironmentPostProcessor.discover(broker.zookeeperConnect(),
            "NO_SUCH_LISTENER")).isInstanceOf(IllegalStateException.class).hasMessageContaining("NO_SUCH_LISTENER");
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
