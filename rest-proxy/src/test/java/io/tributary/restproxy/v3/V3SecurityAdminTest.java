package io.tributary.restproxy.v3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.SecuredProxyTestBase;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The v3 ACL (Confluent's shapes), SCRAM user and client quota (Tributary's) endpoints on a broker that
 * authorizes with Kafka's {@code StandardAuthorizer}: the super user manages all three, a user without
 * rights on the cluster is refused each with 403, and passwords are never answered.
 */
class V3SecurityAdminTest extends SecuredProxyTestBase {

    /** A user without rights on the cluster (the name is this test's own: the broker is shared). */
    private static final String CAROL = "security-admin-carol";
    private static final String CAROL_PASSWORD = "carol-pw-Lm08";

    private HttpJson anonymous;
    private HttpJson admin;
    private HttpJson carol;
    private String cluster;

    @BeforeAll
    void clients() {
        broker().createScramUser(CAROL, CAROL_PASSWORD);
        anonymous = anonymous();
        admin = superUser();
        carol = anonymous.as(CAROL, CAROL_PASSWORD);
        cluster = "/v3/clusters/" + admin.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    /** The default client-id quota set here would hold every later client of the shared broker. */
    @AfterAll
    void removeQuotas() {
        admin.post(cluster + "/client-quotas:alter", "application/json", """
            {"entity":[{"entity_type":"client-id","entity_name":null}],"remove":["consumer_byte_rate"]}""");
    }

    @Test
    void aclsAreCreatedListedWithKafkasFilterSemanticsAndDeletedByFilter() {
        Response prefixed = admin.post(cluster + "/acls", "application/json", """
            {"resource_type":"TOPIC","resource_name":"orders-","pattern_type":"PREFIXED","principal":"User:dave",
             "host":"*","operation":"READ","permission":"ALLOW"}""");
        Response batch = admin.post(cluster + "/acls:batch", "application/json", """
            {"data":[{"resource_type":"TOPIC","resource_name":"orders-us","pattern_type":"LITERAL",
                      "principal":"User:dave","operation":"WRITE","permission":"DENY"},
                     {"resource_type":"GROUP","resource_name":"dave-readers","principal":"User:dave",
                      "operation":"READ","permission":"ALLOW"}]}""");
        assertThat(prefixed.status()).as(prefixed.text()).isEqualTo(201);
        assertThat(batch.status()).as(batch.text()).isEqualTo(204);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(names(admin.get(cluster + "/acls?principal=User:dave"), "resource_name"))
                .containsExactly("dave-readers", "orders-", "orders-us"));
        JsonNode first = admin.get(cluster + "/acls?principal=User:dave&resource_type=TOPIC&operation=READ")
            .body().get("data").get(0);
        assertThat(first.get("kind").asString()).isEqualTo("KafkaAcl");
        assertThat(first.get("pattern_type").asString()).isEqualTo("PREFIXED");
        assertThat(first.get("host").asString()).isEqualTo("*");
        assertThat(first.get("permission").asString()).isEqualTo("ALLOW");
        // MATCH: what applies to the topic orders-eu, i.e. the prefix, not the other literal name.
        assertThat(names(admin.get(cluster + "/acls?resource_type=TOPIC&resource_name=orders-eu&pattern_type=MATCH"),
            "resource_name")).containsExactly("orders-");
        assertThat(names(admin.get(cluster + "/acls?resource_type=topic&resource_name=orders-us&pattern_type=match"),
            "resource_name")).containsExactly("orders-", "orders-us");

        Response deleted = admin.delete(cluster + "/acls?resource_type=TOPIC&principal=User:dave");
        assertThat(deleted.status()).as(deleted.text()).isEqualTo(200);
        assertThat(names(deleted, "resource_name")).containsExactly("orders-", "orders-us");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(names(admin.get(cluster + "/acls?principal=User:dave"), "resource_name"))
                .containsExactly("dave-readers"));
    }

    @Test
    void badAclsAndUnfilteredDeletesAreRefusedBeforeTheBrokers() {
        Response any = admin.post(cluster + "/acls", "application/json", """
            {"resource_type":"TOPIC","resource_name":"x","principal":"User:dave","operation":"ANY","permission":"ALLOW"}""");
        Response noPrincipalType = admin.post(cluster + "/acls", "application/json", """
            {"resource_type":"TOPIC","resource_name":"x","principal":"dave","operation":"READ","permission":"ALLOW"}""");
        Response unknownType = admin.get(cluster + "/acls?resource_type=TABLE");
        Response unfiltered = admin.delete(cluster + "/acls");

        assertThat(any.status()).isEqualTo(400);
        assertThat(noPrincipalType.status()).isEqualTo(400);
        assertThat(unknownType.status()).isEqualTo(400);
        assertThat(unfiltered.status()).isEqualTo(400);
    }

    @Test
    void aUserWithoutRightsOnTheClusterIsRefusedEachPage() {
        for (String path : List.of("/acls", "/scram-users", "/client-quotas")) {
            Response refused = carol.get(cluster + path);
            assertThat(refused.status()).as(path + ": " + refused.text()).isEqualTo(403);
            assertThat(refused.errorCode()).isEqualTo(40301);
        }
        Response create = carol.post(cluster + "/acls", "application/json", """
            {"resource_type":"CLUSTER","principal":"User:security-admin-carol","operation":"ALL","permission":"ALLOW"}""");
        assertThat(create.status()).isEqualTo(403);
        Response password = put(carol, cluster + "/scram-users/mallory/credentials/SCRAM-SHA-512",
            "{\"password\":\"mallory-pw-1\"}");
        assertThat(password.status()).isEqualTo(403);
    }

    @Test
    void aScramUserIsCreatedListedWithoutItsPasswordSignsInAndIsDeleted() {
        String secret = "erin-pw-Xc81";
        Response created = put(admin, cluster + "/scram-users/erin/credentials/SCRAM-SHA-512",
            "{\"password\":\"" + secret + "\",\"iterations\":8192}");
        Response second = put(admin, cluster + "/scram-users/erin/credentials/scram-sha-256",
            "{\"password\":\"" + secret + "\"}");
        assertThat(created.status()).as(created.text()).isEqualTo(204);
        assertThat(second.status()).as(second.text()).isEqualTo(204);

        Response list = admin.get(cluster + "/scram-users");
        assertThat(list.text()).doesNotContain(secret);
        JsonNode erin = list.body().get("data").valueStream()
            .filter(u -> u.get("user_name").asString().equals("erin")).findFirst().orElseThrow();
        assertThat(erin.get("credentials").valueStream().map(c -> c.get("mechanism").asString() + "/"
            + c.get("iterations").asInt())).containsExactly("SCRAM-SHA-256/4096", "SCRAM-SHA-512/8192");
        HttpJson asErin = anonymous.as("erin", secret);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(asErin.get("/v3/clusters").status()).isEqualTo(200));

        assertThat(put(admin, cluster + "/scram-users/erin/credentials/SCRAM-SHA-512",
            "{\"password\":\"x\",\"iterations\":100}").status()).as("below Kafka's minimum").isEqualTo(400);
        assertThat(admin.delete(cluster + "/scram-users/erin").status()).isEqualTo(204);
        assertThat(admin.get(cluster + "/scram-users/erin").status()).isEqualTo(404);
        assertThat(admin.delete(cluster + "/scram-users/erin").status()).isEqualTo(404);
    }

    @Test
    void clientQuotasAreSetListedAndRemoved() {
        Response set = admin.post(cluster + "/client-quotas:alter", "application/json", """
            {"entity":[{"entity_type":"user","entity_name":"frank"}],
             "set":{"producer_byte_rate":1048576,"request_percentage":50}}""");
        Response defaults = admin.post(cluster + "/client-quotas:alter", "application/json", """
            {"entity":[{"entity_type":"client-id","entity_name":null}],"set":{"consumer_byte_rate":2048}}""");
        assertThat(set.status()).as(set.text()).isEqualTo(204);
        assertThat(defaults.status()).as(defaults.text()).isEqualTo(204);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode frank = admin.get(cluster + "/client-quotas?user=frank").body().get("data").get(0);
            assertThat(frank.get("entity").get(0).get("entity_name").asString()).isEqualTo("frank");
            assertThat(frank.get("values").get("producer_byte_rate").asDouble()).isEqualTo(1048576.0);
            assertThat(frank.get("values").get("request_percentage").asDouble()).isEqualTo(50.0);
        });
        JsonNode all = admin.get(cluster + "/client-quotas").body().get("data");
        assertThat(all.valueStream().filter(q -> q.get("entity").get(0).get("entity_type").asString().equals("client-id")
            && q.get("entity").get(0).get("entity_name").isNull())
            .map(q -> q.get("values").get("consumer_byte_rate").asDouble())).containsExactly(2048.0);

        Response removed = admin.post(cluster + "/client-quotas:alter", "application/json", """
            {"entity":[{"entity_type":"user","entity_name":"frank"}],
             "remove":["producer_byte_rate","request_percentage"]}""");
        assertThat(removed.status()).as(removed.text()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(admin.get(cluster + "/client-quotas?user=frank").body().get("data").isEmpty()).isTrue());
        assertThat(admin.post(cluster + "/client-quotas:alter", "application/json",
            "{\"entity\":[{\"entity_type\":\"group\",\"entity_name\":\"x\"}],\"set\":{\"a\":1}}").status())
            .isEqualTo(400);
    }

    private static List<String> names(Response response, String field) {
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        return response.body().get("data").valueStream().map(a -> a.get(field).asString()).sorted().toList();
    }

    private static Response put(HttpJson http, String path, String body) {
        return http.send(http.request(path).header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
