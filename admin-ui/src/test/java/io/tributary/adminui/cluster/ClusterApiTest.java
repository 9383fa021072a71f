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
import java.util.stream.IntStream;
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
                .andExpect(jsonPath("$.offlinePartitions").value(2))
                .andExpect(jsonPath("$.uncheckedTopics").value(0));
            assertThat(proxy.count("GET", "/topics/a/partitions"))
                .as("read once, for the counts and the down brokers both").isEqualTo(1);
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
            // Their partitions are read (404 here: no states) only to look for down brokers; the counts stay
            // the list's.
            assertThat(proxy.count("GET", "/topics/a/partitions")).isEqualTo(1);
            assertThat(proxy.count("GET", "/topics/b/partitions")).isEqualTo(1);
        }
    }

    @Test
    void brokersAssignedReplicasButNotRegisteredAreListedAsDown() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(2, null), ProxyJson.broker(0, "r0"))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(List.of(
                    ProxyJson.topic("a", 2, 2, 1, 0), ProxyJson.topic("healthy", 1, 2, 0, 0),
                    ProxyJson.topic("c", 1, 1, 0, 1))))
                .on("GET", "/topics/a/partitions", 200, ProxyJson.states(
                    ProxyJson.state(0, 0, List.of(0, 1), List.of(0)),
                    ProxyJson.state(1, 2, List.of(2, 0), List.of(2, 0))))
                .on("GET", "/topics/c/partitions", 200, ProxyJson.states(
                    ProxyJson.state(0, -1, List.of(3), List.of())));

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.brokers.length()").value(4))
                .andExpect(jsonPath("$.brokers[0].id").value(0))
                .andExpect(jsonPath("$.brokers[0].status").value("up"))
                .andExpect(jsonPath("$.brokers[0].host").value("h0"))
                .andExpect(jsonPath("$.brokers[1].id").value(1))
                .andExpect(jsonPath("$.brokers[1].status").value("down"))
                .andExpect(jsonPath("$.brokers[1].host").doesNotExist())
                .andExpect(jsonPath("$.brokers[1].port").doesNotExist())
                .andExpect(jsonPath("$.brokers[2].id").value(2))
                .andExpect(jsonPath("$.brokers[2].status").value("up"))
                .andExpect(jsonPath("$.brokers[3].id").value(3))
                .andExpect(jsonPath("$.brokers[3].status").value("down"))
                .andExpect(jsonPath("$.underReplicatedPartitions").value(1))
                .andExpect(jsonPath("$.offlinePartitions").value(1))
                .andExpect(jsonPath("$.uncheckedTopics").value(0));
            assertThat(proxy.count("GET", "/topics/healthy/partitions")).as("a healthy topic is not read").isZero();
        }
    }

    @Test
    void aHealthyClusterCostsNoPartitionCalls() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(0, null), ProxyJson.broker(1, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(List.of(
                    ProxyJson.topic("a", 3, 2, 0, 0), ProxyJson.topic("b", 1, 2, 0, 0))));

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.brokers.length()").value(2))
                .andExpect(jsonPath("$.brokers[0].status").value("up"))
                .andExpect(jsonPath("$.brokers[1].status").value("up"))
                .andExpect(jsonPath("$.uncheckedTopics").value(0));
            assertThat(proxy.received()).extracting(StubRestProxy.Received::path)
                .as("cluster, brokers and topics only").containsExactlyInAnyOrder("/v3/clusters",
                    "/v3/clusters/" + CLUSTER + "/brokers", "/v3/clusters/" + CLUSTER + "/topics");
        }
    }

    @Test
    void atMostFiftyUnhealthyTopicsAreReadAndTheRestAreCountedAsUnchecked() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            List<String> topics = IntStream.range(0, 53).mapToObj(i -> ProxyJson.topic("t" + i, 1, 2, 1, 0)).toList();
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(0, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(topics));
            for (int i = 0; i < 53; i++) {
                proxy.on("GET", "/topics/t" + i + "/partitions", 200, ProxyJson.states(
                    ProxyJson.state(0, 0, List.of(0, 1), List.of(0))));
            }

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.brokers.length()").value(2))
                .andExpect(jsonPath("$.brokers[1].id").value(1))
                .andExpect(jsonPath("$.brokers[1].status").value("down"))
                .andExpect(jsonPath("$.uncheckedTopics").value(3));
            assertThat(proxy.received().stream().filter(r -> r.path().startsWith("/topics/")).count()).isEqualTo(50);
        }
    }

    @Test
    void aFailedPartitionReadLeavesTheTopicsUncheckedButAnswersTheOverview() throws Exception {
        try (StubRestProxy proxy = new StubRestProxy();
             ApiFixture api = new ApiFixture(proxy.url())) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(0))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(0, null))))
                .on("GET", "/v3/clusters/" + CLUSTER + "/topics", 200, ProxyJson.list(List.of(
                    ProxyJson.topic("a", 1, 2, 1, 0))))
                .on("GET", "/topics/a/partitions", 500, "{\"error_code\":50001,\"message\":\"broken\"}");

            api.mvc().perform(get("/api/cluster"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.brokers.length()").value(1))
                .andExpect(jsonPath("$.brokers[0].status").value("up"))
                .andExpect(jsonPath("$.underReplicatedPartitions").value(1))
                .andExpect(jsonPath("$.uncheckedTopics").value(1));
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
