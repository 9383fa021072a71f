package io.tributary.restproxy.simple;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class PartitionRecordsTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";

    @Test
    void readsFromAnOffsetWithoutAConsumerInstance() {
        broker().createTopic("simple-read", 2);
        http.post("/topics/simple-read/partitions/1", JSON,
            "{\"records\":[{\"key\":\"a\",\"value\":0,\"headers\":{\"h\":\"x\"}},{\"value\":1},{\"value\":2},"
                + "{\"value\":3}]}");

        Response response = http.get("/topics/simple-read/partitions/1/records?offset=1&count=2", JSON);
        Response first = http.get("/topics/simple-read/partitions/1/records?offset=0&count=1&format=json");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith(JSON);
        assertThat(response.body()).hasSize(2);
        assertThat(response.body().get(0).get("offset").asLong()).isEqualTo(1);
        assertThat(response.body().get(1).get("value").asInt()).isEqualTo(2);
        JsonNode record = first.body().get(0);
        assertThat(record.get("key").asString()).isEqualTo("a");
        assertThat(record.get("timestamp").asLong()).isPositive();
        assertThat(record.get("headers").get(0).get("name").asString()).isEqualTo("h");
        assertThat(record.get("headers").get(0).get("value").asString()).isEqualTo("x");
    }

    @Test
    void readsFromATimestamp() throws Exception {
        broker().createTopic("simple-time", 1);
        http.post("/topics/simple-time", JSON, "{\"records\":[{\"value\":\"old\"}]}");
        long between = http.get("/topics/simple-time/partitions/0/records?offset=0&count=1&format=json").body().get(0)
            .get("timestamp").asLong() + 1;
        // The next record is stamped by the proxy's clock, this JVM's: once that is past "old", so is the record.
        await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
            .until(() -> System.currentTimeMillis() >= between);
        http.post("/topics/simple-time", JSON, "{\"records\":[{\"value\":\"new\"}]}");

        Response response = http.get("/topics/simple-time/partitions/0/records?timestamp=" + between, JSON);

        assertThat(response.body()).hasSize(1);
        assertThat(response.body().get(0).get("value").asString()).isEqualTo("new");
    }

    @Test
    void readingAtTheLogEndIsALongPoll() throws Exception {
        broker().createTopic("simple-poll", 1);
        CompletableFuture<Response> poll = CompletableFuture.supplyAsync(() ->
            http.get("/topics/simple-poll/partitions/0/records?offset=0&timeout=30000", JSON));
        await().atMost(Duration.ofSeconds(20)).until(PartitionRecordsTest::aReaderPolls);
        assertThat(poll).isNotDone();
        long produced = System.nanoTime();
        http.post("/topics/simple-poll", JSON, "{\"records\":[{\"value\":\"late\"}]}");

        Response response = poll.get(30, TimeUnit.SECONDS);

        assertThat(response.body()).hasSize(1);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - produced)).isLessThan(5_000);
        Response empty = http.get("/topics/simple-poll/partitions/0/records?offset=1&timeout=200", JSON);
        assertThat(empty.body()).isEmpty();
    }

    /** Whether a thread of the proxy's partition readers is polling its Kafka consumer for a read. */
    private static boolean aReaderPolls() {
        return Thread.getAllStackTraces().entrySet().stream()
            .filter(e -> e.getKey().getName().startsWith("rest-partition-reader-"))
            .anyMatch(e -> Arrays.stream(e.getValue()).anyMatch(frame -> frame.getMethodName().equals("poll")
                && frame.getClassName().startsWith("org.apache.kafka.clients.consumer.")));
    }

    @Test
    void binaryIsTheDefaultFormat() {
        broker().createTopic("simple-binary", 1);
        http.post("/topics/simple-binary", "application/vnd.kafka.binary.v2+json",
            "{\"records\":[{\"value\":\"AAH/\"}]}");

        Response response = http.get("/topics/simple-binary/partitions/0/records?offset=0");

        assertThat(response.contentType()).startsWith("application/vnd.kafka.binary.v2+json");
        assertThat(response.body().get(0).get("value").asString()).isEqualTo("AAH/");
    }

    @Test
    void partitionOffsetsAreTheFirstAndTheNextOffset() {
        broker().createTopic("simple-offsets", 1);
        http.post("/topics/simple-offsets", JSON, "{\"records\":[{\"value\":1},{\"value\":2},{\"value\":3}]}");

        Response response = http.get("/topics/simple-offsets/partitions/0/offsets");

        assertThat(response.body().get("beginning_offset").asLong()).isZero();
        assertThat(response.body().get("end_offset").asLong()).isEqualTo(3);
    }

    @Test
    void aZeroTimeoutStillReturnsRecordsThatExist() {
        broker().createTopic("simple-zero", 1);
        http.post("/topics/simple-zero", JSON, "{\"records\":[{\"value\":1},{\"value\":2}]}");

        Response response = http.get("/topics/simple-zero/partitions/0/records?offset=0&timeout=0", JSON);

        assertThat(response.body()).hasSize(2);
    }

    @Test
    void badRequestsGetTheirErrors() {
        broker().createTopic("simple-errors", 1);

        assertThat(http.get("/topics/simple-missing/partitions/0/records?offset=0").errorCode()).isEqualTo(40401);
        assertThat(http.get("/topics/simple-errors/partitions/4/records?offset=0").errorCode()).isEqualTo(40402);
        assertThat(http.get("/topics/simple-errors/partitions/4/offsets").errorCode()).isEqualTo(40402);
        assertThat(http.get("/topics/simple-errors/partitions/0/records?offset=5").status()).isEqualTo(400);
        assertThat(http.get("/topics/simple-errors/partitions/0/records").status()).isEqualTo(400);
        assertThat(http.get("/topics/simple-errors/partitions/0/records?timestamp=-5").status()).isEqualTo(400);
    }
}
