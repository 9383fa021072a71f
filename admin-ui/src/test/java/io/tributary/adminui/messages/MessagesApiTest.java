package io.tributary.adminui.messages;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.security.Rights;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * {@code /api/topics/{name}/messages} against a stub REST proxy: decoding (JSON, text, hex), the
 * paging parameters sent to the proxy's partition reads, produce and its switch, search progress,
 * the live tail's relay, and error pass-through.
 */
class MessagesApiTest {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private static final String RECORDS = "/topics/orders/partitions/0/records";
    private static final String OFFSETS = "/topics/orders/partitions/0/offsets";
    private static final String PRODUCE = "/v3/clusters/" + CLUSTER + "/topics/orders/records";
    private static final String SEARCHES = "/v3/clusters/" + CLUSTER + "/topics/orders/searches";

    private StubRestProxy proxy;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private MockMvc api(boolean produceEnabled) {
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            READ_TIMEOUT);
        RestProxyClient client = new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        MessagesProxyClient records = new MessagesProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        return MockMvcBuilders.standaloneSetup(new MessagesController(client, records, produceEnabled, Rights.unenforced()),
                new MessageStreamController(records, startedTails()))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    private static String b64(byte[] bytes) {
        return "\"" + Base64.getEncoder().encodeToString(bytes) + "\"";
    }

