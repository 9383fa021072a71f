package io.tributary.adminui.sharegroups;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.security.AuthenticationProperties;
import io.tributary.adminui.security.Rights;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.adminui.throughput.ThroughputService.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * {@code /api/share-groups} against a stub REST proxy: list filters (id, state) and paging, the
 * detail with members, configs and offsets, offsets and configs that cannot be read leaving the rest
 * of the page standing, config change bodies, rights and the proxy's refusals.
 */
class ShareGroupsApiTest {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private static final String GROUPS = "/v3/clusters/" + CLUSTER + "/share-groups";

    private StubRestProxy proxy;
    private MockMvc mvc;
    /** The brokers whose metrics the UI reads, at {@code /metrics/{id}} of the stub (404 until stubbed). */
    private List<Integer> metricsBrokers = List.of();

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        mvc = controller(Rights.unenforced());
    }

    private MockMvc controller(Rights rights) {
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2), READ_TIMEOUT);
        ShareGroupsProxyClient groups = new ShareGroupsProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        RestProxyClient cluster = new RestProxyConfiguration().restProxyClient(properties,
            RestProxyLocator.fixed(proxy.url()));
        SharePartitionMetricsReader metrics = new SharePartitionMetricsReader(() -> metricsBrokers.stream()
            .map(id -> new Target(id, proxy.url().resolve("/metrics/" + id))).toList(), Duration.ofSeconds(2));
        return MockMvcBuilders.standaloneSetup(new ShareGroupsController(cluster, groups, rights, metrics))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private static String group(String id, String state, int members, String membersJson, List<String> operations) {
        return "{\"kind\":\"KafkaShareGroup\",\"cluster_id\":\"" + CLUSTER + "\",\"group_id\":\"" + id
            + "\",\"state\":\"" + state + "\",\"group_epoch\":7,\"assignment_epoch\":6,\"member_count\":" + members
            + ",\"coordinator\":{\"related\":\"http://proxy/v3/clusters/c1/brokers/2\"},\"coordinator_id\":2"
            + ",\"total_lag\":" + ("EMPTY".equals(state) ? "null" : Integer.toString(members * 10))
            + (membersJson == null ? "" : ",\"members\":" + membersJson)
            + (operations == null ? "" : ",\"authorized_operations\":[" + String.join(",",
                operations.stream().map(o -> "\"" + o + "\"").toList()) + "]")
            + "}";
    }

    private static String member(String id, String client, int epoch, String... partitions) {
        StringBuilder assigned = new StringBuilder();
        for (String p : partitions) {
            int dash = p.lastIndexOf('-');
            assigned.append(assigned.isEmpty() ? "" : ",").append("{\"topic_name\":\"").append(p, 0, dash)
                .append("\",\"partition_id\":").append(p.substring(dash + 1)).append('}');
        }
        return "{\"member_id\":\"" + id + "\",\"client_id\":\"" + client + "\",\"host\":\"/10.0.0.9\","
            + "\"member_epoch\":" + epoch + ",\"assignments\":[" + assigned + "]}";
    }

    private static String config(String name, String value, boolean isDefault, String source) {
        return "{\"name\":\"" + name + "\",\"value\":\"" + value + "\",\"is_default\":" + isDefault
            + ",\"is_read_only\":false,\"is_sensitive\":false,\"source\":\"" + source + "\"}";
    }

    @Test
    void filtersByIdAndStateSortsAndPagesFromOneProxyCall() throws Exception {
        List<String> groups = new java.util.ArrayList<>(IntStream.range(0, 30)
            .mapToObj(i -> group(String.format("Jobs-%02d", 29 - i), i % 2 == 0 ? "STABLE" : "EMPTY", i % 2 == 0 ? 3 : 0,
                null, null)).toList());
        groups.add(group("audit", "STABLE", 1, null, null));
        proxy.on("GET", GROUPS, 200, ProxyJson.list(groups));

        mvc.perform(get("/api/share-groups").param("filter", "jobs").param("state", "stable").param("size", "10"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(15))
            .andExpect(jsonPath("$.states[0]").value("EMPTY"))
            .andExpect(jsonPath("$.states[1]").value("STABLE"))
            .andExpect(jsonPath("$.groups.length()").value(10))
            .andExpect(jsonPath("$.groups[0].groupId").value("Jobs-01"))
            .andExpect(jsonPath("$.groups[0].state").value("STABLE"))
            .andExpect(jsonPath("$.groups[0].members").value(3))
            .andExpect(jsonPath("$.groups[0].coordinator").value(2))
            .andExpect(jsonPath("$.groups[0].lag").value(30));
        mvc.perform(get("/api/share-groups").param("state", "empty").param("size", "1"))
            .andExpect(jsonPath("$.groups[0].lag").doesNotExist());
        mvc.perform(get("/api/share-groups").param("page", "1").param("size", "10"))
            .andExpect(jsonPath("$.total").value(31))
            .andExpect(jsonPath("$.groups[0].groupId").value("Jobs-10"));
        mvc.perform(get("/api/share-groups").param("filter", " AUD "))
            .andExpect(jsonPath("$.total").value(1)).andExpect(jsonPath("$.groups[0].groupId").value("audit"));
        mvc.perform(get("/api/share-groups").param("size", "101")).andExpect(status().isBadRequest());
        assertThat(proxy.count("GET", GROUPS)).as("one proxy call per list").isEqualTo(4);
    }

    @Test
    void detailHasEpochsMembersWithTheirPartitionsConfigsAndOffsets() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "STABLE", 2, "[" + member("m-2", "app-2", 6, "jobs-2")
                + "," + member("m-1", "app-1", 5, "jobs-1", "jobs-0") + "]", List.of("DESCRIBE", "ALTER_CONFIGS")))
            .on("GET", GROUPS + "/g1/configs", 200, ProxyJson.list(List.of(
                config("share.record.lock.duration.ms", "30000", true, "DEFAULT_CONFIG"),
                config("share.auto.offset.reset", "earliest", false, "DYNAMIC_GROUP_CONFIG"))))
            .on("GET", GROUPS + "/g1/offsets", 200, ProxyJson.list(List.of(
                "{\"topic_name\":\"jobs\",\"partition_id\":1,\"start_offset\":40,\"lag\":2}",
                "{\"topic_name\":\"jobs\",\"partition_id\":0,\"start_offset\":12}")))
            // Broker 0 leads jobs-1; broker 1, which leads jobs-0, cannot be read.
            .on("GET", "/metrics/0", 200, """
                kafka_server_sharepartitionmetrics_inflightmessagecount{group="g1",partition="1",topic="jobs"} 6.0
                kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total{group="g1",partition="1",topic="jobs"} 2.0
                tributary_share_partition_archived_records_total{group="g1",partition="1",reason="rejected",topic="jobs"} 3.0
                tributary_share_partition_archived_records_total{group="g1",partition="1",reason="delivery_limit",topic="jobs"} 1.0
                """);
        metricsBrokers = List.of(0, 1);
        mvc = controller(Rights.unenforced());
        mvc.perform(get("/api/share-groups/g1"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.groupId").value("g1"))
            .andExpect(jsonPath("$.state").value("STABLE"))
            .andExpect(jsonPath("$.groupEpoch").value(7))
            .andExpect(jsonPath("$.assignmentEpoch").value(6))
            .andExpect(jsonPath("$.coordinator").value(2))
            .andExpect(jsonPath("$.operations[1]").value("ALTER_CONFIGS"))
            .andExpect(jsonPath("$.members[0].memberId").value("m-1"))
            .andExpect(jsonPath("$.members[0].clientId").value("app-1"))
            .andExpect(jsonPath("$.members[0].host").value("/10.0.0.9"))
            .andExpect(jsonPath("$.members[0].memberEpoch").value(5))
            .andExpect(jsonPath("$.members[0].assignments[0]").value("jobs-0"))
            .andExpect(jsonPath("$.members[0].assignments[1]").value("jobs-1"))
            .andExpect(jsonPath("$.members[1].assignments[0]").value("jobs-2"))
            .andExpect(jsonPath("$.configs[0].name").value("share.auto.offset.reset"))
            .andExpect(jsonPath("$.configs[0].overridden").value(true))
            .andExpect(jsonPath("$.configs[1].isDefault").value(true))
            .andExpect(jsonPath("$.configs[1].overridden").value(false))
            .andExpect(jsonPath("$.configsError").doesNotExist())
            .andExpect(jsonPath("$.lag").value(20))
            .andExpect(jsonPath("$.partitions[0].partition").value(0))
            .andExpect(jsonPath("$.partitions[0].startOffset").value(12))
            .andExpect(jsonPath("$.partitions[0].lag").doesNotExist())
            .andExpect(jsonPath("$.partitions[0].inFlight").doesNotExist())
            .andExpect(jsonPath("$.partitions[0].archivedRejected").doesNotExist())
            .andExpect(jsonPath("$.partitions[0].metricsNote").value("the metrics of broker 1 could not be read"))
            .andExpect(jsonPath("$.partitions[1].lag").value(2))
            .andExpect(jsonPath("$.partitions[1].inFlight").value(6))
            .andExpect(jsonPath("$.partitions[1].archivedRejected").value(3))
            .andExpect(jsonPath("$.partitions[1].archivedDeliveryLimit").value(1))
            .andExpect(jsonPath("$.partitions[1].lockExpiries").value(2))
            .andExpect(jsonPath("$.partitions[1].metricsNote").doesNotExist())
            .andExpect(jsonPath("$.partitionsError").doesNotExist());

        // Every broker read, none reports jobs-0: its share-partition is not loaded.
        metricsBrokers = List.of(0);
        mvc = controller(Rights.unenforced());
        mvc.perform(get("/api/share-groups/g1"))
            .andExpect(jsonPath("$.partitions[0].inFlight").doesNotExist())
            .andExpect(jsonPath("$.partitions[0].metricsNote").value(org.hamcrest.Matchers.startsWith(
                "not loaded on its leader")))
            .andExpect(jsonPath("$.partitions[1].inFlight").value(6));
    }

    @Test
    void offsetsAndConfigsThatCannotBeReadLeaveTheRestOfTheGroupStanding() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "EMPTY", 0, "[]", null))
            .on("GET", GROUPS + "/g1/configs", 403, "{\"error_code\":40301,\"message\":\"Group authorization "
                + "failed.\"}")
            .on("GET", GROUPS + "/g1/offsets", 500, "{\"error_code\":50002,\"message\":\"UnsupportedVersionException: "
                + "The node does not support DESCRIBE_SHARE_GROUP_OFFSETS\"}");
        mvc.perform(get("/api/share-groups/g1"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.state").value("EMPTY"))
            .andExpect(jsonPath("$.members.length()").value(0))
            .andExpect(jsonPath("$.configs").doesNotExist())
            .andExpect(jsonPath("$.configsError").value("you may not describe this group's configs (it needs "
                + "DESCRIBE_CONFIGS on the group)"))
            .andExpect(jsonPath("$.partitions").doesNotExist())
            .andExpect(jsonPath("$.partitionsError").value(org.hamcrest.Matchers.containsString(
                "DESCRIBE_SHARE_GROUP_OFFSETS")));
    }

    @Test
    void unknownGroupIsThe404OfTheProxy() throws Exception {
        proxy.on("GET", GROUPS + "/nope", 404, "{\"error_code\":404,\"message\":\"Share group nope not found.\"}");
        mvc.perform(get("/api/share-groups/nope"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value("Share group nope not found."));
    }

    @Test
    void configChangesGoToTheProxyAsOneBatch() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "STABLE", 0, "[]", List.of("ALTER_CONFIGS")))
            .on("POST", GROUPS + "/g1/configs:alter", 204, "");
        mvc.perform(put("/api/share-groups/g1/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\" share.delivery.count.limit \":\"3\"},\"reset\":[\"share.auto.offset.reset\"]}"))
            .andExpect(status().isNoContent());
        List<StubRestProxy.Received> posts = proxy.received().stream().filter(r -> r.method().equals("POST")).toList();
        assertThat(posts).hasSize(1);
        assertThat(posts.get(0).body()).isEqualTo("{\"data\":[{\"name\":\"share.delivery.count.limit\",\"value\":\"3\","
            + "\"operation\":\"SET\"},{\"name\":\"share.auto.offset.reset\",\"operation\":\"DELETE\"}]}");
    }

    @Test
    void badConfigChangesAre400WithoutAskingTheProxy() throws Exception {
        for (String body : List.of("{}", "{\"set\":{\"consumer.session.timeout.ms\":\"5000\"}}",
                "{\"set\":{\"share.delivery.count.limit\":null}}", "{\"reset\":[\" \"]}",
                "{\"set\":{\"share.delivery.count.limit\":\"3\"},\"reset\":[\"share.delivery.count.limit\"]}")) {
            mvc.perform(put("/api/share-groups/g1/configs").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.message").isNotEmpty());
        }
        assertThat(proxy.count("POST", GROUPS + "/g1/configs:alter")).isZero();
    }

    @Test
    void signedInUsersAreRefusedWhatTheProxySaysTheyMayNotDo() throws Exception {
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2), READ_TIMEOUT);
        Rights enforced = new Rights(new AuthenticationProperties(AuthenticationProperties.Method.BASIC, false),
            new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())));
        MockMvc signedIn = controller(enforced);
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "EMPTY", 0, "[]", List.of("DESCRIBE")));

        signedIn.perform(delete("/api/share-groups/g1"))
            .andExpect(status().isForbidden())
            .andExpect(jsonPath("$.message").value("You may not delete share group g1 (it needs DELETE)"));
        signedIn.perform(put("/api/share-groups/g1/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\"share.delivery.count.limit\":\"3\"}}"))
            .andExpect(status().isForbidden());
        assertThat(proxy.count("DELETE", GROUPS + "/g1")).isZero();
        assertThat(proxy.count("POST", GROUPS + "/g1/configs:alter")).isZero();
    }

    @Test
    void theProxysRefusalToDeleteAGroupWithMembersIsPassedOn() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "STABLE", 1, "[]", null))
            .on("DELETE", GROUPS + "/g1", 409, "{\"error_code\":409,\"message\":\"Share group g1 has members: it can "
                + "only be deleted when empty.\"}")
            .on("GET", GROUPS + "/g2", 200, group("g2", "EMPTY", 0, "[]", null))
            .on("DELETE", GROUPS + "/g2", 204, "");
        mvc.perform(delete("/api/share-groups/g1"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.errorCode").value(409))
            .andExpect(jsonPath("$.message").value("Share group g1 has members: it can only be deleted when empty."));
        mvc.perform(delete("/api/share-groups/g2")).andExpect(status().isNoContent());
        assertThat(proxy.count("DELETE", GROUPS + "/g2")).isEqualTo(1);
    }

    @Test
    void startOffsetResetsGoToTheProxyAndItsRefusalIsPassedOn() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "EMPTY", 0, "[]", null))
            .on("POST", GROUPS + "/g1/offsets:reset", 200, "{\"share_group_id\":\"g1\",\"offsets\":[]}")
            .on("GET", GROUPS + "/g2", 200, group("g2", "STABLE", 1, "[]", null))
            .on("POST", GROUPS + "/g2/offsets:reset", 409, "{\"error_code\":409,\"message\":\"Share group g2 has "
                + "members: its offsets can only be reset when it is empty.\"}");
        mvc.perform(post("/api/share-groups/g1/offsets:reset").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mode\":\" Earliest \",\"topic\":\"orders\"}"))
            .andExpect(status().isNoContent());
        List<StubRestProxy.Received> posts = proxy.received().stream().filter(r -> r.method().equals("POST")).toList();
        assertThat(posts).singleElement().satisfies(r ->
            assertThat(r.body()).contains("\"to\":\"earliest\"").contains("\"topics\":[\"orders\"]"));

        mvc.perform(post("/api/share-groups/g2/offsets:reset").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mode\":\"latest\"}"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.message").value("Share group g2 has members: its offsets can only be reset when it "
                + "is empty."));
        mvc.perform(post("/api/share-groups/g1/offsets:reset").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mode\":\"sideways\"}"))
            .andExpect(status().isBadRequest());
        assertThat(proxy.count("POST", GROUPS + "/g1/offsets:reset")).isEqualTo(1);
    }
}
