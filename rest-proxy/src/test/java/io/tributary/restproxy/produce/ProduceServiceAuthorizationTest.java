package io.tributary.restproxy.produce;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.restproxy.metadata.ClusterMetadata;
import io.tributary.restproxy.metrics.RecordMetrics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Records the brokers refuse in a v2 produce: each gets 40301 and Kafka's error, as in Confluent's proxy. */
class ProduceServiceAuthorizationTest {

    private static final Node NODE = new Node(0, "127.0.0.1", 9092);

    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(new Cluster("c", List.of(NODE),
        List.of(new PartitionInfo("secured", 0, NODE, new Node[] {NODE}, new Node[] {NODE})), Set.of(), Set.of()),
        false, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final ProduceService service = new ProduceService(producer, new ClusterMetadata(null),
        new RecordMetrics(new SimpleMeterRegistry()));

    @Test
    void refusedRecordsCarry40301AndKafkasError() {
        CompletableFuture<List<PartitionOffset>> result = service.produce("secured", List.of(record("a"),
            record("b"), record("c")));

        producer.errorNext(new TopicAuthorizationException("Not authorized to access topics: [secured]"));
        producer.completeNext();
        producer.errorNext(new ClusterAuthorizationException("Cluster authorization failed."));

        List<PartitionOffset> offsets = result.join();
        assertThat(offsets.get(0).errorCode()).isEqualTo(40301);
        assertThat(offsets.get(0).error()).isEqualTo("TopicAuthorizationException: Not authorized to access topics: "
            + "[secured]");
        assertThat(offsets.get(1).errorCode()).isNull();
        assertThat(offsets.get(1).offset()).isNotNull();
        assertThat(offsets.get(2).errorCode()).isEqualTo(40301);
        assertThat(offsets.get(2).error()).startsWith("ClusterAuthorizationException");
    }

    private static OutgoingRecord record(String value) {
        return new OutgoingRecord(null, null, value.getBytes(StandardCharsets.UTF_8), List.of());
    }
}
