package io.tributary.restproxy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import tools.jackson.databind.JsonNode;

/** A share consumer instance of the REST proxy's queue API ({@code /share-groups/{group}/instances}), for tests. */
public final class RestShareConsumer {

    public static final String JSON = "application/vnd.kafka.json.v2+json";

    private final HttpJson http;
    private final String group;
    private final String id;

    private RestShareConsumer(HttpJson http, String group, String id) {
        this.http = http;
        this.group = group;
        this.id = id;
    }

    /** Creates an instance with the JSON body {@code body}; fails the test unless created. */
    public static RestShareConsumer create(HttpJson http, String group, String body) {
        Response created = http.post("/share-groups/" + group + "/instances", "application/json", body);
        assertThat(created.status()).as(created.text()).isEqualTo(200);
        return new RestShareConsumer(http, group, created.body().get("instance_id").asString());
    }

    /** Sets {@code share.auto.offset.reset=earliest} and any further group configs of share group {@code group}. */
    public static void configureGroup(BrokerFixture broker, String group, Map<String, String> configs) {
        List<AlterConfigOp> ops = new ArrayList<>();
        ops.add(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET));
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        try (Admin admin = broker.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all()
                .get();
        } catch (Exception e) {
            throw new IllegalStateException("Could not configure share group " + group, e);
        }
    }

    /** The same instance, addressed through another proxy replica. */
    public RestShareConsumer via(HttpJson other) {
        return new RestShareConsumer(other, group, id);
    }

    public String instanceId() {
        return id;
    }

    public String path() {
        return "/share-groups/" + group + "/instances/" + id;
    }

    public Response subscribe(String... topics) {
        return http.post(path() + "/subscription", "application/json", Map.of("topics", List.of(topics)));
    }

    public Response records(long timeoutMs) {
        return http.get(path() + "/records?timeout=" + timeoutMs, JSON);
    }

    /** The records of one read (waiting up to {@code timeoutMs}); fails the test on an error answer. */
    public List<JsonNode> read(long timeoutMs) {
        Response response = records(timeoutMs);
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        List<JsonNode> records = new ArrayList<>();
        response.body().forEach(records::add);
        return records;
    }

    /** Acknowledges each record with {@code type}. */
    public Response acknowledge(List<JsonNode> records, String type) {
        List<Map<String, Object>> acks = new ArrayList<>();
        for (JsonNode record : records) {
            acks.add(Map.of("topic", record.get("topic").asString(), "partition", record.get("partition").asInt(),
                "offset", record.get("offset").asLong(), "type", type));
        }
        return acknowledge(Map.of("acknowledgements", acks));
    }

    public Response acknowledge(Object body) {
        return http.post(path() + "/acknowledgements", "application/json", body);
    }

    public Response delete() {
        return http.delete(path());
    }
}
