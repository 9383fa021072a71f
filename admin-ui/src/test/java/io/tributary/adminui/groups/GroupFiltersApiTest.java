package io.tributary.adminui.groups;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** {@code /api/groups} filtered by state and topic, with each group's coordinator, against a stub REST proxy. */
class GroupFiltersApiTest {

    private static final String GROUPS = "/v3/clusters/" + CLUSTER + "/consumer-groups";

    private StubRestProxy proxy;
    private GroupLags lags;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        GroupsProxyClient groups = new GroupsProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        lags = new GroupLags(groups);
        mvc = MockMvcBuilders.standaloneSetup(new GroupsController(
                new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())), groups, lags))
            .setControllerAdvice(new ApiExceptionHandler()).build();
        proxy.on("GET", GROUPS, 200, ProxyJson.list(List.of(group("billing", "STABLE", 2),
            group("audit", "EMPTY", 0), group("orders", "STABLE", 1))));
        for (String id : List.of("billing", "audit", "orders")) {
            proxy.on("GET", GROUPS + "/" + id + "/lag-summary", 200,
                "{\"max_lag\":1,\"total_lag\":3}");
            proxy.on("GET", GROUPS + "/" + id + "/consumers", 200, ProxyJson.list(List.of()));
        }
        proxy.on("GET", GROUPS + "/billing/lags", 200, ProxyJson.list(List.of(lag("invoices", 0), lag("payments", 1))));
        proxy.on("GET", GROUPS + "/audit/lags", 200, ProxyJson.list(List.of(lag("payments", 0))));
        proxy.on("GET", GROUPS + "/orders/lags", 200, ProxyJson.list(List.of(lag("orders", 0))));
    }

    @AfterEach
    void stop() {
        lags.destroy();
        proxy.close();
    }

    private static String group(String id, String state, int coordinator) {
        return "{\"consumer_group_id\":\"" + id + "\",\"state\":\"" + state + "\",\"is_simple\":false,"
            + "\"partition_assignor\":\"range\",\"coordinator\":{\"related\":\"http://proxy/v3/clusters/" + CLUSTER
            + "/brokers/" + coordinator + "\"}}";
    }

    private static String lag(String topic, int partition) {
        return "{\"topic_name\":\"" + topic + "\",\"partition_id\":" + partition + ",\"current_offset\":1,"
            + "\"log_end_offset\":2,\"lag\":1,\"consumer_id\":null,\"client_id\":null}";
    }

    @Test
    void filtersByStateAndShowsEachGroupsCoordinatorWithoutAskingForLagsPerGroup() throws Exception {
        mvc.perform(get("/api/groups").param("state", "stable"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(2))
            .andExpect(jsonPath("$.groups[0].id").value("billing"))
            .andExpect(jsonPath("$.groups[0].coordinator").value(2))
            .andExpect(jsonPath("$.groups[1].id").value("orders"))
            .andExpect(jsonPath("$.groups[1].coordinator").value(1));
        assertThat(proxy.received().stream().filter(r -> r.path().endsWith("/lags")).count()).isZero();
    }

    @Test
    void filtersByATopicTheGroupHasOffsetsIn() throws Exception {
        mvc.perform(get("/api/groups").param("topic", "payments"))
            .andExpect(jsonPath("$.total").value(2))
            .andExpect(jsonPath("$.groups[0].id").value("audit"))
            .andExpect(jsonPath("$.groups[1].id").value("billing"));
        mvc.perform(get("/api/groups").param("topic", "payments").param("state", "EMPTY"))
            .andExpect(jsonPath("$.total").value(1))
            .andExpect(jsonPath("$.groups[0].id").value("audit"))
            .andExpect(jsonPath("$.groups[0].coordinator").value(0));
        mvc.perform(get("/api/groups").param("topic", "pay"))
            .andExpect(jsonPath("$.total").value(0));
    }
}
