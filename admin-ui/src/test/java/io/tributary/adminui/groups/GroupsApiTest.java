package io.tributary.adminui.groups;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** {@code /api/groups} against a stub REST proxy: paging and filter, lag sums, reset body mapping, errors. */
class GroupsApiTest {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private static final String GROUPS = "/v3/clusters/" + CLUSTER + "/consumer-groups";

    private StubRestProxy proxy;
    private GroupLags lags;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            READ_TIMEOUT);
        GroupsProxyClient groups = new GroupsProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        lags = new GroupLags(groups);
        mvc = MockMvcBuilders.standaloneSetup(new GroupsController(
                new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())), groups, lags))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        lags.destroy();
        proxy.close();
    }

    private static String group(String id, String state) {
        return "{\"kind\":\"KafkaConsumerGroup\",\"cluster_id\":\"" + CLUSTER + "\",\"consumer_group_id\":\"" + id
            + "\",\"is_simple\":false,\"partition_assignor\":\"range\",\"state\":\"" + state + "\"}";
    }

    private static String consumer(String id, String client, String... partitions) {
        List<String> assigned = new ArrayList<>();
        for (String p : partitions) {
            int dash = p.lastIndexOf('-');
            assigned.add("{\"topic_name\":\"" + p.substring(0, dash) + "\",\"partition_id\":" + p.substring(dash + 1)
                + "}");
        }
        return "{\"consumer_id\":\"" + id + "\",\"instance_id\":null,\"client_id\":\"" + client
            + "\",\"host\":\"/10.0.0.1\",\"assignments\":[" + String.join(",", assigned) + "]}";
    }

    private static String lag(String topic, int partition, long current, long end, long lag, String owner) {
        return "{\"topic_name\":\"" + topic + "\",\"partition_id\":" + partition + ",\"current_offset\":" + current
            + ",\"log_end_offset\":" + end + ",\"lag\":" + lag + ",\"consumer_id\":"
            + (owner == null ? "null" : "\"" + owner + "\"") + ",\"client_id\":null}";
    }

    private static String summary(long max, long total) {
        return "{\"kind\":\"KafkaConsumerGroupLagSummary\",\"max_lag\":" + max + ",\"total_lag\":" + total + "}";
    }

    /** 120 groups "Billing-000".."Billing-119" plus "audit"; group i has total lag i and i % 3 members. */
    private void manyGroups() {
        List<String> ids = new ArrayList<>(IntStream.range(0, 120).mapToObj(i -> String.format("Billing-%03d", i))
            .toList());
        ids.add("audit");
        List<String> shuffled = new ArrayList<>(ids);
        Collections.shuffle(shuffled, new Random(3));
        proxy.on("GET", GROUPS, 200, ProxyJson.list(shuffled.stream().map(id -> group(id, "STABLE")).toList()));
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            proxy.on("GET", GROUPS + "/" + id + "/lag-summary", 200, summary(i, i));
            List<String> members = IntStream.range(0, i % 3).mapToObj(m -> consumer("c" + m, "app")).toList();
            proxy.on("GET", GROUPS + "/" + id + "/consumers", 200, ProxyJson.list(members));
        }
    }

    @Test
    void filtersCaseInsensitivelySortsByIdPagesAndLooksUpOnlyThePageShown() throws Exception {
        manyGroups();
        mvc.perform(get("/api/groups").param("filter", "billing").param("page", "5").param("size", "20"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(120))
            .andExpect(jsonPath("$.page").value(5))
            .andExpect(jsonPath("$.size").value(20))
            .andExpect(jsonPath("$.groups.length()").value(20))
            .andExpect(jsonPath("$.groups[0].id").value("Billing-100"))
            .andExpect(jsonPath("$.groups[0].state").value("STABLE"))
            .andExpect(jsonPath("$.groups[0].totalLag").value(100))
            .andExpect(jsonPath("$.groups[0].members").value(1))
            .andExpect(jsonPath("$.groups[19].id").value("Billing-119"))
            .andExpect(jsonPath("$.groups[19].members").value(2));
        // Only the 20 groups on the page cost lag and member calls.
        assertThat(proxy.received().stream().filter(r -> r.path().endsWith("/lag-summary")).count()).isEqualTo(20);
        assertThat(proxy.received().stream().filter(r -> r.path().endsWith("/consumers")).count()).isEqualTo(20);
        assertThat(proxy.count("GET", GROUPS + "/Billing-099/lag-summary")).isZero();

        mvc.perform(get("/api/groups").param("size", "2"))
            .andExpect(jsonPath("$.total").value(121))
            .andExpect(jsonPath("$.groups[0].id").value("Billing-000"))
            .andExpect(jsonPath("$.groups[0].members").value(0));
        mvc.perform(get("/api/groups").param("filter", "  AUD "))
            .andExpect(jsonPath("$.total").value(1))
            .andExpect(jsonPath("$.groups[0].id").value("audit"))
            .andExpect(jsonPath("$.groups[0].totalLag").value(120));
        // A page past the end is empty, not an error.
        mvc.perform(get("/api/groups").param("page", "9").param("size", "20"))
            .andExpect(status().isOk()).andExpect(jsonPath("$.total").value(121))
            .andExpect(jsonPath("$.groups.length()").value(0));
    }

    @Test
    void aPageOf100GroupsIsServedWithBoundedConcurrency() throws Exception {
        manyGroups();
        mvc.perform(get("/api/groups").param("size", "100"))
            .andExpect(status().isOk()).andExpect(jsonPath("$.groups.length()").value(100))
            .andExpect(jsonPath("$.groups[99].id").value("Billing-099"))
            .andExpect(jsonPath("$.groups[99].totalLag").value(99));
        assertThat(proxy.received().stream().filter(r -> r.path().endsWith("/lag-summary")).count()).isEqualTo(100);
    }

    @Test
    void rejectsBadPaging() throws Exception {
        mvc.perform(get("/api/groups").param("size", "101")).andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("page must be 0 or more and size between 1 and 100"));
        mvc.perform(get("/api/groups").param("page", "-1")).andExpect(status().isBadRequest());
    }

    @Test
    void aGroupGoneBetweenListAndLookupKeepsItsRowWithoutNumbers() throws Exception {
        proxy.on("GET", GROUPS, 200, ProxyJson.list(List.of(group("gone", "DEAD"), group("here", "EMPTY"))))
            .on("GET", GROUPS + "/here/lag-summary", 200, summary(4, 7))
            .on("GET", GROUPS + "/here/consumers", 200, ProxyJson.list(List.of()));
        mvc.perform(get("/api/groups"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.groups[0].id").value("gone"))
            .andExpect(jsonPath("$.groups[0].totalLag").doesNotExist())
            .andExpect(jsonPath("$.groups[1].totalLag").value(7))
            .andExpect(jsonPath("$.groups[1].members").value(0));
    }

    @Test
    void detailHasMembersAndPartitionOffsetsWithTheLagSum() throws Exception {
        proxy.on("GET", GROUPS + "/g1", 200, group("g1", "STABLE"))
            .on("GET", GROUPS + "/g1/consumers", 200, ProxyJson.list(List.of(
                consumer("c-1", "app-1", "orders-1", "orders-0"), consumer("c-2", "app-2", "clicks-0"))))
            .on("GET", GROUPS + "/g1/lags", 200, ProxyJson.list(List.of(
                lag("orders", 1, 5, 9, 4, "c-1"), lag("clicks", 0, 2, 2, 0, "c-2"), lag("orders", 0, -1, 6, 6, "c-1"),
                lag("old", 0, 3, 10, 7, null))));
        mvc.perform(get("/api/groups/g1"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.id").value("g1"))
            .andExpect(jsonPath("$.state").value("STABLE"))
            .andExpect(jsonPath("$.partitionAssignor").value("range"))
            .andExpect(jsonPath("$.totalLag").value(17))
            .andExpect(jsonPath("$.members.length()").value(2))
            .andExpect(jsonPath("$.members[0].consumerId").value("c-1"))
            .andExpect(jsonPath("$.members[0].clientId").value("app-1"))
            .andExpect(jsonPath("$.members[0].host").value("/10.0.0.1"))
            .andExpect(jsonPath("$.members[0].assignments[0]").value("orders-0"))
            .andExpect(jsonPath("$.members[0].assignments[1]").value("orders-1"))
            .andExpect(jsonPath("$.partitions.length()").value(4))
            .andExpect(jsonPath("$.partitions[0].topic").value("clicks"))
            .andExpect(jsonPath("$.partitions[1].topic").value("old"))
            .andExpect(jsonPath("$.partitions[1].owner").doesNotExist())
            .andExpect(jsonPath("$.partitions[2].topic").value("orders"))
            .andExpect(jsonPath("$.partitions[2].partition").value(0))
            .andExpect(jsonPath("$.partitions[2].committedOffset").doesNotExist())
            .andExpect(jsonPath("$.partitions[2].endOffset").value(6))
            .andExpect(jsonPath("$.partitions[2].lag").value(6))
            .andExpect(jsonPath("$.partitions[3].committedOffset").value(5))
            .andExpect(jsonPath("$.partitions[3].owner").value("c-1"));
    }

    @Test
    void unknownGroupIsThe404OfTheProxy() throws Exception {
        proxy.on("GET", GROUPS + "/nope", 404, "{\"error_code\":404,\"message\":\"Consumer group nope not found.\"}");
        mvc.perform(get("/api/groups/nope"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.status").value(404))
            .andExpect(jsonPath("$.message").value("Consumer group nope not found."));
    }

    private String resetAndGetProxyBody(String body) throws Exception {
        proxy.on("POST", GROUPS + "/g1/offsets:reset", 200,
            "{\"consumer_group_id\":\"g1\",\"offsets\":[{\"topic_name\":\"orders\",\"partition_id\":0,\"offset\":0}]}");
        mvc.perform(post("/api/groups/g1/offsets:reset").contentType(MediaType.APPLICATION_JSON).content(body))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.id").value("g1"))
            .andExpect(jsonPath("$.offsets[0].topic").value("orders"))
            .andExpect(jsonPath("$.offsets[0].partition").value(0))
            .andExpect(jsonPath("$.offsets[0].offset").value(0));
        List<StubRestProxy.Received> posts = proxy.received().stream().filter(r -> r.method().equals("POST")).toList();
        return posts.get(posts.size() - 1).body();
    }

    @Test
    void resetBodiesAreMappedToTheProxys() throws Exception {
        assertThat(resetAndGetProxyBody("{\"mode\":\"earliest\"}")).isEqualTo("{\"to\":\"earliest\"}");
        assertThat(resetAndGetProxyBody("{\"mode\":\"LATEST\",\"topic\":\"orders\",\"offset\":4}"))
            .isEqualTo("{\"to\":\"latest\",\"topics\":[\"orders\"]}");
        assertThat(resetAndGetProxyBody("{\"mode\":\"offset\",\"offset\":42,\"topic\":\" \"}"))
            .isEqualTo("{\"to\":\"offset\",\"offset\":42}");
        assertThat(resetAndGetProxyBody("{\"mode\":\"timestamp\",\"timestamp\":1700000000000,\"topic\":\"orders\"}"))
            .isEqualTo("{\"to\":\"timestamp\",\"timestamp\":1700000000000,\"topics\":[\"orders\"]}");
    }

    @Test
    void badResetBodiesAre400WithoutAskingTheProxy() throws Exception {
        for (String body : List.of("{}", "{\"mode\":\"yesterday\"}", "{\"mode\":\"offset\"}",
                "{\"mode\":\"offset\",\"offset\":-1}", "{\"mode\":\"timestamp\"}", "not json")) {
            mvc.perform(post("/api/groups/g1/offsets:reset").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.message").isNotEmpty());
        }
        assertThat(proxy.count("POST", GROUPS + "/g1/offsets:reset")).isZero();
    }

    @Test
    void theProxysRefusalOfAResetOrDeleteIsPassedOn() throws Exception {
        String busy = "{\"error_code\":409,\"message\":\"Group g1 has 1 members (state STABLE): offsets can only be "
            + "reset when it is empty.\"}";
        proxy.on("POST", GROUPS + "/g1/offsets:reset", 409, busy)
            .on("DELETE", GROUPS + "/g1", 409, "{\"error_code\":409,\"message\":\"Group g1 has members: it can only "
                + "be deleted when empty.\"}");
        mvc.perform(post("/api/groups/g1/offsets:reset").contentType(MediaType.APPLICATION_JSON)
                .content("{\"mode\":\"earliest\"}"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.errorCode").value(409))
            .andExpect(jsonPath("$.message").value("Group g1 has 1 members (state STABLE): offsets can only be reset "
                + "when it is empty."));
        mvc.perform(delete("/api/groups/g1"))
            .andExpect(status().isConflict())
            .andExpect(jsonPath("$.message").value("Group g1 has members: it can only be deleted when empty."));
    }

    @Test
    void deleteIs204AndAnUnreachableProxyIs502() throws Exception {
        proxy.on("DELETE", GROUPS + "/g1", 204, "");
        mvc.perform(delete("/api/groups/g1")).andExpect(status().isNoContent());
        assertThat(proxy.count("DELETE", GROUPS + "/g1")).isEqualTo(1);

        proxy.close();
        mvc.perform(get("/api/groups"))
            .andExpect(status().isBadGateway())
            .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.startsWith("The REST proxy did not answer")));
    }
}
