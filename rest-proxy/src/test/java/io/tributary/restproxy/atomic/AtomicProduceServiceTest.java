package io.tributary.restproxy.atomic;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.restproxy.atomic.AtomicOutcome.Aborted;
import io.tributary.restproxy.atomic.AtomicOutcome.Committed;
import io.tributary.restproxy.atomic.AtomicOutcome.Unknown;
import io.tributary.restproxy.config.KafkaClientProperties;
import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.metrics.RecordMetrics;
import io.tributary.restproxy.produce.OutgoingRecord;
import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How atomic produce drives a transactional producer (Kafka's {@link MockProducer}) through
 * fencing, failed records and commits of unknown outcome.
 */
class AtomicProduceServiceTest {

    private final List<MockProducer<byte[], byte[]>> made = new ArrayList<>();
    private final List<String> transactionalIds = new ArrayList<>();
    private Consumer<MockProducer<byte[], byte[]>> prepare = producer -> { };
    private boolean failSecondRecord;
    /** When set, the first producer made fails the second record of each flush with it. */
    private RuntimeException failWith;
    private final IdempotencyKeysFixture keys = new IdempotencyKeysFixture(4, Clock.systemUTC(), Duration.ofHours(1));
    private final AtomicProduceService service = new AtomicProduceService(
        new TransactionalProducers(KafkaClientSettings.of(new KafkaClientProperties("127.0.0.1:1", "", "", "",
            Map.of(), Map.of(), Map.of(), Map.of())),
            AtomicProduceProperties.defaults(), this::producer, Clock.systemUTC()),
        keys.keys, new RecordMetrics(new SimpleMeterRegistry()), Clock.systemUTC());

    private MockProducer<byte[], byte[]> producer(Map<String, Object> config) {
        RuntimeException failure = failSecondRecord ? new RecordTooLargeException("too big for the topic")
            : made.isEmpty() ? failWith : null;
        MockProducer<byte[], byte[]> producer = failure != null
            ? new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer()) {
                @Override
                public synchronized void flush() {
                    completeNext();
                    errorNext(failure);
                    super.flush();
                }
            }
            : new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        transactionalIds.add((String) config.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG));
        prepare.accept(producer);
        made.add(producer);
        return producer;
    }

    @AfterEach
    void close() {
        service.close();
        keys.close();
    }

    private static List<AtomicRecord> records(int count) {
        List<AtomicRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new AtomicRecord(new OutgoingRecord(i % 2, null, ("v" + i).getBytes(), List.of()), null));
        }
        return records;
    }

    @Test
    void aCommittedRequestWritesItsRecordsAndItsKeyInOneTransaction() {
        IdempotencyKey key = new IdempotencyKey("<service>", "k");
        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(3), key, "fp");

        assertThat(outcome).isInstanceOf(Committed.class);
        MockProducer<byte[], byte[]> producer = made.get(0);
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(producer.history()).hasSize(4);
        assertThat(producer.history().get(3).topic()).isEqualTo(IdempotencyKeysFixture.TOPIC);
        assertThat(producer.history().get(3).partition()).isEqualTo(key.slot(4));
        assertThat(transactionalIds).containsExactly("tributary-rest-" + key.slot(4));
        // Remembered at once, before the tail reads it back.
        keys.endOffset.set(0);
        assertThat(service.produce(KafkaLogin.SERVICE, "t", records(3), key, "fp"))
            .isInstanceOfSatisfying(Committed.class, replay -> assertThat(replay.replayed()).isTrue());
        assertThat(producer.history()).hasSize(4);
    }

    @Test
    void aProducerFencedByAnotherReplicaIsReplacedAndTheRequestRunAgain() {
        service.produce(KafkaLogin.SERVICE, "t", records(1), new IdempotencyKey("<service>", "a"), "fp");
        made.get(0).fenceProducer();

        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(2), new IdempotencyKey("<service>",
            "a-" + findKeyInSameSlot()), "fp2");

        assertThat(outcome).isInstanceOf(Committed.class);
        assertThat(made).hasSize(2);
        assertThat(made.get(0).closed()).isTrue();
        assertThat(made.get(1).transactionCommitted()).isTrue();
    }

    /** A suffix that puts {@code "a-" + suffix} in the slot of {@code "a"}. */
    private static int findKeyInSameSlot() {
        int slot = new IdempotencyKey("<service>", "a").slot(4);
        for (int i = 0; ; i++) {
            if (new IdempotencyKey("<service>", "a-" + i).slot(4) == slot) {
                return i;
            }
        }
    }

    @Test
    void aFailedRecordAbortsTheTransactionAndIsNamed() {
        failSecondRecord = true;

        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(3), null, "fp");

        assertThat(outcome).isInstanceOfSatisfying(Aborted.class, aborted -> {
            assertThat(aborted.failedIndex()).isEqualTo(1);
            assertThat(aborted.cause()).isInstanceOf(RecordTooLargeException.class);
        });
        assertThat(made.get(0).transactionAborted()).isTrue();
        assertThat(made.get(0).transactionCommitted()).isFalse();
        assertThat(made.get(0).closed()).as("still usable").isFalse();
    }

    @Test
    void aSendRefusedAtOnceAbortsTheTransaction() {
        prepare = producer -> producer.sendException = new org.apache.kafka.common.KafkaException("refused");

        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(2), null, "fp");

        assertThat(outcome).isInstanceOfSatisfying(Aborted.class,
            aborted -> assertThat(aborted.cause()).hasMessage("refused"));
        assertThat(made.get(0).transactionAborted()).isTrue();
    }

    @Test
    void aRecordRefusedBecauseAnotherReplicaFencedTheProducerRunsTheRequestAgain() {
        failWith = new ProducerFencedException("fenced by the other replica");

        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(2), null, "fp");

        assertThat(outcome).isInstanceOf(Committed.class);
        assertThat(made).hasSize(2);
        assertThat(made.get(0).closed()).isTrue();
        assertThat(made.get(1).transactionCommitted()).isTrue();
    }

    @Test
    void aFenceWhileCommittingIsUnknownWithoutAKeyAndLookedUpAgainWithOne() {
        prepare = producer -> producer.commitTransactionException = new ProducerFencedException("fenced at commit");

        assertThat(service.produce(KafkaLogin.SERVICE, "t", records(1), null, "fp")).isInstanceOf(Unknown.class);
        assertThat(made).hasSize(1);

        prepare = producer -> { };
        IdempotencyKey key = new IdempotencyKey("<service>", "fenced-at-commit");
        made.clear();
        prepare = producer -> {
            if (made.isEmpty()) {
                producer.commitTransactionException = new ProducerFencedException("fenced at commit");
            }
        };
        assertThat(service.produce(KafkaLogin.SERVICE, "t", records(1), key, "fp")).isInstanceOf(Committed.class);
        assertThat(made).as("the key looked up again with a new producer").hasSize(2);
    }

    @Test
    void aCommitThatTimesOutIsUnknownAndItsProducerReplaced() {
        prepare = producer -> producer.commitTransactionException = new TimeoutException("commit timed out");
        IdempotencyKey key = new IdempotencyKey("<service>", "unknown");

        AtomicOutcome outcome = service.produce(KafkaLogin.SERVICE, "t", records(2), key, "fp");

        assertThat(outcome).isInstanceOf(Unknown.class);
        assertThat(made.get(0).closed()).isTrue();
        prepare = producer -> { };
        assertThat(service.produce(KafkaLogin.SERVICE, "t", records(2), key, "fp")).isInstanceOf(Committed.class);
        assertThat(made).hasSize(2);
    }
}
