package io.tributary.adminui.brokers;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
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

/**
 * {@code /api/brokers} against a stub REST proxy: partitions led, replicas and under-replicated ones per
 * broker, log dir sizes (or why not), a broker's page, config changes per broker and cluster-wide, and
 * the proxy's refusals passed on.
 */
class BrokersApiTest {

    private static final String V3 = "/v3/clusters/" + CLUSTER;

    private StubRestProxy proxy;
    private MockMvc mvc;

    @BeforeEach
    void start() throws IOException {
        proxy = new StubRestProxy().on("GET", "/v3/clusters", 200, ProxyJson.clusters(1))
            .on("GET", V3 + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(0, null),
                ProxyJson.broker(1, "r1"))));
        RestProxyProperties properties = RestProxyProperties.of(proxy.url(), Duration.ofSeconds(2),
            Duration.ofSeconds(15));
        mvc = MockMvcBuilders.standaloneSetup(new BrokersController(
                new RestProxyConfiguration().restProxyClient(properties, RestProxyLocator.fixed(proxy.url())),
                new BrokersProxyClient(properties, RestProxyLocator.fixed(proxy.url()))))
            .setControllerAdvice(new ApiExceptionHandler()).build();
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    private static String replica(String topic, int partition, int broker, int leader, String replicas, String isr) {
        return "{\"kind\":\"KafkaReplica\",\"topic_name\":\"" + topic + "\",\"partition_id\":" + partition
            + ",\"broker_id\":" + broker + ",\"is_leader\":" + (broker == leader) + ",\"is_in_sync\":"
            + isr.contains(String.valueOf(broker)) + ",\"leader_id\":" + leader + ",\"replica_ids\":" + replicas
            + ",\"isr_ids\":" + isr + "}";
    }

    private static String dir(String path, long size, String error) {
        return "{\"kind\":\"KafkaLogDir\",\"log_dir\":\"" + path + "\",\"error\":" + (error == null ? "null"
            : "\"" + error + "\"") + ",\"size_bytes\":" + size + ",\"replicas\":[{},{}]}";
    }

    @Test
    void eachBrokerWithPartitionsLedReplicasUnderReplicatedAndLogDirSize() throws Exception {
        proxy.on("GET", V3 + "/brokers/0/partition-replicas", 200, ProxyJson.list(List.of(
            replica("orders", 0, 0, 0, "[0,1]", "[0]"), replica("orders", 1, 0, 1, "[1,0]", "[1,0]"))));
        proxy.on("GET", V3 + "/brokers/1/partition-replicas", 200, ProxyJson.list(List.of(
            replica("orders", 0, 1, 0, "[0,1]", "[0]"), replica("orders", 1, 1, 1, "[1,0]", "[1,0]"))));
        proxy.on("GET", V3 + "/brokers/0/log-dirs", 200, ProxyJson.list(List.of(dir("/a", 100, null),
            dir("/b", 50, "KafkaStorageException: disk gone"))));
        proxy.on("GET", V3 + "/brokers/1/log-dirs", 403, "{\"error_code\":40301,\"message\":\"Cluster authorization failed.\"}");

        mvc.perform(get("/api/brokers")).andExpect(status().isOk())
            .andExpect(jsonPath("$.controllerId").value(1))
            .andExpect(jsonPath("$.brokers[0].id").value(0))
            .andExpect(jsonPath("$.brokers[0].controller").value(false))
            .andExpect(jsonPath("$.brokers[0].leaderPartitions").value(1))
            .andExpect(jsonPath("$.brokers[0].replicas").value(2))
            .andExpect(jsonPath("$.brokers[0].underReplicated").value(1))
            .andExpect(jsonPath("$.brokers[0].logDirBytes").value(150))
            .andExpect(jsonPath("$.brokers[0].logDirErrors").value(1))
            .andExpect(jsonPath("$.brokers[1].controller").value(true))
            .andExpect(jsonPath("$.brokers[1].rack").value("r1"))
            .andExpect(jsonPath("$.brokers[1].underReplicated").value(0))
            .andExpect(jsonPath("$.brokers[1].logDirBytes").doesNotExist())
            .andExpect(jsonPath("$.brokers[1].logDirProblem").value("Cluster authorization failed."));
    }

    @Test
    void aBrokersPageAndConfigChangesGoToTheBrokerOrEveryBroker() throws Exception {
        proxy.on("GET", V3 + "/brokers/0/partition-replicas", 200, ProxyJson.list(List.of(
            replica("orders", 0, 0, 1, "[1,0]", "[1]"))));
        proxy.on("GET", V3 + "/brokers/0/log-dirs", 200, ProxyJson.list(List.of(dir("/a", 100, null))));
        proxy.on("GET", V3 + "/brokers/0/configs", 200, ProxyJson.list(List.of(
            "{\"name\":\"log.retention.bytes\",\"value\":\"5\",\"is_default\":false,\"is_read_only\":false,"
                + "\"is_sensitive\":false,\"source\":\"DYNAMIC_BROKER_CONFIG\",\"synonyms\":[{\"name\":"
                + "\"log.retention.bytes\",\"value\":\"5\",\"source\":\"DYNAMIC_BROKER_CONFIG\"},{\"name\":"
                + "\"log.retention.bytes\",\"value\":\"-1\",\"source\":\"DEFAULT_CONFIG\"}]}")));
        proxy.on("GET", V3 + "/broker-configs", 200, ProxyJson.list(List.of()));
        mvc.perform(get("/api/brokers/0")).andExpect(status().isOk())
            .andExpect(jsonPath("$.broker.replicas").value(1))
            .andExpect(jsonPath("$.configs[0].source").value("DYNAMIC_BROKER_CONFIG"))
            .andExpect(jsonPath("$.configs[0].synonyms[1].source").value("DEFAULT_CONFIG"))
            .andExpect(jsonPath("$.logDirs[0].replicas").value(2))
            .andExpect(jsonPath("$.partitions[0].isLeader").value(false))
            .andExpect(jsonPath("$.partitions[0].inSync").value(false))
            .andExpect(jsonPath("$.partitions[0].underReplicated").value(true));
        mvc.perform(get("/api/brokers/9")).andExpect(status().isNotFound());

        proxy.on("POST", V3 + "/brokers/0/configs:alter", 204, "");
        proxy.on("POST", V3 + "/broker-configs:alter", 400, "{\"error_code\":400,\"message\":\"not dynamic\"}");
        mvc.perform(put("/api/brokers/0/configs").contentType(MediaType.APPLICATION_JSON)
            .content("{\"set\":{\"log.retention.bytes\":\"7\"},\"reset\":[\"log.retention.ms\"]}"))
            .andExpect(status().isNoContent());
        assertThat(proxy.received()).filteredOn(r -> r.path().equals(V3 + "/brokers/0/configs:alter")).singleElement()
            .satisfies(r -> assertThat(r.body()).contains("\"name\":\"log.retention.bytes\"", "\"value\":\"7\"",
                "\"operation\":\"SET\"", "\"name\":\"log.retention.ms\"", "\"operation\":\"DELETE\""));
        mvc.perform(put("/api/broker-defaults/configs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"set\":{\"broker.id\":\"3\"}}"))
            .andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").value("not dynamic"));
    }
}
