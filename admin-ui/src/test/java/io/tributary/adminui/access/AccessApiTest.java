package io.tributary.adminui.access;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * The security pages' API ({@code /api/acls}, {@code /api/users}, {@code /api/quotas}, {@code /api/access})
 * against a stub REST proxy: field mapping both ways, filters passed on encoded once, passwords never
 * answered, and a refusal of the proxy hiding a page with its reason.
 */
class AccessApiTest {

    private static final String BASE = "/v3/clusters/" + CLUSTER;

    private StubRestProxy proxy;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        RestProxyClient cluster = new RestProxyConfiguration().restProxyClient(properties,
            RestProxyLocator.fixed(proxy.url()));
        AccessProxyClient access = new AccessProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        mvc = MockMvcBuilders.standaloneSetup(new AclsController(cluster, access),
                new ScramUsersController(cluster, access), new QuotasController(cluster, access),
                new AccessController(cluster, access))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private static final String ACL = "{\"kind\":\"KafkaAcl\",\"resource_type\":\"TOPIC\",\"resource_name\":\"orders-\","
        + "\"pattern_type\":\"PREFIXED\",\"principal\":\"User:dave\",\"host\":\"*\",\"operation\":\"READ\","
        + "\"permission\":\"ALLOW\"}";

    @Test
    void aclsAreListedWithTheFiltersPassedOnAndDeletedOnlyWithAResourceType() throws Exception {
        proxy.on("GET", BASE + "/acls", 200, ProxyJson.list(List.of(ACL)));
        proxy.on("DELETE", BASE + "/acls", 200, ProxyJson.list(List.of(ACL)));

        mvc.perform(get("/api/acls").param("principal", "User:dave").param("resourceName", "orders-eu")
                .param("patternType", "MATCH").param("resourceType", ""))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$[0].resourceType").value("TOPIC"))
            .andExpect(jsonPath("$[0].resourceName").value("orders-"))
            .andExpect(jsonPath("$[0].patternType").value("PREFIXED"))
            .andExpect(jsonPath("$[0].principal").value("User:dave"));
        assertThat(proxy.queries("GET", BASE + "/acls")).singleElement().satisfies(q -> assertThat(q)
            .contains("resource_name=orders-eu").contains("pattern_type=MATCH").contains("principal=User%3Adave")
            .doesNotContain("resource_type"));

        mvc.perform(delete("/api/acls").param("principal", "User:dave")).andExpect(status().isBadRequest());
        mvc.perform(delete("/api/acls").param("principal", "User:dave").param("resourceType", "ANY"))
            .andExpect(status().isOk()).andExpect(jsonPath("$[0].resourceName").value("orders-"));
        assertThat(proxy.count("DELETE", BASE + "/acls")).isEqualTo(1);
    }

    @Test
    void anAclIsCreatedInTheProxysShape() throws Exception {
        proxy.on("POST", BASE + "/acls", 201, "");
        mvc.perform(post("/api/acls").contentType(MediaType.APPLICATION_JSON).content("{\"resourceType\":\"GROUP\","
                + "\"resourceName\":\"g\",\"patternType\":\"LITERAL\",\"principal\":\"User:erin\",\"host\":\"*\","
                + "\"operation\":\"READ\",\"permission\":\"DENY\"}"))
            .andExpect(status().isCreated());
        String sent = proxy.received().stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow().body();
        assertThat(sent).contains("\"resource_type\":\"GROUP\"").contains("\"principal\":\"User:erin\"")
            .contains("\"permission\":\"DENY\"");
    }

    @Test
    void aPasswordGoesToTheProxyAndIsNeverAnswered() throws Exception {
        String user = "{\"user_name\":\"erin\",\"credentials\":[{\"mechanism\":\"SCRAM-SHA-512\",\"iterations\":8192}]}";
        proxy.on("PUT", BASE + "/scram-users/erin/credentials/SCRAM-SHA-512", 204, "");
        proxy.on("GET", BASE + "/scram-users/erin", 200, user);
        proxy.on("GET", BASE + "/scram-users", 200, ProxyJson.list(List.of(user)));

        mvc.perform(put("/api/users/erin").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mechanism\":\"scram-sha-512\",\"password\":\"erin-secret-91\",\"iterations\":8192}"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.name").value("erin"))
            .andExpect(jsonPath("$.credentials[0].iterations").value(8192))
            .andExpect(content().string(Matchers.not(Matchers.containsString("erin-secret-91"))));
        assertThat(proxy.received().stream().filter(r -> r.method().equals("PUT")).findFirst().orElseThrow().body())
            .contains("\"password\":\"erin-secret-91\"").contains("\"iterations\":8192");
        mvc.perform(get("/api/users")).andExpect(jsonPath("$[0].credentials[0].mechanism").value("SCRAM-SHA-512"));
        mvc.perform(put("/api/users/erin").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mechanism\":\"MD5\",\"password\":\"x\"}"))
            .andExpect(status().isBadRequest());
    }

    @Test
    void quotasAreListedAndAlteredForOneEntityWithDefaultsAsNull() throws Exception {
        proxy.on("GET", BASE + "/client-quotas", 200, ProxyJson.list(List.of("{\"entity\":[{\"entity_type\":"
            + "\"client-id\",\"entity_name\":null}],\"values\":{\"consumer_byte_rate\":2048.0}}")));
        proxy.on("POST", BASE + "/client-quotas:alter", 204, "");

        mvc.perform(get("/api/quotas"))
            .andExpect(jsonPath("$[0].entity[0].type").value("client-id"))
            .andExpect(jsonPath("$[0].entity[0].name").value(Matchers.nullValue()))
            .andExpect(jsonPath("$[0].values.consumer_byte_rate").value(2048.0));
        mvc.perform(put("/api/quotas").contentType(MediaType.APPLICATION_JSON)
                .content("{\"entity\":[{\"type\":\"user\",\"name\":\"frank\"}],\"set\":{\"producer_byte_rate\":1024},"
                    + "\"remove\":[\"request_percentage\"]}"))
            .andExpect(status().isNoContent());
        assertThat(proxy.received().stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow().body())
            .contains("\"entity_type\":\"user\"").contains("\"entity_name\":\"frank\"")
            .contains("\"producer_byte_rate\":1024").contains("\"remove\":[\"request_percentage\"]");
        mvc.perform(put("/api/quotas").contentType(MediaType.APPLICATION_JSON).content("{\"entity\":[]}"))
            .andExpect(status().isBadRequest());
    }

    @Test
    void aPageTheProxyRefusesIsNotAllowedWithItsReason() throws Exception {
        proxy.on("GET", BASE + "/acls", 403, "{\"error_code\":40301,\"message\":\"Cluster authorization failed.\"}");
        proxy.on("GET", BASE + "/scram-users/" + AccessController.PROBE, 404,
            "{\"error_code\":404,\"message\":\"no such user\"}");
        proxy.on("GET", BASE + "/client-quotas", 200, ProxyJson.list(List.of()));

        mvc.perform(get("/api/access"))
            .andExpect(jsonPath("$.acls.allowed").value(false))
            .andExpect(jsonPath("$.acls.reason").value(Matchers.containsString("Cluster authorization failed")))
            .andExpect(jsonPath("$.users.allowed").value(true))
            .andExpect(jsonPath("$.quotas.allowed").value(true));
    }

    @Test
    void aProxyWithoutTheEndpointsOpensNoPage() throws Exception {
        mvc.perform(get("/api/access"))
            .andExpect(jsonPath("$.acls.allowed").value(false))
            .andExpect(jsonPath("$.quotas.allowed").value(false));
    }
}
