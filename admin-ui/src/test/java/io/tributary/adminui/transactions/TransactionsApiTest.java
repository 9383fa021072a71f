package io.tributary.adminui.transactions;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** {@code /api/transactions} against a stub REST proxy: order, the hanging flag and count, abort, errors. */
class TransactionsApiTest {

    private static final String V3 = "/v3/clusters/" + CLUSTER;

    private StubRestProxy proxy;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(0));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        mvc = MockMvcBuilders.standaloneSetup(new TransactionsController(
                new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())),
                new TransactionsProxyClient(properties, RestProxyLocator.fixed(proxy.url()))))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private static String transaction(String id, String state, Long ageMs, String partitions) {
        return "{\"kind\":\"KafkaTransaction\",\"transactional_id\":\"" + id + "\",\"producer_id\":" + id.length()
            + ",\"producer_epoch\":2,\"state\":\"" + state + "\",\"coordinator_id\":0,\"transaction_timeout_ms\":60000,"
            + "\"age_ms\":" + ageMs + ",\"partitions\":[" + partitions + "]}";
    }

    private static String open(String topic, int partition, long producerId, String owner) {
        return "{\"topic_name\":\"" + topic + "\",\"partition_id\":" + partition + ",\"producer_id\":" + producerId
            + ",\"producer_epoch\":0,\"coordinator_epoch\":0,\"start_offset\":40,\"last_timestamp\":\"2026-12-01T00:00:00Z\","
            + "\"age_ms\":90000,\"transactional_id\":" + (owner == null ? "null" : "\"" + owner + "\"")
            + ",\"hanging\":" + (owner == null) + "}";
    }

    @Test
    void ongoingTransactionsComeFirstAndHangingOnesAreCounted() throws Exception {
        proxy.on("GET", V3 + "/transactions", 200, "{\"kind\":\"KafkaTransactionList\",\"data\":["
            + transaction("done-long-ago", "CompleteCommit", null, "") + ","
            + transaction("young", "Ongoing", 1_000L, "{\"topic_name\":\"orders\",\"partition_id\":1},"
                + "{\"topic_name\":\"orders\",\"partition_id\":0}") + ","
            + transaction("older", "PrepareCommit", 5_000L, "") + "]}");
        proxy.on("GET", V3 + "/open-transactions", 200, "{\"kind\":\"KafkaOpenTransactionList\",\"data\":["
            + open("orders", 0, 5, "young") + "," + open("payments", 3, 99, null) + "]}");

        mvc.perform(get("/api/transactions")).andExpect(status().isOk())
            .andExpect(jsonPath("$.transactions[0].id").value("young"))
            .andExpect(jsonPath("$.transactions[0].partitions[0]").value("orders-1"))
            .andExpect(jsonPath("$.transactions[0].ageMs").value(1000))
            .andExpect(jsonPath("$.transactions[1].id").value("older"))
            .andExpect(jsonPath("$.transactions[2].id").value("done-long-ago"))
            .andExpect(jsonPath("$.transactions[2].ageMs").doesNotExist())
            .andExpect(jsonPath("$.open[0].topic").value("payments"))
            .andExpect(jsonPath("$.open[0].hanging").value(true))
            .andExpect(jsonPath("$.open[0].transactionalId").doesNotExist())
            .andExpect(jsonPath("$.open[1].transactionalId").value("young"))
            .andExpect(jsonPath("$.hanging").value(1));
    }

    @Test
    void anAbortNamesThePartitionAndProducerToTheProxy() throws Exception {
        String path = V3 + "/topics/payments/partitions/3/transactions:abort";
        proxy.on("POST", path, 204, "");

        mvc.perform(post("/api/transactions/abort").contentType(MediaType.APPLICATION_JSON)
            .content("{\"topic\":\"payments\",\"partition\":3,\"startOffset\":40,\"producerId\":99}"))
            .andExpect(status().isNoContent());

        assertThat(proxy.received()).filteredOn(r -> r.path().equals(path)).singleElement()
            .satisfies(r -> assertThat(r.body()).contains("\"start_offset\":40", "\"producer_id\":99"));
    }

    @Test
    void aBadAbortIsRefusedAndTheProxysRefusalPassedOn() throws Exception {
        mvc.perform(post("/api/transactions/abort").contentType(MediaType.APPLICATION_JSON)
            .content("{\"topic\":\"payments\",\"partition\":0,\"producerId\":7}")).andExpect(status().isBadRequest());
        proxy.on("POST", V3 + "/topics/payments/partitions/0/transactions:abort", 404,
            "{\"error_code\":404,\"message\":\"Partition payments-0 has no open transaction of producer 7\"}");
        mvc.perform(post("/api/transactions/abort").contentType(MediaType.APPLICATION_JSON)
                .content("{\"topic\":\"payments\",\"partition\":0,\"startOffset\":3,\"producerId\":7}"))
            .andExpect(status().isNotFound())
            .andExpect(jsonPath("$.message").value("Partition payments-0 has no open transaction of producer 7"));
        proxy.on("GET", V3 + "/transactions", 403, "{\"error_code\":40301,\"message\":\"Not authorized\"}");
        mvc.perform(get("/api/transactions")).andExpect(status().isForbidden());
        assertThat(proxy.count("POST", V3 + "/topics/payments/partitions/0/transactions:abort")).isEqualTo(1);
    }
}
