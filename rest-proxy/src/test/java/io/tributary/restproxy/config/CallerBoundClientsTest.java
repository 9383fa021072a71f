package io.tributary.restproxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The caller-bound producer over a pool of Kafka's {@link MockProducer}s, one made per login and
 * per retirement, so that a producer in each of Kafka's refusal states can be put behind it.
 */
class CallerBoundClientsTest {

    private final List<MockProducer<byte[], byte[]>> made = new ArrayList<>();
    private final AtomicReference<RuntimeException> nextSendException = new AtomicReference<>();
    private volatile boolean autoComplete = true;
    private final KafkaClientPool pool = new KafkaClientPool(KafkaClientSettings.of(new KafkaClientProperties(
        "127.0.0.1:1", "", "", "", Map.of(), Map.of(), Map.of(), Map.of())), login -> {
            MockProducer<byte[], byte[]> producer = new MockProducer<>(autoComplete, null, new ByteArraySerializer(),
                new ByteArraySerializer());
            producer.sendException = nextSendException.getAndSet(null);
            made.add(producer);
            return producer;
        }, Duration.ofHours(1), Clock.systemUTC(), login -> false);
    private final KafkaLogin bob = KafkaLogin.of("bob", "pw", "fingerprint-b");
    private final Producer<byte[], byte[]> producer = CallerBoundClients.producer(pool, () -> bob);
    private final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("alice-only", "v".getBytes());

    @AfterEach
    void close() {
        pool.close();
    }

    /**
     * Kafka's idempotent producer asks for a producer id as soon as it starts; a user who may write no
     * topic is refused it, and a send after that throws "Cannot execute transactional method because we
     * are in an error state" with the refusal as its cause. The caller must see the refusal (40301
     * upstream, not 50002), and the next call must get a producer that is not stuck in that state.
     */
    @Test
    void aSendToAProducerAlreadyRefusedAProducerIdThrowsTheRefusalAndRetiresIt() {
        nextSendException.set(new KafkaException("Cannot execute transactional method because we are in an error state",
            new ClusterAuthorizationException("Cluster authorization failed.")));

        assertThatThrownBy(() -> producer.send(record, (metadata, e) -> { }))
            .isInstanceOf(ClusterAuthorizationException.class);
        producer.send(record, (metadata, e) -> { });

        assertThat(made).hasSize(2);
        assertThat(made.get(0).history()).isEmpty();
        assertThat(made.get(1).history()).hasSize(1);
    }

    @Test
    void aRefusalInTheCallbackRetiresTheProducer() {
        autoComplete = false;
        List<Exception> seen = new ArrayList<>();
        producer.send(record, (metadata, e) -> seen.add(e));

        assertThat(made.get(0).errorNext(new KafkaException("wrapped", new ClusterAuthorizationException("refused"))))
            .isTrue();
        producer.send(record, (metadata, e) -> { });

        assertThat(seen).singleElement().isInstanceOf(KafkaException.class);
        assertThat(made).hasSize(2);
    }

    @Test
    void otherFailuresKeepTheProducer() {
        nextSendException.set(new KafkaException("Producer closed while send in progress", new TimeoutException("t")));

        assertThatThrownBy(() -> producer.send(record, (metadata, e) -> { }))
            .isInstanceOf(KafkaException.class).hasMessageContaining("closed while send");
        made.get(0).sendException = null;
        producer.send(record, (metadata, e) -> { });

        assertThat(made).hasSize(1);
    }
}
