package io.tributary.adminui.messages;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
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
 * {@code /api/topics/{name}/messages/filtered} and {@code .../export} against a stub REST proxy whose
 * partition 0 holds six JSON records {@code {"n": i}}, header {@code parity} even or odd.
 */
class FilteredMessagesApiTest {

    private static final String RECORDS = "/topics/orders/partitions/0/records";
    private static final String OFFSETS = "/topics/orders/partitions/0/offsets";
    private static final String FILTERED = "/api/topics/orders/messages/filtered";

    private StubRestProxy proxy;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            records.add("{\"topic\":\"orders\",\"key\":" + b64("k" + i) + ",\"value\":" + b64("{\"n\":" + i + "}")
                + ",\"partition\":0,\"offset\":" + i + ",\"timestamp\":" + (1_700_000_000_000L + i)
                + ",\"headers\":[{\"name\":\"parity\",\"value\":" + b64(i % 2 == 0 ? "even" : "odd") + "}]}");
        }
        proxy.on("GET", RECORDS, 200, "[" + String.join(",", records) + "]");
        offsets(0, 6);
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private void offsets(long beginning, long end) {
        proxy.on("GET", OFFSETS, 200, "{\"beginning_offset\":" + beginning + ",\"end_offset\":" + end + "}");
    }

    private static String b64(String text) {
        return "\"" + Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "\"";
    }

    private MockMvc api(Clock clock) {
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        RestProxyClient client = new RestProxyConfiguration().restProxyClient(properties,
            RestProxyLocator.fixed(proxy.url()));
        MessagesProxyClient records = new MessagesProxyClient(properties, RestProxyLocator.fixed(proxy.url()));
        return MockMvcBuilders.standaloneSetup(new FilteredMessagesController(client, records, clock))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    /** A clock that moves {@code stepMs} every time it is read. */
    private static Clock ticking(long stepMs) {
        return new Clock() {
            private long now;

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                now += stepMs;
                return Instant.ofEpochMilli(now);
            }
        };
    }

    @Test
    void showsOnlyMatchingRecordsAndSaysWhatWasScanned() throws Exception {
        api(ticking(1)).perform(get(FILTERED).param("partitions", "0").param("from", "oldest")
                .param("filter", "@.value.n > 1 && @.headers.parity == 'odd'"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.messages[*].offset").value(Matchers.contains(3, 5)))
            .andExpect(jsonPath("$.messages[0].value.kind").value("json"))
            .andExpect(jsonPath("$.scanned").value(6))
            .andExpect(jsonPath("$.matched").value(2))
            .andExpect(jsonPath("$.stoppedBy").value("end"))
            .andExpect(jsonPath("$.maxRecords").value(FilteredMessagesController.MAX_RECORDS))
            .andExpect(jsonPath("$.previousCursor").doesNotExist())
            .andExpect(jsonPath("$.nextCursor").doesNotExist());
    }

    @Test
    void keyAndValueTextFilterTooAndAFullPageStopsTheScanWhereItCanGoOn() throws Exception {
        MockMvc api = api(ticking(1));
        api.perform(get(FILTERED).param("partitions", "0").param("valueContains", "\"N\":4"))
            .andExpect(jsonPath("$.messages[*].offset").value(Matchers.contains(4)));
        api.perform(get(FILTERED).param("partitions", "0").param("keyContains", "k").param("count", "2"))
            .andExpect(jsonPath("$.messages[*].offset").value(Matchers.contains(0, 1)))
            .andExpect(jsonPath("$.scanned").value(2))
            .andExpect(jsonPath("$.stoppedBy").value("matches"))
            .andExpect(jsonPath("$.nextCursor").value("0:2"));
        // From the newest, backward: the newest match first found, the scan goes on before it.
        api.perform(get(FILTERED).param("partitions", "0").param("from", "newest")
                .param("filter", "@.headers.parity == 'even'").param("count", "2"))
            .andExpect(jsonPath("$.messages[*].offset").value(Matchers.contains(2, 4)))
            .andExpect(jsonPath("$.scanned").value(4))
            .andExpect(jsonPath("$.previousCursor").value("0:2"))
            .andExpect(jsonPath("$.nextCursor").doesNotExist());
    }

    @Test
    void theScanStopsAtItsRecordAndTimeBounds() throws Exception {
        api(ticking(1)).perform(get(FILTERED).param("partitions", "0").param("filter", "@.value.n == 5")
                .param("maxRecords", "2"))
            .andExpect(jsonPath("$.messages.length()").value(0))
            .andExpect(jsonPath("$.scanned").value(2))
            .andExpect(jsonPath("$.stoppedBy").value("records"))
            .andExpect(jsonPath("$.nextCursor").value("0:2"));
        // 250 records, the stub holds the first 6: after the first read the clock has passed the budget.
        offsets(0, 250);
        api(ticking(FilteredMessagesController.TIME_BUDGET_MS)).perform(get(FILTERED).param("partitions", "0")
                .param("filter", "@.value.n == 99"))
            .andExpect(jsonPath("$.scanned").value(6))
            .andExpect(jsonPath("$.stoppedBy").value("time"))
            .andExpect(jsonPath("$.nextCursor").value("0:6"));
    }

    @Test
    void aMalformedExpressionIsA400NamingTheField() throws Exception {
        api(ticking(1)).perform(get(FILTERED).param("partitions", "0").param("filter", "@.value.n >"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.status").value(400))
            .andExpect(jsonPath("$.field").value("filter"))
            .andExpect(jsonPath("$.message").value(Matchers.startsWith("The filter expression does not parse: ")));
        api(ticking(1)).perform(get(FILTERED).param("partitions", "0").param("maxRecords", "0"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.field").doesNotExist());
    }

    @Test
    void exportsTheGivenRowsAsAFile() throws Exception {
        String rows = "{\"messages\":[{\"partition\":0,\"offset\":3,\"timestamp\":5,\"key\":{\"kind\":\"text\","
            + "\"text\":\"k,3\",\"bytes\":3},\"value\":{\"kind\":\"text\",\"text\":\"say \\\"hi\\\"\",\"bytes\":8},"
            + "\"headers\":[]}]}";
        MockMvc api = api(ticking(1));
        api.perform(post("/api/topics/orders/messages/export").param("format", "csv")
                .contentType(MediaType.APPLICATION_JSON).content(rows))
            .andExpect(status().isOk())
            .andExpect(header().string("Content-Disposition", "attachment; filename=\"orders-messages.csv\""))
            .andExpect(content().contentTypeCompatibleWith("text/csv"))
            .andExpect(content().string("topic,partition,offset,timestamp,key,value,headers\r\n"
                + "orders,0,3,5,\"k,3\",\"say \"\"hi\"\"\",[]\r\n"));
        api.perform(post("/api/topics/orders/messages/export").param("format", "jsonl")
                .contentType(MediaType.APPLICATION_JSON).content(rows))
            .andExpect(status().isOk())
            .andExpect(content().string("{\"topic\":\"orders\",\"partition\":0,\"offset\":3,\"timestamp\":5,"
                + "\"key\":\"k,3\",\"value\":\"say \\\"hi\\\"\",\"headers\":[]}\n"));
        api.perform(post("/api/topics/orders/messages/export").param("format", "xml")
                .contentType(MediaType.APPLICATION_JSON).content(rows))
            .andExpect(status().isBadRequest());
    }
}
