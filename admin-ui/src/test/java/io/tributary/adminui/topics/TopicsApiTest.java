package io.tributary.adminui.topics;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.testing.ApiFixture;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import io.tributary.testing.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/**
 * {@code /api/topics} against a stub REST proxy: paging and filter maths, counts, sizes, adding
 * partitions and changing configs (the bodies sent to the proxy), validation, error pass-through.
 */
class TopicsApiTest {

    private static final String TOPICS = "/v3/clusters/" + CLUSTER + "/topics";

    private StubRestProxy proxy;
    private ApiFixture api;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        api = new ApiFixture(proxy.url());
    }

    @AfterEach
    void stop() {
        api.close();
        proxy.close();
    }

    private void topics(List<String> names) {
        List<String> shuffled = new ArrayList<>(names);
        Collections.shuffle(shuffled, new Random(7));
        proxy.on("GET", TOPICS, 200, ProxyJson.list(shuffled.stream().map(n -> ProxyJson.topic(n, 3, 1)).toList()));
        for (String name : names) {
            proxy.on("GET", "/topics/" + name + "/partitions", 200,
                ProxyJson.states(ProxyJson.state(0, 0, List.of(0), List.of(0))));
        }
    }

    @Test
    void filtersCaseInsensitivelySortsByNameAndPages() throws Exception {
        List<String> names = new ArrayList<>(IntStream.range(0, 45).mapToObj(i -> String.format("Orders-%02d", i))
            .toList());
        names.add("clicks");
        topics(names);

        api.mvc().perform(get("/api/topics").param("filter", "orders").param("page", "2").param("size", "20"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(45))
            .andExpect(jsonPath("$.page").value(2))
            .andExpect(jsonPath("$.topics.length()").value(5))
            .andExpect(jsonPath("$.topics[0].name").value("Orders-40"))
            .andExpect(jsonPath("$.topics[4].name").value("Orders-44"))
            .andExpect(jsonPath("$.topics[0].partitions").value(3))
            .andExpect(jsonPath("$.topics[0].replicationFactor").value(1));

        api.mvc().perform(get("/api/topics").param("size", "20"))
            .andExpect(jsonPath("$.total").value(46))
            .andExpect(jsonPath("$.topics[0].name").value("Orders-00"))
            .andExpect(jsonPath("$.topics.length()").value(20));

        api.mvc().perform(get("/api/topics").param("filter", "orders").param("page", "3").param("size", "20"))
            .andExpect(jsonPath("$.total").value(45))
            .andExpect(jsonPath("$.topics.length()").value(0));
    }

    @Test
    void aListPageOf2000TopicsMakesOneProxyCallWhenTheProxyGivesHealthCounts() throws Exception {
        List<String> names = IntStream.range(0, 2000).mapToObj(i -> String.format("topic-%04d", i)).toList();
        proxy.on("GET", TOPICS, 200, ProxyJson.list(names.stream()
            .map(n -> ProxyJson.topic(n, 3, 3, n.endsWith("7") ? 1 : 0, 0)).toList()));

        api.mvc().perform(get("/api/topics").param("filter", "topic-1").param("page", "1").param("size", "25"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(1000))
            .andExpect(jsonPath("$.topics[0].name").value("topic-1025"))
            .andExpect(jsonPath("$.topics[0].underReplicated").value(0))
            .andExpect(jsonPath("$.topics[2].name").value("topic-1027"))
            .andExpect(jsonPath("$.topics[2].underReplicated").value(1));

        assertThat(proxy.count("GET", TOPICS)).isEqualTo(1);
        assertThat(proxy.received().stream().filter(r -> r.path().startsWith("/topics/")).count())
            .as("no per-topic calls").isZero();
    }

    @Test
    void aProxyWithoutHealthCountsIsAskedOnlyForTheShownTopicsStates() throws Exception {
        topics(IntStream.range(0, 2000).mapToObj(i -> String.format("topic-%04d", i)).toList());

        api.mvc().perform(get("/api/topics").param("filter", "topic-1").param("page", "1").param("size", "25"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(1000))
            .andExpect(jsonPath("$.topics[0].name").value("topic-1025"));

        assertThat(proxy.count("GET", TOPICS)).isEqualTo(1);
        assertThat(proxy.received().stream().filter(r -> r.path().startsWith("/topics/")).count()).isEqualTo(25);
    }

    @Test
    void countsUnderReplicatedPartitionsOfEachRow() throws Exception {
        proxy.on("GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("a", 3, 3), ProxyJson.topic("b", 1, 3))));
        proxy.on("GET", "/topics/a/partitions", 200, ProxyJson.states(
            ProxyJson.state(0, 1, List.of(1, 2, 3), List.of(1, 2, 3)),
            ProxyJson.state(1, 2, List.of(2, 3, 1), List.of(2)),
            ProxyJson.state(2, -1, List.of(3, 1, 2), List.of(1, 2))));
        proxy.on("GET", "/topics/b/partitions", 200, ProxyJson.states(
            ProxyJson.state(0, 1, List.of(1, 2, 3), List.of(1, 2, 3))));

        api.mvc().perform(get("/api/topics"))
            .andExpect(jsonPath("$.topics[0].name").value("a"))
            .andExpect(jsonPath("$.topics[0].underReplicated").value(2))
            .andExpect(jsonPath("$.topics[1].underReplicated").value(0));
    }

    @Test
    void rejectsABadPageOrSize() throws Exception {
        api.mvc().perform(get("/api/topics").param("page", "-1"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.status").value(400));
        api.mvc().perform(get("/api/topics").param("size", "101")).andExpect(status().isBadRequest());
        api.mvc().perform(get("/api/topics").param("size", "x"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").isString());
    }

    @Test
    void createSendsTheProxyAV3BodyAndAnswers201() throws Exception {
        proxy.on("POST", TOPICS, 201, ProxyJson.topic("orders", 6, 1));

        api.mvc().perform(post("/api/topics").contentType(MediaType.APPLICATION_JSON)
                .content("{\"name\":\"orders\",\"partitions\":6,\"replicationFactor\":1,"
                    + "\"configs\":{\"cleanup.policy\":\"compact\"}}"))
            .andExpect(status().isCreated());

        String sent = proxy.received().stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow().body();
        assertThat(sent).contains("\"topic_name\":\"orders\"", "\"partitions_count\":6", "\"replication_factor\":1",
            "{\"name\":\"cleanup.policy\",\"value\":\"compact\"}");
    }

    @Test
    void createPassesOnTheProxysStatusAndKafkaMessage() throws Exception {
        proxy.on("POST", TOPICS, 409, "{\"error_code\":40902,\"message\":\"Topic 'orders' already exists.\"}");

        api.mvc().perform(post("/api/topics").contentType(MediaType.APPLICATION_JSON).content("{\"name\":\"orders\"}"))
            .andExpect(status().isConflict())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
            .andExpect(jsonPath("$.status").value(409))
            .andExpect(jsonPath("$.errorCode").value(40902))
            .andExpect(jsonPath("$.message").value("Topic 'orders' already exists."));
    }

    @Test
    void createWithoutANameIs400WithoutAskingTheProxy() throws Exception {
        api.mvc().perform(post("/api/topics").contentType(MediaType.APPLICATION_JSON).content("{\"name\":\" \"}"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").value("A topic name is required"));
        assertThat(proxy.count("POST", TOPICS)).isZero();
    }

    @Test
    void deleteAnswers204AndPassesOnTheProxys404() throws Exception {
        proxy.on("DELETE", TOPICS + "/orders", 204, "");
        proxy.on("DELETE", TOPICS + "/nope", 404,
            "{\"error_code\":40401,\"message\":\"This server does not host this topic-partition.\"}");

        api.mvc().perform(delete("/api/topics/orders")).andExpect(status().isNoContent());
        api.mvc().perform(delete("/api/topics/nope"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.errorCode").value(40401))
            .andExpect(jsonPath("$.message").value("This server does not host this topic-partition."));
        assertThat(proxy.count("DELETE", TOPICS + "/orders")).isEqualTo(1);
    }

    @Test
    void detailHasPartitionsWithOutOfSyncReplicasAndOffsetsAndSortedConfigs() throws Exception {
        proxy.on("GET", TOPICS + "/orders/partitions", 200, ProxyJson.list(List.of(
            "{\"partition_id\":1,\"leader_id\":null,\"replica_ids\":[2,0],\"isr_ids\":[],"
                + "\"out_of_sync_replica_ids\":[2,0],\"earliest_offset\":0,\"latest_offset\":0}",
            "{\"partition_id\":2,\"leader_id\":1,\"replica_ids\":[1],\"isr_ids\":[1],"
                + "\"earliest_offset\":0,\"latest_offset\":7,\"size_bytes\":1000}",
            "{\"partition_id\":0,\"leader_id\":0,\"replica_ids\":[0,1,2],\"isr_ids\":[0,2],"
                + "\"out_of_sync_replica_ids\":[1],\"earliest_offset\":5,\"latest_offset\":42,"
                + "\"size_bytes\":5368709120}")));
        proxy.on("GET", TOPICS + "/orders/configs", 200, ProxyJson.list(List.of(
            "{\"name\":\"retention.ms\",\"value\":\"604800000\",\"is_default\":true,\"is_read_only\":false,"
                + "\"is_sensitive\":false,\"source\":\"DEFAULT_CONFIG\"}",
            "{\"name\":\"cleanup.policy\",\"value\":\"compact\",\"is_default\":false,\"is_read_only\":false,"
                + "\"is_sensitive\":false,\"source\":\"DYNAMIC_TOPIC_CONFIG\"}",
            "{\"name\":\"sasl.secret\",\"value\":\"hunter2\",\"is_default\":false,\"is_read_only\":false,"
                + "\"is_sensitive\":true,\"source\":\"DYNAMIC_TOPIC_CONFIG\"}")));

        api.mvc().perform(get("/api/topics/orders"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.name").value("orders"))
            .andExpect(jsonPath("$.partitions[0].partition").value(0))
            .andExpect(jsonPath("$.partitions[0].leader").value(0))
            .andExpect(jsonPath("$.partitions[0].isr").value(org.hamcrest.Matchers.contains(0, 2)))
            .andExpect(jsonPath("$.partitions[0].outOfSync").value(org.hamcrest.Matchers.contains(1)))
            .andExpect(jsonPath("$.partitions[0].startOffset").value(5))
            .andExpect(jsonPath("$.partitions[0].endOffset").value(42))
            .andExpect(jsonPath("$.partitions[0].sizeBytes").value(5368709120L))
            .andExpect(jsonPath("$.partitions[1].leader").doesNotExist())
            .andExpect(jsonPath("$.partitions[1].sizeBytes").doesNotExist())
            .andExpect(jsonPath("$.partitions[2].sizeBytes").value(1000))
            .andExpect(jsonPath("$.sizeBytes").value(5368710120L))
            .andExpect(jsonPath("$.configs[0].name").value("cleanup.policy"))
            .andExpect(jsonPath("$.configs[0].source").value("DYNAMIC_TOPIC_CONFIG"))
            .andExpect(jsonPath("$.configs[0].overridden").value(true))
            .andExpect(jsonPath("$.configs[0].isDefault").value(false))
            .andExpect(jsonPath("$.configs[1].name").value("retention.ms"))
            .andExpect(jsonPath("$.configs[1].overridden").value(false))
            .andExpect(jsonPath("$.configs[1].isDefault").value(true))
            .andExpect(jsonPath("$.configs[1].readOnly").value(false))
            .andExpect(jsonPath("$.configs[2].name").value("sasl.secret"))
            .andExpect(jsonPath("$.configs[2].sensitive").value(true))
            .andExpect(jsonPath("$.configs[2].value").doesNotExist());
    }

    @Test
    void detailOfAProxyWithoutSizesHasNoTotal() throws Exception {
        proxy.on("GET", TOPICS + "/orders/partitions", 200, ProxyJson.list(List.of(
            "{\"partition_id\":0,\"leader_id\":0,\"replica_ids\":[0],\"isr_ids\":[0],"
                + "\"earliest_offset\":0,\"latest_offset\":3}")));
        proxy.on("GET", TOPICS + "/orders/configs", 200, ProxyJson.list(List.of()));

        api.mvc().perform(get("/api/topics/orders"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.partitions[0].sizeBytes").doesNotExist())
            .andExpect(jsonPath("$.sizeBytes").doesNotExist());
    }

    @Test
    void addPartitionsPatchesTheProxyWithTheNewCountAndAnswers204() throws Exception {
        proxy.on("GET", TOPICS + "/orders", 200, ProxyJson.topic("orders", 1, 1));
        proxy.on("PATCH", TOPICS + "/orders", 200, ProxyJson.topic("orders", 3, 1));

        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":3}"))
            .andExpect(status().isNoContent());

        assertThat(proxy.received().stream().filter(r -> r.method().equals("PATCH")).map(r -> r.body()).toList())
            .containsExactly("{\"partitions_count\":3}");
    }

    @Test
    void addPartitionsNotAboveTheCurrentCountIs400WithoutChangingAnything() throws Exception {
        proxy.on("GET", TOPICS + "/orders", 200, ProxyJson.topic("orders", 3, 1));

        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":3}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.status").value(400))
            .andExpect(jsonPath("$.message").value(
                "Topic orders has 3 partitions: the new count must be more than 3 (partitions can only be added)"));
        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":2}"))
            .andExpect(status().isBadRequest());
        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON).content("{}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value("partitions (the new partition count) is required"));
        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":\"many\"}"))
            .andExpect(status().isBadRequest());

        assertThat(proxy.count("PATCH", TOPICS + "/orders")).isZero();
    }

    @Test
    void addPartitionsPassesOnTheProxysErrors() throws Exception {
        proxy.on("GET", TOPICS + "/nope", 404,
            "{\"error_code\":40401,\"message\":\"This server does not host this topic-partition.\"}");
        proxy.on("GET", TOPICS + "/orders", 200, ProxyJson.topic("orders", 1, 1));
        proxy.on("PATCH", TOPICS + "/orders", 400,
            "{\"error_code\":400,\"message\":\"The number of partitions must be at most 1000.\"}");

        api.mvc().perform(patch("/api/topics/nope").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":2}"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.errorCode").value(40401))
            .andExpect(jsonPath("$.message").value("This server does not host this topic-partition."));
        api.mvc().perform(patch("/api/topics/orders").contentType(MediaType.APPLICATION_JSON)
                .content("{\"partitions\":5000}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.errorCode").value(400))
            .andExpect(jsonPath("$.message").value("The number of partitions must be at most 1000."));
        assertThat(proxy.count("PATCH", TOPICS + "/nope")).isZero();
    }

    @Test
    void configChangesAreOneConfigsAlterCallWithSetAndDeleteOperations() throws Exception {
        proxy.on("POST", TOPICS + "/orders/configs:alter", 204, "");

        api.mvc().perform(put("/api/topics/orders/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\"retention.ms\":\"3600000\",\"cleanup.policy\":\"compact,delete\"},"
                    + "\"reset\":[\"segment.bytes\",\"segment.bytes\"]}"))
            .andExpect(status().isNoContent());

        assertThat(proxy.received().stream().filter(r -> r.method().equals("POST")).map(r -> r.body()).toList())
            .containsExactly("{\"data\":[{\"name\":\"retention.ms\",\"value\":\"3600000\",\"operation\":\"SET\"},"
                + "{\"name\":\"cleanup.policy\",\"value\":\"compact,delete\",\"operation\":\"SET\"},"
                + "{\"name\":\"segment.bytes\",\"operation\":\"DELETE\"}]}");
    }

    @Test
    void configChangesAreValidatedBeforeAskingTheProxy() throws Exception {
        proxy.on("POST", TOPICS + "/orders/configs:alter", 204, "");
        for (String body : List.of("{}", "{\"set\":{},\"reset\":[]}", "{\"set\":{\" \":\"1\"}}",
                "{\"reset\":[\"\"]}", "{\"set\":{\"retention.ms\":null}}",
                "{\"set\":{\"retention.ms\":\"1\"},\"reset\":[\"retention.ms\"]}", "{\"set\":[1]}")) {
            api.mvc().perform(put("/api/topics/orders/configs").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.message").isString());
        }
        api.mvc().perform(put("/api/topics/orders/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\"retention.ms\":\"1\"},\"reset\":[\"retention.ms\"]}"))
            .andExpect(jsonPath("$.message").value("Config retention.ms is both set and reset"));
        assertThat(proxy.count("POST", TOPICS + "/orders/configs:alter")).isZero();
    }

    @Test
    void configChangesPassOnKafkasMessage() throws Exception {
        proxy.on("POST", TOPICS + "/orders/configs:alter", 400, "{\"error_code\":400,\"message\":"
            + "\"Invalid value soon for configuration retention.ms: Not a number of type LONG\"}");
        proxy.on("POST", TOPICS + "/nope/configs:alter", 404,
            "{\"error_code\":40401,\"message\":\"This server does not host this topic-partition.\"}");

        api.mvc().perform(put("/api/topics/orders/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\"retention.ms\":\"soon\"}}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.errorCode").value(400))
            .andExpect(jsonPath("$.message").value(
                "Invalid value soon for configuration retention.ms: Not a number of type LONG"));
        api.mvc().perform(put("/api/topics/nope/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"reset\":[\"retention.ms\"]}"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.errorCode").value(40401));
    }

    @Test
    void anUnreachableProxyIsA502WithAMessageNotAStackTrace() throws Exception {
        int closedPort;
        closedPort = TestPorts.freePort();
        try (ApiFixture unreachable = new ApiFixture(URI.create("http://127.0.0.1:" + closedPort))) {
            String body = unreachable.mvc().perform(get("/api/topics"))
                .andExpect(status().isBadGateway())
                .andExpect(jsonPath("$.message").value("The REST proxy did not answer: connection refused "
                    + "(ConnectException)"))
                .andExpect(jsonPath("$.proxy").value("http://127.0.0.1:" + closedPort))
                .andReturn().getResponse().getContentAsString();
            assertThat(body).doesNotContain("\tat ", "java.");
        }
    }

    /** A v3 topic marked internal, as the proxy lists {@code __consumer_offsets}. */
    private static String internalTopic(String name) {
        return ProxyJson.topic(name, 1, 1, 0, 0).replace("\"is_internal\":false", "\"is_internal\":true");
    }

    private static String usage(String name, Long bytes, long messages) {
        return "{\"topic_name\":\"" + name + "\",\"size_bytes\":" + bytes + ",\"message_count\":" + messages + "}";
    }

    @Test
    void internalTopicsAreHiddenUnlessAskedForAndCountedEitherWay() throws Exception {
        proxy.on("GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("orders", 3, 1, 0, 0),
            internalTopic("__consumer_offsets"), internalTopic("__transaction_state"), ProxyJson.topic("clicks", 1, 1, 0, 0))));

        api.mvc().perform(get("/api/topics"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.total").value(2))
            .andExpect(jsonPath("$.internal").value(2))
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("clicks", "orders")));
        api.mvc().perform(get("/api/topics").param("internal", "true"))
            .andExpect(jsonPath("$.total").value(4))
            .andExpect(jsonPath("$.internal").value(2))
            .andExpect(jsonPath("$.topics[0].name").value("__consumer_offsets"))
            .andExpect(jsonPath("$.topics[0].internal").value(true));
        proxy.on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(0, null))));
        api.mvc().perform(get("/api/cluster"))
            .andExpect(jsonPath("$.topics").value(4))
            .andExpect(jsonPath("$.internalTopics").value(2));
    }

    @Test
    void sortsBySizeMessagesAndPartitionsWithUnknownSizesLast() throws Exception {
        proxy.on("GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("a", 1, 1, 0, 0),
            ProxyJson.topic("b", 6, 1, 0, 0), ProxyJson.topic("c", 3, 1, 0, 0), ProxyJson.topic("d", 3, 1, 0, 0))));
        proxy.on("GET", "/v3/clusters/" + CLUSTER + "/topic-usage", 200, ProxyJson.list(List.of(
            usage("a", 5000L, 10), usage("b", 100L, 900), usage("c", null, 50))));

        api.mvc().perform(get("/api/topics").param("sort", "size").param("order", "desc"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("a", "b", "c", "d")))
            .andExpect(jsonPath("$.topics[0].sizeBytes").value(5000))
            .andExpect(jsonPath("$.topics[0].messageCount").value(10))
            .andExpect(jsonPath("$.topics[3].sizeBytes").doesNotExist());
        api.mvc().perform(get("/api/topics").param("sort", "size").param("order", "asc"))
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("b", "a", "c", "d")));
        api.mvc().perform(get("/api/topics").param("sort", "messages").param("order", "desc"))
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("b", "c", "a", "d")));
        api.mvc().perform(get("/api/topics").param("sort", "partitions").param("order", "desc").param("size", "2"))
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("b", "c")))
            .andExpect(jsonPath("$.topics[1].messageCount").value(50));
        api.mvc().perform(get("/api/topics").param("sort", "name").param("order", "desc"))
            .andExpect(jsonPath("$.topics[*].name").value(org.hamcrest.Matchers.contains("d", "c", "b", "a")));
        assertThat(proxy.queries("GET", "/v3/clusters/" + CLUSTER + "/topic-usage"))
            .as("sorted by name or partitions: usage of the page's topics only")
            .contains("topic=b&topic=c");
        api.mvc().perform(get("/api/topics").param("sort", "bytes")).andExpect(status().isBadRequest());
        api.mvc().perform(get("/api/topics").param("order", "up")).andExpect(status().isBadRequest());
    }

    @Test
    void aProxyWithoutTopicUsageStillListsTopics() throws Exception {
        topics(List.of("orders"));

        api.mvc().perform(get("/api/topics").param("sort", "size"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.topics[0].name").value("orders"))
            .andExpect(jsonPath("$.topics[0].sizeBytes").doesNotExist());
    }

    @Test
    void deletesSeveralTopicsAndSaysWhichTheProxyRefused() throws Exception {
        proxy.on("GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("a", 1, 1), ProxyJson.topic("b", 1, 1))));
        proxy.on("DELETE", TOPICS + "/a", 204, "");
        proxy.on("DELETE", TOPICS + "/b", 204, "");
        proxy.on("DELETE", TOPICS + "/gone", 404,
            "{\"error_code\":40401,\"message\":\"This server does not host this topic-partition.\"}");

        api.mvc().perform(post("/api/topics/deletions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"names\":[\"a\",\"b\",\"a\",\"gone\"]}"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.deleted").value(org.hamcrest.Matchers.contains("a", "b")))
            .andExpect(jsonPath("$.failed[0].name").value("gone"))
            .andExpect(jsonPath("$.failed[0].message").value("This server does not host this topic-partition."));
        assertThat(proxy.count("DELETE", TOPICS + "/a")).as("once, though named twice").isEqualTo(1);
    }

    @Test
    void internalTopicsAreNeverDeleted() throws Exception {
        proxy.on("GET", TOPICS, 200, ProxyJson.list(List.of(ProxyJson.topic("a", 1, 1),
            internalTopic("__consumer_offsets"))));
        proxy.on("GET", TOPICS + "/__consumer_offsets", 200, internalTopic("__consumer_offsets"));
        proxy.on("DELETE", TOPICS + "/a", 204, "");
        proxy.on("DELETE", TOPICS + "/__consumer_offsets", 204, "");

        api.mvc().perform(post("/api/topics/deletions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"names\":[\"a\",\"__consumer_offsets\"]}"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.startsWith(
                "Topic __consumer_offsets is internal")));
        api.mvc().perform(delete("/api/topics/__consumer_offsets")).andExpect(status().isBadRequest());
        api.mvc().perform(post("/api/topics/deletions").contentType(MediaType.APPLICATION_JSON).content("{\"names\":[]}"))
            .andExpect(status().isBadRequest());
        assertThat(proxy.count("DELETE", TOPICS + "/a")).as("nothing deleted when one is internal").isZero();
        assertThat(proxy.count("DELETE", TOPICS + "/__consumer_offsets")).isZero();
    }
}
