package io.tributary.restproxy.atomic;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.AtomicBodies;
import io.tributary.restproxy.testing.BrokerFixture.StoredRecord;
import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v3/clusters/{id}/topics/{topic}/records:atomic}: a request's records, across
 * partitions, are committed in one transaction or aborted together, as read_committed consumers
 * of the real broker see them; an {@code Idempotency-Key} makes a retry answer, not write.
 */
class AtomicProduceTest extends ProxyTestBase {

    private String cluster;

    @BeforeEach
    void cluster() {
        cluster = http.get("/v3/clusters").body().get("data").get(0).get("cluster_id").asString();
    }

    private static List<String> values(List<StoredRecord> records) {
        return records.stream().map(StoredRecord::value).toList();
    }

    @Test
    void recordsAcrossPartitionsAreCommittedTogether() {
        broker().createTopic("atomic-commit", 3);
        List<String> values = List.of("a0", "a1", "a2", "b0", "b1", "b2");
        Response response = AtomicBodies.post(http, cluster, "atomic-commit", null, AtomicBodies.entries(values, List.of(0, 1, 2, 0, 1, 2)));

        assertThat(response.status()).as(response.text()).isEqualTo(200);
        assertThat(response.body().get("outcome").asString()).isEqualTo("COMMITTED");
        assertThat(response.body().get("transactional_id").asString()).startsWith("tributary-rest-");
        assertThat(response.header("Idempotent-Replayed")).isNull();
        JsonNode successes = response.body().get("successes");
        assertThat(successes).hasSize(6);
        List<StoredRecord> committed = broker().records("atomic-commit", true);
        assertThat(values(committed)).containsExactlyInAnyOrderElementsOf(values);
        for (int i = 0; i < 6; i++) {
            JsonNode answer = successes.get(i);
            assertThat(answer.get("id").asString()).isEqualTo(Integer.toString(i + 1));
            assertThat(answer.get("partition_id").asInt()).isEqualTo(i % 3);
            assertThat(committed).contains(new StoredRecord(i % 3, answer.get("offset").asLong(), values.get(i)));
        }
    }

    @Test
    void oneFailedRecordAbortsTheWholeTransaction() {
        broker().createTopic("atomic-abort", 2, Map.of("max.message.bytes", "1000"));
        String big = "x".repeat(2_000);
        Response response = AtomicBodies.post(http, cluster, "atomic-abort", null,
            AtomicBodies.entries(List.of("small-1", "small-2", big), List.of(0, 0, 1)));

        assertThat(response.status()).as(response.text()).isGreaterThanOrEqualTo(400);
        assertThat(response.body().get("outcome").asString()).isEqualTo("ABORTED");
        assertThat(response.body().get("failures").get(0).get("id").asString()).isEqualTo("3");
        assertThat(response.body().get("message").asString()).contains("record 3 failed");
        // The small records were written to partition 0, then aborted: only read_uncommitted sees them.
        assertThat(broker().records("atomic-abort", true)).isEmpty();
        assertThat(values(broker().records("atomic-abort", false))).containsExactly("small-1", "small-2");

        Response next = AtomicBodies.post(http, cluster, "atomic-abort", null, AtomicBodies.entries(List.of("after"), List.of(0)));
        assertThat(next.status()).as(next.text()).isEqualTo(200);
        assertThat(values(broker().records("atomic-abort", true))).containsExactly("after");
    }

    @Test
    void aRetryWithTheSameKeyIsAnsweredFromTheFirstAndWritesNothing() {
        broker().createTopic("atomic-retry", 2);
        String body = AtomicBodies.entries(List.of("once-1", "once-2"), java.util.Arrays.asList(null, null));
        Response first = AtomicBodies.post(http, cluster, "atomic-retry", "order-1", body);
        Response retry = AtomicBodies.post(http, cluster, "atomic-retry", "order-1", body);
        Response other = AtomicBodies.post(http, cluster, "atomic-retry", "order-2", body);

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(retry.status()).as(retry.text()).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(AtomicBodies.offsets(retry)).isEqualTo(AtomicBodies.offsets(first));
        assertThat(other.header("Idempotent-Replayed")).isNull();
        assertThat(AtomicBodies.offsets(other)).doesNotContainAnyElementsOf(AtomicBodies.offsets(first));
        assertThat(values(broker().records("atomic-retry", true)))
            .containsExactlyInAnyOrder("once-1", "once-2", "once-1", "once-2");
    }

    @Test
    void aKeyReusedForAnotherRequestIsRefused() {
        broker().createTopic("atomic-reuse", 1);
        assertThat(AtomicBodies.post(http, cluster, "atomic-reuse", "reused", AtomicBodies.entries(List.of("first"), List.of(0))).status())
            .isEqualTo(200);

        Response reused = AtomicBodies.post(http, cluster, "atomic-reuse", "reused", AtomicBodies.entries(List.of("second"), List.of(0)));
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.text()).contains("already used");
        assertThat(values(broker().records("atomic-reuse", true))).containsExactly("first");
    }

    @Test
    void aMalformedEntryOrKeyWritesNothing() {
        broker().createTopic("atomic-malformed", 2);
        Response badType = AtomicBodies.post(http, cluster, "atomic-malformed", null, "{\"entries\":[{\"id\":\"a\",\"value\":"
            + "{\"type\":\"STRING\",\"data\":\"fine\"}},{\"id\":\"b\",\"value\":{\"type\":\"NOPE\",\"data\":1}}]}");
        Response badPartition = AtomicBodies.post(http, cluster, "atomic-malformed", null, AtomicBodies.entries(List.of("x", "y"), List.of(0, 7)));
        Response badKey = AtomicBodies.post(http, cluster, "atomic-malformed", "has space", AtomicBodies.entries(List.of("z"), List.of(0)));
        Response noTopic = AtomicBodies.post(http, cluster, "atomic-missing", null, AtomicBodies.entries(List.of("z"), List.of(0)));

        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.text()).contains("Entry b");
        assertThat(badPartition.errorCode()).isEqualTo(40402);
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(noTopic.errorCode()).isEqualTo(40401);
        assertThat(broker().records("atomic-malformed", false)).isEmpty();
    }
}
