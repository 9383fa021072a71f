package io.tributary.restproxy.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.restproxy.testing.HttpJson.Response;
import io.tributary.restproxy.testing.ProxyTestBase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ProduceTest extends ProxyTestBase {

    private static final String JSON = "application/vnd.kafka.json.v2+json";
    private static final String BINARY = "application/vnd.kafka.binary.v2+json";

    @Test
    void jsonRecordsAreStoredAsTheirJsonTextWithOffsetsInRequestOrder() {
        broker().createTopic("produce-json", 1);
        Response response = http.post("/topics/produce-json", JSON,
            "{\"records\":[{\"key\":\"k1\",\"value\":{\"n\":1}},{\"value\":[1,2]},{\"key\":\"k3\",\"value\":null}]}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/vnd.kafka.v2+json");
        JsonNode offsets = response.body().get("offsets");
        assertThat(offsets).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(offsets.get(i).get("partition").asInt()).isZero();
            assertThat(offsets.get(i).get("offset").asLong()).isEqualTo(i);
            assertThat(offsets.get(i).get("error_code").isNull()).isTrue();
        }
        assertThat(response.body().has("key_schema_id")).isTrue();

        List<ConsumerRecord<byte[], byte[]>> records = read("produce-json", 0, 3);
        assertThat(text(records.get(0).key())).isEqualTo("\"k1\"");
        assertThat(text(records.get(0).value())).isEqualTo("{\"n\":1}");
        assertThat(records.get(1).key()).isNull();
        assertThat(text(records.get(1).value())).isEqualTo("[1,2]");
        assertThat(records.get(2).value()).isNull();
    }

    @Test
    void plainApplicationJsonIsTheJsonFormat() {
        broker().createTopic("produce-plain", 1);
        Response response = http.post("/topics/produce-plain", "application/json",
            "{\"records\":[{\"value\":\"hello\"}]}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(text(read("produce-plain", 0, 1).get(0).value())).isEqualTo("\"hello\"");
    }

    @Test
    void binaryRecordsKeepBytesThatAreNotUtf8AndHeaders() {
        broker().createTopic("produce-binary", 1);
        byte[] value = {(byte) 0xff, (byte) 0xfe, 0, (byte) 0xc3, 0x28};
        String body = "{\"records\":[{\"key\":\"" + b64(new byte[] {1, 2}) + "\",\"value\":\"" + b64(value)
            + "\",\"headers\":[{\"name\":\"trace\",\"value\":\"" + b64(new byte[] {(byte) 0x80}) + "\"}]}]}";

        Response response = http.post("/topics/produce-binary", BINARY, body);

        assertThat(response.status()).isEqualTo(200);
        ConsumerRecord<byte[], byte[]> record = read("produce-binary", 0, 1).get(0);
        assertThat(record.key()).containsExactly(1, 2);
        assertThat(record.value()).containsExactly(value);
        assertThat(record.headers().lastHeader("trace").value()).containsExactly((byte) 0x80);
    }

    @Test
    void recordsGoToTheRequestedPartition() {
        broker().createTopic("produce-partitions", 3);
        Response toTopic = http.post("/topics/produce-partitions", JSON,
            "{\"records\":[{\"value\":1,\"partition\":2},{\"value\":2,\"partition\":1}]}");
        Response toPartition = http.post("/topics/produce-partitions/partitions/1", JSON,
            "{\"records\":[{\"value\":3}]}");

        assertThat(toTopic.body().get("offsets").get(0).get("partition").asInt()).isEqualTo(2);
        assertThat(toTopic.body().get("offsets").get(1).get("partition").asInt()).isEqualTo(1);
        assertThat(toPartition.body().get("offsets").get(0).get("partition").asInt()).isEqualTo(1);
        assertThat(toPartition.body().get("offsets").get(0).get("offset").asLong()).isEqualTo(1);
    }

    @Test
    void unknownTopicIs40401() {
        Response response = http.post("/topics/no-such-topic", JSON, "{\"records\":[{\"value\":1}]}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorCode()).isEqualTo(40401);
    }

    @Test
    void unknownPartitionIs40402() {
        broker().createTopic("produce-bad-partition", 2);
        Response viaPath = http.post("/topics/produce-bad-partition/partitions/7", JSON, "{\"records\":[{\"value\":1}]}");
        Response viaRecord = http.post("/topics/produce-bad-partition", JSON,
            "{\"records\":[{\"value\":1,\"partition\":2}]}");

        assertThat(viaPath.status()).isEqualTo(404);
        assertThat(viaPath.errorCode()).isEqualTo(40402);
        assertThat(viaRecord.errorCode()).isEqualTo(40402);
    }

    @Test
    void malformedJsonAndBadBase64Are422() {
        broker().createTopic("produce-malformed", 1);
        Response malformed = http.post("/topics/produce-malformed", JSON, "{\"records\":[{\"value\":");
        Response badBase64 = http.post("/topics/produce-malformed", BINARY, "{\"records\":[{\"value\":\"%%%\"}]}");
        Response notBase64String = http.post("/topics/produce-malformed", BINARY, "{\"records\":[{\"value\":12}]}");

        assertThat(malformed.status()).isEqualTo(422);
        assertThat(malformed.errorCode()).isEqualTo(422);
        assertThat(badBase64.status()).isEqualTo(422);
        assertThat(badBase64.body().get("message").asString()).contains("records[0].value");
        assertThat(notBase64String.status()).isEqualTo(422);
    }

    @Test
    void bodiesOverTheLimitAre413() {
        broker().createTopic("produce-large", 1);
        String big = "x".repeat(5 * 1024 * 1024);
        Response response = http.post("/topics/produce-large", JSON, "{\"records\":[{\"value\":\"" + big + "\"}]}");

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.errorCode()).isEqualTo(413);
    }

    @Test
    void schemaRegistryFormatsAre415() {
        broker().createTopic("produce-avro", 1);
        Response response = http.post("/topics/produce-avro", "application/vnd.kafka.avro.v2+json",
            "{\"value_schema\":\"{}\",\"records\":[{\"value\":1}]}");

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.errorCode()).isEqualTo(415);
    }

    @Test
    void aRecordTheProducerRefusesGetsError50002WhileTheOthersAreWritten() {
        broker().createTopic("produce-too-large", 1);
        // Over the producer's max.request.size (1 MiB), under the proxy's body limit.
        String tooLarge = b64(new byte[1_200_000]);
        Response response = http.post("/topics/produce-too-large", BINARY,
            "{\"records\":[{\"value\":\"" + b64(new byte[] {1}) + "\"},{\"value\":\"" + tooLarge + "\"}]}");

        assertThat(response.status()).isEqualTo(200);
        JsonNode offsets = response.body().get("offsets");
        assertThat(offsets.get(0).get("offset").asLong()).isZero();
        assertThat(offsets.get(1).get("error_code").asInt()).isEqualTo(50002);
        assertThat(offsets.get(1).get("error").asString()).contains("RecordTooLarge");
        assertThat(offsets.get(1).get("offset").isNull()).isTrue();
    }

    private List<ConsumerRecord<byte[], byte[]>> read(String topic, int partition, int count) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, partition);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            assertThat(records).hasSize(count);
            return records;
        }
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

}
