package io.tributary.restproxy.atomic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.restproxy.atomic.StoredOutcome.Written;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** The idempotency keys' tail and its read-your-writes barrier, over Kafka's MockConsumer. */
class IdempotencyKeysTest {

    private static final IdempotencyKey KEY = new IdempotencyKey("User:alice", "order-7");
    private static final StoredOutcome OUTCOME = new StoredOutcome("abc", 1_000, List.of(new Written(1, 42, 999)));

    @Test
    void aLookupWaitsUntilTheTailHasReadUpToTheLastStableOffset() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(2_000), ZoneOffset.UTC);
        try (IdempotencyKeysFixture fixture = new IdempotencyKeysFixture(2, clock, Duration.ofHours(1))) {
            // Another replica's transaction committed the key just before this lookup: the LSO says so,
            // and the tail gets the record only at its next poll after the lookup began.
            fixture.endOffset.set(1);
            fixture.onListOffsets = () -> fixture.addRecord(1, 0, KEY, OUTCOME);

            assertThat(fixture.keys.lookup(1, KEY, Duration.ofSeconds(10))).contains(OUTCOME);
        }
    }

    @Test
    void aLookupWaitsPastAnotherCallersTransactionStillOpenOnTheSharedPartition() {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(2_000), ZoneOffset.UTC);
        try (IdempotencyKeysFixture fixture = new IdempotencyKeysFixture(1, clock, Duration.ofHours(1))) {
            // Offset 0: another caller's transaction, still open, holds the LSO at 0; offset 1: this key,
            // committed after it began. Waiting for the LSO would look the key up without having read it.
            fixture.stableOffset.set(0);
            fixture.endOffset.set(2);

            assertThatThrownBy(() -> fixture.keys.lookup(0, KEY, Duration.ofMillis(300)))
                .isInstanceOf(TimeoutException.class);

            fixture.addRecord(0, 1, KEY, OUTCOME);   // the other transaction ended: the tail reads past it
            assertThat(fixture.keys.lookup(0, KEY, Duration.ofSeconds(10))).contains(OUTCOME);
        }
    }

    @Test
    void aLookupThatTheTailCannotCatchUpWithTimesOut() {
        try (IdempotencyKeysFixture fixture = new IdempotencyKeysFixture(1, Clock.systemUTC(), Duration.ofHours(1))) {
            fixture.endOffset.set(5);

            assertThatThrownBy(() -> fixture.keys.lookup(0, KEY, Duration.ofMillis(300)))
                .isInstanceOf(TimeoutException.class).hasMessageContaining("offset 5");
        }
    }

    @Test
    void aKeyIsScopedToItsPrincipalAndForgottenAfterTheRetention() {
        Clock late = Clock.fixed(Instant.ofEpochMilli(1_000 + Duration.ofHours(1).toMillis() + 1), ZoneOffset.UTC);
        try (IdempotencyKeysFixture fixture = new IdempotencyKeysFixture(1, late, Duration.ofHours(1))) {
            fixture.endOffset.set(2);
            fixture.addRecord(0, 0, KEY, OUTCOME);
            StoredOutcome fresh = new StoredOutcome("def", late.millis(), List.of(new Written(0, 1, 1)));
            IdempotencyKey bobs = new IdempotencyKey("User:bob", "order-7");
            fixture.addRecord(0, 1, bobs, fresh);

            assertThat(fixture.keys.lookup(0, bobs, Duration.ofSeconds(10))).contains(fresh);
            assertThat(fixture.keys.lookup(0, KEY, Duration.ofSeconds(10))).as("past retention").isEmpty();
        }
    }

    @Test
    void aRecordKeyRoundTripsAndBadKeysAreRefused() {
        assertThat(IdempotencyKey.decode(KEY.encode())).isEqualTo(KEY);
        assertThat(IdempotencyKey.valid("a".repeat(255))).isTrue();
        assertThat(IdempotencyKey.valid("a".repeat(256))).isFalse();
        assertThat(IdempotencyKey.valid("two words")).isFalse();
        assertThat(IdempotencyKey.valid("")).isFalse();
        assertThat(KEY.slot(8)).isBetween(0, 7).isEqualTo(new IdempotencyKey("User:alice", "order-7").slot(8));
    }
}
