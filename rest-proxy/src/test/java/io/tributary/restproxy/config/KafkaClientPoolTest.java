package io.tributary.restproxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool against an address where no broker listens: Kafka's clients connect only when used,
 * so making and closing them needs no broker.
 */
class KafkaClientPoolTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private volatile long millis = 1_000_000;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public long millis() {
            return millis;
        }
    }

    private static final Duration IDLE = Duration.ofHours(1);

    private final ManualClock clock = new ManualClock();
    private final KafkaClientPool pool = new KafkaClientPool(KafkaClientSettings.of(new KafkaClientProperties(
        "127.0.0.1:1", "", "", "", Map.of(), Map.of(), Map.of(), Map.of())), IDLE, clock);
    private final KafkaLogin alice = KafkaLogin.of("alice", "pw", "fingerprint-a");
    private final KafkaLogin bob = KafkaLogin.of("bob", "pw", "fingerprint-b");

    @AfterEach
    void close() {
        pool.close();
    }

    private Object producerOf(KafkaLogin login) {
        return pool.withProducer(login, producer -> producer);
    }

    private Object adminOf(KafkaLogin login) {
        return pool.withAdmin(login, admin -> admin);
    }

    @Test
    void eachLoginHasItsOwnClientsReusedUntilIdle() {
        Object first = producerOf(alice);
        Object admin = adminOf(alice);

        assertThat(producerOf(alice)).isSameAs(first);
        assertThat(adminOf(alice)).isSameAs(admin);
        assertThat(producerOf(bob)).isNotSameAs(first);
        assertThat(pool.size()).isEqualTo(2);

        clock.millis += IDLE.toMillis();
        pool.closeIdle();

        assertThat(pool.size()).isZero();
        assertThat(producerOf(alice)).isNotSameAs(first);
    }

    @Test
    void clientsInUseAreNotClosed() {
        Object inUse = pool.withProducer(alice, producer -> {
            clock.millis += IDLE.toMillis() * 2;
            pool.closeIdle();
            return producer;
        });

        assertThat(producerOf(alice)).isSameAs(inUse);
    }

    @Test
    void retiredClientsAreReplacedOnNextUse() {
        Object refused = producerOf(alice);

        pool.retire(alice);
        pool.closeIdle();

        assertThat(producerOf(alice)).isNotSameAs(refused);
    }

    @Test
    void aRetiredProducerIsClosedOnceItsLastCallReturns() {
        Producer<byte[], byte[]> refused = pool.withProducer(alice, producer -> {
            pool.retire(alice);
            return producer;
        });

        // No idle timeout passes: a retired producer is closed by the sweep its last call asked for.
        Awaitility.await().untilAsserted(() -> assertThatThrownBy(() -> refused.partitionsFor("t"))
            .isInstanceOf(KafkaException.class).hasMessageContaining("close"));
    }

    @Test
    void theClientsOfAnExpiredLoginAreClosedOnceUnused() {
        java.util.Set<KafkaLogin> expired = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (KafkaClientPool expiring = new KafkaClientPool(KafkaClientSettings.of(new KafkaClientProperties(
                "127.0.0.1:1", "", "", "", Map.of(), Map.of(), Map.of(), Map.of())), IDLE, clock, expired::contains)) {
            Object aliceProducer = expiring.withProducer(alice, producer -> producer);
            Object bobProducer = expiring.withProducer(bob, producer -> producer);

            Object inUse = expiring.withProducer(alice, producer -> {
                expired.add(alice);
                expiring.closeIdle();
                return producer;
            });
            assertThat(inUse).isSameAs(aliceProducer);
            expiring.closeIdle();

            // No idle timeout has passed: alice's clients went because her login expired; bob's stay.
            assertThat(expiring.logins()).containsExactly(bob);
            assertThat((Object) expiring.withProducer(bob, producer -> producer)).isSameAs(bobProducer);
            expired.remove(alice);
            assertThat((Object) expiring.withProducer(alice, producer -> producer)).isNotSameAs(aliceProducer);
        }
    }

    @Test
    void serviceClientsAreNeverClosedAsIdle() {
        Object service = producerOf(KafkaLogin.SERVICE);

        clock.millis += IDLE.toMillis() * 2;
        pool.closeIdle();

        assertThat(producerOf(KafkaLogin.SERVICE)).isSameAs(service);
    }

    @Test
    void loginsAreKeyedByFingerprintAndNeverShowThePassword() {
        KafkaLogin login = KafkaLogin.of("alice", "s3cret\"pw", "fp");

        assertThat(login).isEqualTo(KafkaLogin.of("alice", "other", "fp")).isNotEqualTo(KafkaLogin.of("alice",
            "s3cret\"pw", "fp2"));
        assertThat(login.toString()).isEqualTo("User:alice").doesNotContain("s3cret");
        assertThat(login.key()).doesNotContain("s3cret");
        assertThat(login.saslSettings("SCRAM-SHA-512").get("sasl.jaas.config")).isEqualTo(
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" "
                + "password=\"s3cret\\\"pw\";");
    }
}
