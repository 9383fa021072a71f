package io.tributary.adminui.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.adminui.AdminUiApplication;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The UI's {@code /actuator/health} and its liveness and readiness groups with a proxy that answers:
 * every component UP, none UNKNOWN, no Spring Cloud discovery composite (with ZooKeeper discovery
 * on, {@code AdminUiBrowserIT} checks the same).
 */
public class HealthComponentsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void everyComponentIsUpAndNoneIsUnknown() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (StubRestProxy proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
             ConfigurableApplicationContext ui = SpringApplication.run(AdminUiApplication.class, "--server.port=0",
                 "--server.address=127.0.0.1", "--admin-ui.rest-proxy-url=" + proxy.url())) {
            URI base = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) ui).getWebServer().getPort());
            for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve(path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(path).isEqualTo(200);
                Map<String, String> statuses = statuses(JSON.readTree(response.body()), "");
                assertThat(statuses).as(path).doesNotContainKey("discoveryComposite")
                    .allSatisfy((name, status) -> assertThat(status).as(path + " " + name).isEqualTo("UP"));
                if (path.endsWith("readiness")) {
                    assertThat(statuses).containsKey("restProxy");
                }
            }
        }
    }

    /** Status of every (nested) component of a health answer by its path, e.g. {@code restProxy}. */
    public static Map<String, String> statuses(JsonNode node, String path) {
        Map<String, String> statuses = new TreeMap<>();
        JsonNode components = node.path("components");
        for (String name : components.propertyNames()) {
            JsonNode component = components.get(name);
            String at = path.isEmpty() ? name : path + "/" + name;
            statuses.put(at, component.path("status").asString());
            statuses.putAll(statuses(component, at));
        }
        return statuses;
    }
}
