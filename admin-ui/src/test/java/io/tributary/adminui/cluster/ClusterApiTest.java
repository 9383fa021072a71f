package io.tributary.adminui.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.testing.ApiFixture;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /api/cluster} against a stub REST proxy: the id, controller, brokers and the counts. */
class ClusterApiTest {

    @Test
    void countsTopicsPartitionsUnderReplicatedAndOfflinePartitions() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(2))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(2, "r2"), ProxyJson.broker(1, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(List.of(
                    ProxyJson.topic("a", 3, 2), ProxyJson.topic("b", 2, 2), ProxyJson.topic("gone", 1, 2))))
                .on("GET", "/topics/a/partitions", 200, ProxyJson.states(
                    ProxyJson.state(0, 1, List.of(1, 2), List.of(1, 2)),
                    ProxyJson.state(1, 2, List.of(2, 1), List.of(2)),
                    ProxyJson.state(2, -1, List.of(1, 2), List.of())))
                .on("GET", "/topics/b/partitions", 200, ProxyJson.states(
                    ProxyJson.state(0, -1, List.of(1, 2), List.of(1, 2)),
                    ProxyJson.state(1, 1, List.of(1, 2), List.of(1, 2))));
            // "gone" answers 404 (deleted after the list): left out of the counts, no error.

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.clusterId").value(CLUSTER))
                .andExpect(jsonPath("$.controllerId").value(2))
                .andExpect(jsonPath("$.brokers.length()").value(2))
                .andExpect(jsonPath("$.brokers[0].id").value(1))
                .andExpect(jsonPath("$.brokers[0].rack").doesNotExist())
                .andExpect(jsonPath("$.brokers[1].host").value("h2"))
                .andExpect(jsonPath("$.brokers[1].port").value(9094))
                .andExpect(jsonPath("$.brokers[1].rack").value("r2"))
                .andExpect(jsonPath("$.topics").value(3))
                .andExpect(jsonPath("$.partitions").value(6))
                .andExpect(jsonPath("$.underReplicatedPartitions").value(2))
                .andExpect(jsonPath("$.offlinePartitions").value(2));
        }
    }

    @Test
    void theCountsComeFromTheTopicListWhenTheProxyGivesThem() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(0, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(List.of(
                    ProxyJson.topic("a", 3, 3, 2, 1), ProxyJson.topic("b", 4, 3, 1, 0))));

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.topics").value(2))
                .andExpect(jsonPath("$.partitions").value(7))
                .andExpect(jsonPath("$.underReplicatedPartitions").value(3))
                .andExpect(jsonPath("$.offlinePartitions").value(1));
            assertThat(proxy.received().stream().filter(r -> r.path().startsWith("/topics/")).count())
                .as("no per-topic calls").isZero();
        }
    }

    @Test
    void aProxyErrorIsPassedOnWithItsStatus() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 503, "{\"error_code\":50301,\"message\":\"No broker answered\"}");

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.errorCode").value(50301))
                .andExpect(jsonPath("$.message").value("No broker answered"));
        }
    }
}