    private static String b64(String text) {
        return b64(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A record in the proxy's binary format; key and value already JSON (a base64 string or null). */
    private static String record(long offset, String key, String value, String headers) {
        return "{\"topic\":\"orders\",\"key\":" + key + ",\"value\":" + value + ",\"partition\":0,\"offset\":" + offset
            + ",\"timestamp\":1700000000000,\"headers\":" + headers + "}";
    }

    private void offsets(long beginning, long end) {
        proxy.on("GET", OFFSETS, 200, "{\"beginning_offset\":" + beginning + ",\"end_offset\":" + end + "}");
    }

    @Test
    void decodesJsonPrettyTextAndBinaryAsHexWithHeaders() throws Exception {
        offsets(0, 3);
        proxy.on("GET", RECORDS, 200, "[" + String.join(",",
            record(0, b64("user-1"), b64("{\"id\":7,\"tags\":[\"a\"]}"),
                "[{\"name\":\"trace\",\"value\":" + b64("abc") + "}]"),
            record(1, "null", b64("héllo wörld"), "[]"),
            record(2, b64(new byte[] {0, (byte) 0xff, 0x10}), "null", "[{\"name\":\"empty\",\"value\":null}]"))
            + "]");

        api(true).perform(get("/api/topics/orders/messages").param("partition", "0").param("from", "oldest"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.beginningOffset").value(0))
            .andExpect(jsonPath("$.endOffset").value(3))
            .andExpect(jsonPath("$.messages.length()").value(3))
            .andExpect(jsonPath("$.messages[0].key.kind").value("text"))
            .andExpect(jsonPath("$.messages[0].key.text").value("user-1"))
            .andExpect(jsonPath("$.messages[0].value.kind").value("json"))
            .andExpect(jsonPath("$.messages[0].value.text").value("{\n  \"id\" : 7,\n  \"tags\" : [ \"a\" ]\n}"))
            .andExpect(jsonPath("$.messages[0].headers[0].name").value("trace"))
            .andExpect(jsonPath("$.messages[0].headers[0].value.text").value("abc"))
            .andExpect(jsonPath("$.messages[0].timestamp").value(1700000000000L))
            .andExpect(jsonPath("$.messages[1].key.kind").value("null"))
            .andExpect(jsonPath("$.messages[1].value.kind").value("text"))
            .andExpect(jsonPath("$.messages[1].value.text").value("héllo wörld"))
            .andExpect(jsonPath("$.messages[1].value.bytes").value(13))
            .andExpect(jsonPath("$.messages[2].key.kind").value("binary"))
            .andExpect(jsonPath("$.messages[2].key.text").value("00 ff 10"))
            .andExpect(jsonPath("$.messages[2].value.kind").value("null"))
            .andExpect(jsonPath("$.messages[2].headers[0].value.kind").value("null"))
            .andExpect(jsonPath("$.previousOffset").doesNotExist())
            .andExpect(jsonPath("$.nextOffset").doesNotExist());

        assertThat(proxy.queries("GET", RECORDS)).singleElement().satisfies(q -> assertThat(q)
            .contains("offset=0", "count=3", "format=binary"));
    }

    @Test
    void pagesWithBoundedCountsClampedToThePartitionsRecords() throws Exception {
        offsets(10, 200);
        proxy.on("GET", RECORDS, 200, "[" + record(151, "null", b64("b"), "[]") + ","
            + record(150, "null", b64("a"), "[]") + "]");
        MockMvc api = api(true);

        // Newest: the last 50 records; links to the page before, none after (151 is not the last here).
        api.perform(get("/api/topics/orders/messages").param("from", "newest").param("count", "50"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.messages[0].offset").value(150))
            .andExpect(jsonPath("$.messages[1].offset").value(151))
            .andExpect(jsonPath("$.previousOffset").value(100))
            .andExpect(jsonPath("$.nextOffset").value(152));
        // An offset before the first record starts at the first; near the end, fewer are asked for.
        api.perform(get("/api/topics/orders/messages").param("from", "offset").param("offset", "3")
            .param("count", "20")).andExpect(status().isOk());
        api.perform(get("/api/topics/orders/messages").param("from", "offset").param("offset", "195")
            .param("count", "50")).andExpect(status().isOk());
        api.perform(get("/api/topics/orders/messages").param("from", "timestamp").param("timestamp", "1700000000000")
            .param("count", "25")).andExpect(status().isOk());
        assertThat(proxy.queries("GET", RECORDS)).hasSize(4);
        assertThat(proxy.queries("GET", RECORDS).get(0)).contains("offset=150", "count=50");
        assertThat(proxy.queries("GET", RECORDS).get(1)).contains("offset=10", "count=20");
        assertThat(proxy.queries("GET", RECORDS).get(2)).contains("offset=195", "count=5");
        assertThat(proxy.queries("GET", RECORDS).get(3)).contains("timestamp=1700000000000", "count=25")
            .doesNotContain("offset=");

        // At the log end the proxy is not asked (it would long-poll): an empty page, a link back.
        api.perform(get("/api/topics/orders/messages").param("from", "offset").param("offset", "500"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.messages.length()").value(0))
            .andExpect(jsonPath("$.previousOffset").value(150))
            .andExpect(jsonPath("$.nextOffset").doesNotExist());
        assertThat(proxy.queries("GET", RECORDS)).hasSize(4);

        api.perform(get("/api/topics/orders/messages").param("count", "101"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").value(Matchers.containsString("count")));
        api.perform(get("/api/topics/orders/messages").param("from", "offset"))
            .andExpect(status().isBadRequest());
        api.perform(get("/api/topics/orders/messages").param("from", "sideways"))
            .andExpect(status().isBadRequest());
    }

    private static String recordIn(int partition, long offset, long timestamp) {
        return "{\"topic\":\"orders\",\"key\":null,\"value\":" + b64("p" + partition + "o" + offset)
            + ",\"partition\":" + partition + ",\"offset\":" + offset + ",\"timestamp\":" + timestamp
            + ",\"headers\":[]}";
    }

    @Test
    void pagesOverSeveralPartitionsInTimestampOrderWithCursors() throws Exception {
        proxy.on("GET", "/topics/orders/partitions", 200, ProxyJson.states(
            ProxyJson.state(0, 0, java.util.List.of(0), java.util.List.of(0)),
            ProxyJson.state(1, 0, java.util.List.of(0), java.util.List.of(0))));
        offsets(0, 3);
        proxy.on("GET", "/topics/orders/partitions/1/offsets", 200, "{\"beginning_offset\":10,\"end_offset\":12}");
        proxy.on("GET", RECORDS, 200, "[" + recordIn(0, 0, 100) + "," + recordIn(0, 1, 300) + "," + recordIn(0, 2, 500)
            + "]");
        proxy.on("GET", "/topics/orders/partitions/1/records", 200, "[" + recordIn(1, 10, 200) + ","
            + recordIn(1, 11, 400) + "]");
        MockMvc api = api(true);

        api.perform(get("/api/topics/orders/messages").param("partitions", "all").param("from", "oldest")
                .param("count", "3"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.partitions[1].partition").value(1))
            .andExpect(jsonPath("$.partitions[1].beginningOffset").value(10))
            .andExpect(jsonPath("$.messages[*].timestamp").value(Matchers.contains(100, 200, 300)))
            .andExpect(jsonPath("$.messages[1].partition").value(1))
            .andExpect(jsonPath("$.previousCursor").doesNotExist())
            .andExpect(jsonPath("$.nextCursor").value("0:2,1:11"));
        api.perform(get("/api/topics/orders/messages").param("partitions", "0,1").param("from", "after")
                .param("cursor", "0:2,1:11").param("count", "3"))
            .andExpect(jsonPath("$.messages[*].timestamp").value(Matchers.contains(400, 500)))
            .andExpect(jsonPath("$.previousCursor").value("0:2,1:11"))
            .andExpect(jsonPath("$.nextCursor").doesNotExist());
        api.perform(get("/api/topics/orders/messages").param("partitions", "all").param("from", "newest")
                .param("count", "2"))
            .andExpect(jsonPath("$.messages[*].timestamp").value(Matchers.contains(400, 500)))
            .andExpect(jsonPath("$.previousCursor").value("0:2,1:11"))
            .andExpect(jsonPath("$.nextCursor").doesNotExist());
        api.perform(get("/api/topics/orders/messages").param("partitions", "all").param("from", "before")
                .param("cursor", "0:2,1:11").param("count", "2"))
            .andExpect(jsonPath("$.messages[*].timestamp").value(Matchers.contains(200, 300)))
            .andExpect(jsonPath("$.messages[0].value.text").value("p1o10"))
            .andExpect(jsonPath("$.previousCursor").value("0:1,1:10"))
            .andExpect(jsonPath("$.nextCursor").value("0:2,1:11"));

        api.perform(get("/api/topics/orders/messages").param("partitions", "0,x"))
            .andExpect(status().isBadRequest());
        api.perform(get("/api/topics/orders/messages").param("partitions", "0").param("from", "after"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").value(Matchers.containsString("cursor")));
    }

    @Test
    void producesTextKeyValueAndBase64HeadersAnd201() throws Exception {
        proxy.on("POST", PRODUCE, 200, "{\"error_code\":200,\"cluster_id\":\"c1\",\"topic_name\":\"orders\","
            + "\"partition_id\":2,\"offset\":41}\n");

        api(true).perform(post("/api/topics/orders/messages").contentType(MediaType.APPLICATION_JSON)
                .content("{\"key\":\"k1\",\"value\":\"{\\\"a\\\":1}\",\"headers\":[{\"name\":\"source\","
                    + "\"value\":\"ui\"}],\"partition\":2}"))
            .andExpect(status().isCreated())
            .andExpect(jsonPath("$.partition").value(2))
            .andExpect(jsonPath("$.offset").value(41));

        String sent = proxy.received().stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow().body();
        assertThat(sent).contains("\"partition_id\":2", "\"key\":{\"type\":\"STRING\",\"data\":\"k1\"}",
            "\"value\":{\"type\":\"STRING\",\"data\":\"{\\\"a\\\":1}\"}",
            "{\"name\":\"source\",\"value\":\"" + Base64.getEncoder().encodeToString("ui".getBytes()) + "\"}");
    }

    @Test
    void aProduceFailureInTheProxysAnswerBodyIsPassedOn() throws Exception {
        proxy.on("POST", PRODUCE, 200, "{\"error_code\":40402,\"message\":\"Partition 9 of topic orders not found.\"}\n");

        api(true).perform(post("/api/topics/orders/messages").contentType(MediaType.APPLICATION_JSON)
                .content("{\"value\":\"x\",\"partition\":9}"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.errorCode").value(40402))
            .andExpect(jsonPath("$.message").value("Partition 9 of topic orders not found."));
    }

    @Test
    void produceTurnedOffIs403WithAMessageAndAsksNothingOfTheProxy() throws Exception {
        MockMvc api = api(false);
        api.perform(get("/api/messages/settings")).andExpect(jsonPath("$.produceEnabled").value(false));
        api.perform(post("/api/topics/orders/messages").contentType(MediaType.APPLICATION_JSON)
                .content("{\"value\":\"x\"}"))
            .andExpect(status().isForbidden())
            .andExpect(jsonPath("$.status").value(403))
            .andExpect(jsonPath("$.message").value(Matchers.containsString("admin-ui.produce-enabled")));
        assertThat(proxy.count("POST", PRODUCE)).isZero();
        api(true).perform(get("/api/messages/settings")).andExpect(jsonPath("$.produceEnabled").value(true));
    }

    @Test
    void searchStartsBoundedReportsProgressWithMatchesAndCancels() throws Exception {
        proxy.on("POST", SEARCHES, 202, "{\"search_id\":\"s1\",\"topic\":\"orders\",\"query\":\"needle\","
            + "\"state\":\"RUNNING\",\"scanned\":0,\"total\":2000,\"matched\":0,\"elapsed_ms\":1,\"error\":null}");
        proxy.on("GET", SEARCHES + "/s1", 200, "{\"search_id\":\"s1\",\"topic\":\"orders\",\"query\":\"needle\","
            + "\"state\":\"RUNNING\",\"scanned\":500,\"total\":2000,\"matched\":1,\"elapsed_ms\":40,\"error\":null}");
        proxy.on("GET", SEARCHES + "/s1/results", 200, "{\"search_id\":\"s1\",\"state\":\"RUNNING\",\"data\":["
            + record(17, b64("k"), b64("a needle here"), "[]") + "],\"next_cursor\":1}");
        proxy.on("DELETE", SEARCHES + "/s1", 204, "");
        MockMvc api = api(true);

        api.perform(post("/api/topics/orders/messages/searches").contentType(MediaType.APPLICATION_JSON)
                .content("{\"query\":\"needle\",\"in\":\"value\"}"))
            .andExpect(status().isAccepted())
            .andExpect(jsonPath("$.id").value("s1"))
            .andExpect(jsonPath("$.running").value(true))
            .andExpect(jsonPath("$.total").value(2000));
        String started = proxy.received().stream().filter(r -> r.method().equals("POST")).findFirst().orElseThrow()
            .body();
        assertThat(started).contains("\"query\":\"needle\"", "\"in\":\"value\"", "\"max_records\":1000000",
            "\"time_budget_ms\":30000", "\"max_matches\":100");

        api.perform(get("/api/topics/orders/messages/searches/s1"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.state").value("RUNNING"))
            .andExpect(jsonPath("$.running").value(true))
            .andExpect(jsonPath("$.scanned").value(500))
            .andExpect(jsonPath("$.total").value(2000))
            .andExpect(jsonPath("$.matched").value(1))
            .andExpect(jsonPath("$.elapsedMs").value(40))
            .andExpect(jsonPath("$.messages[0].offset").value(17))
            .andExpect(jsonPath("$.messages[0].value.text").value("a needle here"));
        assertThat(proxy.queries("GET", SEARCHES + "/s1/results")).singleElement()
            .satisfies(q -> assertThat(q).contains("format=binary", "limit=100"));

        api.perform(delete("/api/topics/orders/messages/searches/s1")).andExpect(status().isNoContent());
        assertThat(proxy.count("DELETE", SEARCHES + "/s1")).isEqualTo(1);

        api.perform(post("/api/topics/orders/messages/searches").contentType(MediaType.APPLICATION_JSON)
            .content("{\"query\":\"\"}")).andExpect(status().isBadRequest());
    }

    @Test
    void proxyErrorsArePassedOnWithStatusAndMessage() throws Exception {
        proxy.on("GET", "/topics/nope/partitions/0/offsets", 404,
            "{\"error_code\":40401,\"message\":\"Topic nope not found.\"}");
        proxy.on("GET", SEARCHES + "/gone", 404, "{\"error_code\":404,\"message\":\"No search gone\"}");
        MockMvc api = api(true);

        api.perform(get("/api/topics/nope/messages"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.errorCode").value(40401))
            .andExpect(jsonPath("$.message").value("Topic nope not found."));
        api.perform(get("/api/topics/orders/messages/searches/gone"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value("No search gone"));
        api.perform(get("/api/topics/nope/messages/stream"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value(Matchers.containsString("404")));
    }

    @Test
    void theLiveTailRelaysEventsWithDecodedRecords() throws Exception {
        proxy.on("GET", "/topics/orders/records/stream", 200, ": streaming orders\n\nid:0:5\nevent:record\ndata:"
            + record(4, b64("k"), b64("{\"n\":1}"), "[]") + "\n\n");

        String body = api(true).perform(get("/api/topics/orders/messages/stream"))
            .andExpect(status().isOk())
            .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);

        assertThat(body).contains("id:0:5\n", "event:record\n", "\"offset\":4", "\"kind\":\"json\"",
            "\"text\":\"{\\n  \\\"n\\\" : 1\\n}\"");
        assertThat(proxy.queries("GET", "/topics/orders/records/stream")).singleElement()
            .satisfies(q -> assertThat(q).contains("from=end", "format=binary"));
    }

    @Test
    void committedOnlyReadsWithReadCommittedEverywhere() throws Exception {
        offsets(0, 10);
        proxy.on("GET", "/topics/orders/partitions/1/offsets", 200, "{\"beginning_offset\":0,\"end_offset\":10}");
        proxy.on("GET", RECORDS, 200, "[" + record(0, "null", b64("a"), "[]") + "]");
        proxy.on("GET", "/topics/orders/partitions/1/records", 200, "[]");
        proxy.on("GET", "/topics/orders/records/stream", 200, ": streaming orders\n\n");
        MockMvc api = api(true);

        api.perform(get("/api/topics/orders/messages").param("committed", "true")).andExpect(status().isOk());
        api.perform(get("/api/topics/orders/messages")).andExpect(status().isOk());
        api.perform(get("/api/topics/orders/messages").param("partitions", "0,1").param("committed", "true"))
            .andExpect(status().isOk());
        api.perform(get("/api/topics/orders/messages/stream").param("committed", "true")).andExpect(status().isOk());

        List<String> reads = proxy.queries("GET", RECORDS);
        assertThat(reads.get(0)).contains("isolation_level=read_committed");
        assertThat(reads.get(1)).doesNotContain("isolation_level");
        assertThat(reads.subList(2, reads.size())).isNotEmpty().allSatisfy(q -> assertThat(q)
            .contains("isolation_level=read_committed"));
        assertThat(proxy.queries("GET", "/topics/orders/partitions/1/records")).isNotEmpty()
            .allSatisfy(q -> assertThat(q).contains("isolation_level=read_committed"));
        assertThat(proxy.queries("GET", "/topics/orders/records/stream")).singleElement()
            .satisfies(q -> assertThat(q).contains("isolation_level=read_committed"));
    }

    private static OpenTails startedTails() {
        OpenTails tails = new OpenTails();
        tails.start();
        return tails;
    }
}
