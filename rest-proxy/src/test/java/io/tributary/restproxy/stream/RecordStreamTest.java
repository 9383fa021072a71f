package io.tributary.restproxy.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.restproxy.testing.HttpJson;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

@ExtendWith(OutputCaptureExtension.class)
class RecordStreamTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";

    /** An SSE event: its id and its data parsed as JSON. */
    private record Event(String id, JsonNode data) {
    }

    /** Reads events of an open stream on a background thread. */
    private static final class EventReader implements AutoCloseable {
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        final BlockingQueue<String> comments = new LinkedBlockingQueue<>();
        final Thread thread;
        final Stream<String> lines;

        EventReader(Stream<String> lines) {
            this.lines = lines;
            this.thread = new Thread(() -> {
                String id = null;
                StringBuilder data = new StringBuilder();
                for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                    String line = it.next();
                    if (line.startsWith("id:")) {
                        id = line.substring(3).trim();
                    } else if (line.startsWith("data:")) {
                        data.append(line.substring(5));
                    } else if (line.startsWith(":")) {
                        comments.add(line);
                    } else if (line.isEmpty() && !data.isEmpty()) {
                        events.add(new Event(id, HttpJson.mapper().readTree(data.toString())));
                        data.setLength(0);
                    }
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        Event next() throws InterruptedException {
            Event event = events.poll(20, TimeUnit.SECONDS);
            assertThat(event).as("an event within 20 s").isNotNull();
            return event;
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void deliversRecordsProducedAfterItOpenedInOrder() throws Exception {
        broker().createTopic("stream-live", 1);
        http.post("/topics/stream-live", JSON, "{\"records\":[{\"value\":\"before\"}]}");

        try (EventReader reader = open("/topics/stream-live/records/stream", null)) {
            assertThat(reader.comments.poll(20, TimeUnit.SECONDS)).as("the stream's opening comment").isNotNull();
            for (int i = 0; i < 5; i++) {
                http.post("/topics/stream-live", JSON, "{\"records\":[{\"value\":\"after-" + i + "\"}]}");
            }
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                values.add(reader.next().data().get("value").asString());
            }
            assertThat(values).containsExactly("after-0", "after-1", "after-2", "after-3", "after-4");
        }
    }

    @Test
    void resumesAfterTheLastEventIdOnEveryPartition() throws Exception {
        broker().createTopic("stream-resume", 2);
        http.post("/topics/stream-resume", JSON, "{\"records\":[{\"value\":\"a0\",\"partition\":0},"
            + "{\"value\":\"b0\",\"partition\":1},{\"value\":\"a1\",\"partition\":0},{\"value\":\"b1\",\"partition\":1}]}");
        String lastId;
        List<String> firstTwo = new ArrayList<>();
        try (EventReader reader = open("/topics/stream-resume/records/stream?from=beginning", null)) {
            Event first = reader.next();
            Event second = reader.next();
            firstTwo.add(first.data().get("value").asString());
            firstTwo.add(second.data().get("value").asString());
            lastId = second.id();
        }

        List<String> rest = new ArrayList<>();
        try (EventReader reader = open("/topics/stream-resume/records/stream?from=beginning", lastId)) {
            rest.add(reader.next().data().get("value").asString());
            rest.add(reader.next().data().get("value").asString());
            assertThat(reader.events.poll(500, TimeUnit.MILLISECONDS)).isNull();
        }
        List<String> all = new ArrayList<>(firstTwo);
        all.addAll(rest);
        assertThat(all).containsExactlyInAnyOrder("a0", "a1", "b0", "b1");
    }

    @Test
    void aLastEventIdPastTheLogEndResumesAtTheEndInsteadOfReplaying() throws Exception {
        broker().createTopic("stream-past-end", 1);
        http.post("/topics/stream-past-end", JSON, "{\"records\":[{\"value\":\"old\"}]}");

        try (EventReader reader = open("/topics/stream-past-end/records/stream?from=beginning", "0:100")) {
            assertThat(reader.comments.poll(20, TimeUnit.SECONDS)).isNotNull();
            http.post("/topics/stream-past-end", JSON, "{\"records\":[{\"value\":\"new\"}]}");
            assertThat(reader.next().data().get("value").asString()).isEqualTo("new");
        }
    }

    @Test
    void aClientClosingItsStreamIsNoErrorInTheLog(CapturedOutput output) throws Exception {
        broker().createTopic("stream-closed", 1);
        try (EventReader reader = open("/topics/stream-closed/records/stream", null)) {
            assertThat(reader.comments.poll(20, TimeUnit.SECONDS)).isNotNull();
        }
        // The next record makes the stream write to the closed connection: records come until the stream has
        // ended (its thread, named after the topic, is gone). The closed reader's thread ends throwing: not a failure.
        AtomicInteger sent = new AtomicInteger();
        await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
            .until(() -> {
                http.post("/topics/stream-closed", JSON, "{\"records\":[{\"value\":" + sent.getAndIncrement() + "}]}");
                return Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.isAlive() && t.getName().equals("rest-stream-stream-closed"));
            });

        assertThat(output.getAll()).doesNotContain("RestExceptionHandler").doesNotContain("Failed to close fetcher")
            .doesNotContain("Failure in @ExceptionHandler");
    }

    @Test
    void aReadCommittedStreamShowsOnlyCommittedTransactions() throws Exception {
        broker().createTopic("stream-transactions", 1);
        try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
                 new org.apache.kafka.clients.producer.KafkaProducer<>(java.util.Map.of(
                     org.apache.kafka.clients.producer.ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                     org.apache.kafka.clients.producer.ProducerConfig.TRANSACTIONAL_ID_CONFIG, "stream-read-committed"),
                 new org.apache.kafka.common.serialization.ByteArraySerializer(),
                 new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            producer.initTransactions();
            for (String value : List.of("kept", "dropped", "kept-too")) {
                producer.beginTransaction();
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("stream-transactions",
                    ("\"" + value + "\"").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                if (value.equals("dropped")) {
                    producer.flush(); // written, then aborted
                    producer.abortTransaction();
                } else {
                    producer.commitTransaction();
                }
            }
        }
        try (EventReader reader = open("/topics/stream-transactions/records/stream?from=beginning"
                + "&isolation_level=read_committed", null)) {
            assertThat(reader.next().data().get("value").asString()).isEqualTo("kept");
            assertThat(reader.next().data().get("value").asString()).isEqualTo("kept-too");
            assertThat(reader.events.poll(500, TimeUnit.MILLISECONDS)).as("no aborted record, no marker").isNull();
        }
        assertThat(http.get("/topics/stream-transactions/records/stream?isolation_level=maybe", "text/event-stream")
            .status()).isEqualTo(400);
    }

    @Test
    void unknownTopicIs40401() {
        assertThat(http.get("/topics/stream-missing/records/stream", "text/event-stream").errorCode()).isEqualTo(40401);
    }

    private EventReader open(String path, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(http.uri(path)).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> response = client.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        return new EventReader(response.body());
    }
}
