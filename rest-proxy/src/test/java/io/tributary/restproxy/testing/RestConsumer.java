package io.tributary.restproxy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** A consumer instance driven over HTTP, as a client of the v2 API would. */
public final class RestConsumer {

    public static final String V2 = "application/vnd.kafka.v2+json";

    private final HttpJson http;
    private final String baseUri;
    private final String instanceId;

    private RestConsumer(HttpJson http, String baseUri, String instanceId) {
        this.http = http;
        this.baseUri = baseUri;
        this.instanceId = instanceId;
    }

    /** Creates an instance in {@code group} with the given create body (JSON), asserting success. */
    public static RestConsumer create(HttpJson http, String group, String body) {
        Response response = http.post("/consumers/" + group, V2, body);
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        return new RestConsumer(http, response.body().get("base_uri").asString(),
            response.body().get("instance_id").asString());
    }

    /** The same instance reached through another proxy (its path, that proxy's address). */
    public RestConsumer via(HttpJson other) {
        String path = baseUri.substring(baseUri.indexOf("/consumers/"));
        return new RestConsumer(other, other.baseUrl() + path, instanceId);
    }

    public HttpJson http() {
        return http;
    }

    public String instanceId() {
        return instanceId;
    }

    public String baseUri() {
        return baseUri;
    }

    public Response subscribe(String... topics) {
        return http.post(baseUri + "/subscription", V2, "{\"topics\":" + HttpJson.mapper().writeValueAsString(topics) + "}");
    }

    public Response post(String path, String body) {
        return http.post(baseUri + path, V2, body);
    }

    public Response records(long timeoutMs, String accept) {
        return http.get(baseUri + "/records?timeout=" + timeoutMs, accept);
    }

    /** Reads until {@code count} records arrived or {@code attempts} GETs were made. */
    public List<JsonNode> readAtLeast(int count, String accept, int attempts) {
        List<JsonNode> records = new ArrayList<>();
        for (int i = 0; i < attempts && records.size() < count; i++) {
            Response response = records(2000, accept);
            assertThat(response.status()).as(response.text()).isEqualTo(200);
            response.body().forEach(records::add);
        }
        return records;
    }

    public Response commitAll() {
        return http.post(baseUri + "/offsets", V2, "");
    }

    public Response committed(String body) {
        return http.send(HttpRequest.newBuilder(http.uri(baseUri + "/offsets")).header("Content-Type", V2)
            .method("GET", HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Response delete() {
        return http.delete(baseUri);
    }
}
