package io.tributary.adminui.reassignments;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
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
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** {@code /api/reassignments} against a stub REST proxy: the list with progress, start with a throttle, cancel, errors. */
class ReassignmentsApiTest {

    private static final String V3 = "/v3/clusters/" + CLUSTER;
    private static final String ALL = V3 + "/topics/-/partitions/-/reassignment";

    private StubRestProxy proxy;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
            .on("GET", V3 + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(1, null),
                ProxyJson.broker(0, null))));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        mvc = MockMvcBuilders.standaloneSetup(new ReassignmentsController(
                new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())),
                new ReassignmentsProxyClient(properties, RestProxyLocator.fixed(proxy.url()))))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    @Test
    void ongoingReassignmentsWithProgressAndTheBrokers() throws Exception {
        proxy.on("GET", ALL, 200, ProxyJson.list(List.of("{\"kind\":\"KafkaReassignment\",\"topic_name\":\"orders\","
            + "\"partition_id\":2,\"adding_replicas\":[1],\"removing_replicas\":[0],\"target_replica_ids\":[1],"
            + "\"isr_ids\":[0],\"leader_id\":0,\"progress\":[{\"broker_id\":1,\"size_bytes\":10,"
            + "\"leader_size_bytes\":40,\"is_in_sync\":false}]}")));
        mvc.perform(get("/api/reassignments")).andExpect(status().isOk())
            .andExpect(jsonPath("$.brokers[0]").value(0))
            .andExpect(jsonPath("$.brokers[1]").value(1))
            .andExpect(jsonPath("$.reassignments[0].topic").value("orders"))
            .andExpect(jsonPath("$.reassignments[0].target[0]").value(1))
            .andExpect(jsonPath("$.reassignments[0].progress[0].sizeBytes").value(10))
            .andExpect(jsonPath("$.reassignments[0].progress[0].leaderSizeBytes").value(40));
    }

    @Test
    void startWithAThrottleAndCancelGoToTheProxyAndItsRefusalsArePassedOn() throws Exception {
        proxy.on("POST", ALL, 202, "");
        mvc.perform(post("/api/reassignments").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":[{\"topic\":\"orders\",\"partition\":2,\"replicas\":[1,0]}],\"throttle\":5000}"))
            .andExpect(status().isAccepted());
        assertThat(proxy.received()).filteredOn(r -> r.path().equals(ALL) && r.method().equals("POST")).singleElement()
            .satisfies(r -> assertThat(r.body()).contains("\"topic_name\":\"orders\"", "\"partition_id\":2",
                "\"replica_ids\":[1,0]", "\"throttle_bytes_per_second\":5000"));
        mvc.perform(post("/api/reassignments").contentType(MediaType.APPLICATION_JSON).content("{\"partitions\":[]}"))
            .andExpect(status().isBadRequest());

        proxy.on("DELETE", V3 + "/topics/orders/partitions/2/reassignment", 404,
            "{\"error_code\":404,\"message\":\"No reassignment of orders-2 is in progress.\"}");
        mvc.perform(delete("/api/reassignments/orders/2")).andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value("No reassignment of orders-2 is in progress."));
        proxy.on("DELETE", V3 + "/topics/orders/partitions/3/reassignment", 204, "");
        mvc.perform(delete("/api/reassignments/orders/3")).andExpect(status().isNoContent());
        proxy.on("GET", ALL, 403, "{\"error_code\":40301,\"message\":\"Cluster authorization failed.\"}");
        mvc.perform(get("/api/reassignments")).andExpect(status().isForbidden());
    }
}
