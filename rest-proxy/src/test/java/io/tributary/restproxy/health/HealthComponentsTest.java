package io.tributary.restproxy.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.RestProxyApplication;
import io.tributary.restproxy.testing.BrokerFixture;
import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code /actuator/health} of a proxy registered for discovery in the broker's ZooKeeper, and of one
 * that is not: every component says something (UP here), none is UNKNOWN. Spring Cloud's discovery
 * composite is off: it was UNKNOWN (issue 20) or repeated {@code zookeeper}.
 */
class HealthComponentsTest {

    @Test
    void everyHealthComponentIsUpAndNoneIsUnknown() {
        BrokerFixture broker = BrokerFixture.get();
        // Started as from the command line, so kafka.zookeeper-connect turns discovery on as it does there.
        try (ConfigurableApplicationContext proxy = SpringApplication.run(RestProxyApplication.class,
                "--server.port=0", "--server.address=127.0.0.1", "--kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "--kafka.zookeeper-connect=" + broker.zookeeperConnect())) {
            HttpJson http = new HttpJson("http://127.0.0.1:"
                + ((WebServerApplicationContext) proxy).getWebServer().getPort());
            Map<String, String> statuses = assertHealthy(http);
            assertThat(statuses).as("the ZooKeeper connection it registered through").containsKey("zookeeper");
        }
    }

    @Test
    void withoutZooKeeperNoComponentIsUnknownEither() {
        BrokerFixture broker = BrokerFixture.get();
        try (ConfigurableApplicationContext proxy = SpringApplication.run(RestProxyApplication.class,
                "--server.port=0", "--server.address=127.0.0.1", "--kafka.bootstrap-servers=" + broker.bootstrapServers())) {
            HttpJson http = new HttpJson("http://127.0.0.1:"
                + ((WebServerApplicationContext) proxy).getWebServer().getPort());
            assertThat(assertHealthy(http)).doesNotContainKey("zookeeper");
        }
    }

    /** Every component UP, the discovery composite (a copy of the zookeeper one, or UNKNOWN) absent. */
    private static Map<String, String> assertHealthy(HttpJson http) {
        Response health = http.get("/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        Map<String, String> statuses = statuses(health.body(), "");
        assertThat(statuses).as("components of /actuator/health").containsKey("kafka")
            .doesNotContainKey("discoveryComposite");
        assertThat(statuses).allSatisfy((name, status) -> assertThat(status).as(name).isEqualTo("UP"));
        for (String group : List.of("liveness", "readiness")) {
            Response probe = http.get("/actuator/health/" + group);
            assertThat(probe.status()).as(group).isEqualTo(200);
            assertThat(statuses(probe.body(), "").values()).as(group).doesNotContain("UNKNOWN");
        }
        return statuses;
    }

    /** Status of every (nested) component by its path, e.g. {@code kafka} or {@code a/b}. */
    static Map<String, String> statuses(JsonNode node, String path) {
        Map<String, String> statuses = new java.util.TreeMap<>();
        JsonNode components = node.path("components");
        List<String> names = new ArrayList<>(components.propertyNames());
        for (String name : names) {
            JsonNode component = components.get(name);
            String at = path.isEmpty() ? name : path + "/" + name;
            statuses.put(at, component.path("status").asString());
            statuses.putAll(statuses(component, at));
        }
        return statuses;
    }
}
