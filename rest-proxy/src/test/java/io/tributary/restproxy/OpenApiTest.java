package io.tributary.restproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class OpenApiTest extends ProxyTestBase {

    @Test
    void everyEndpointIsDescribedWithASummaryAndTheSwaggerUiIsServed() {
        Response docs = http.get("/v3/api-docs");
        assertThat(docs.status()).isEqualTo(200);
        JsonNode paths = docs.body().get("paths");

        assertThat(paths.propertyNames()).contains("/topics/{topic}", "/topics/{topic}/partitions/{partition}",
            "/consumers/{group}", "/consumers/{group}/instances/{instance}/records",
            "/consumers/{group}/instances/{instance}/offsets", "/topics/{topic}/partitions/{partition}/records",
            "/topics/{topic}/records/stream", "/v3/clusters/{clusterId}/topics/{topic}/records",
            "/v3/clusters/{clusterId}/consumer-groups/{groupId}/offsets:reset",
            "/v3/clusters/{clusterId}/topics/{topic}/searches", "/share-groups/{group}/instances",
            "/share-groups/{group}/instances/{instance}/records",
            "/share-groups/{group}/instances/{instance}/acknowledgements", "/v3/clusters/{clusterId}/share-groups",
            "/v3/clusters/{clusterId}/share-groups/{groupId}", "/v3/clusters/{clusterId}/share-groups/{groupId}/members",
            "/v3/clusters/{clusterId}/share-groups/{groupId}/configs",
            "/v3/clusters/{clusterId}/share-groups/{groupId}/configs/{name}",
            "/v3/clusters/{clusterId}/share-groups/{groupId}/offsets:reset")
            .doesNotContain("/internal/v1/replica", "/internal/v1/share-groups/{group}/instances/{instance}");
        List<String> undescribed = new ArrayList<>();
        for (String path : paths.propertyNames()) {
            for (String method : paths.get(path).propertyNames()) {
                JsonNode operation = paths.get(path).get(method);
                if (operation.path("summary").asString("").isBlank()
                        || !operation.path("responses").path("default").toString().contains("ErrorResponse")) {
                    undescribed.add(method + " " + path);
                }
            }
        }
        assertThat(undescribed).isEmpty();
        assertThat(docs.body().path("components").path("schemas").propertyNames())
            .contains("ProduceRequest", "ProduceResponse", "CreatedInstance", "Topic", "ErrorResponse", "ShareGroup",
                "ShareMember", "ShareGroupConfig");

        Response ui = http.get("/swagger-ui/index.html", "text/html");
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.text()).contains("swagger-ui");
    }
}
