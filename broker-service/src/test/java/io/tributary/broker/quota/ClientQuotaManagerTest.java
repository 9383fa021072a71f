package io.tributary.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.testing.MockTime;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * Kafka's client quota rules on a mock clock: which quota applies to (user, client id) (KIP-55's
 * precedence), who shares a rate, how long a client over its quota waits (the excess over the bound
 * in windows of the rate, at most the 11 s measured), and nothing recorded without quotas.
 */
class ClientQuotaManagerTest {

    private static final String KEY = QuotaType.PRODUCE.key();
    private static final String D = ClientQuotaEntity.DEFAULT;

    private final MockTime time = new MockTime();
    private final Map<ClientQuotaEntity, Double> quotas = new HashMap<>();
    private final ClientQuotaLookup lookup = new ClientQuotaLookup() {
        @Override
        public OptionalDouble quota(ClientQuotaEntity entity, String key) {
            Double value = key.equals(KEY) ? quotas.get(entity) : null;
            return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
        }

        @Override
        public boolean isEmpty() {
            return quotas.isEmpty();
        }
    };
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClientQuotaManager manager = new ClientQuotaManager(QuotaType.PRODUCE, lookup, time, registry);

    private void set(String user, String clientId, double bound) {
        quotas.put(new ClientQuotaEntity(user, clientId), bound);
    }

    @Test
    void theMostSpecificEntityWinsInKip55Order() {
        set(null, D, 1);
        assertThat(manager.quota("alice", "app")).hasValue(1);
        set(null, "app", 2);
        assertThat(manager.quota("alice", "app")).hasValue(2);
        set(D, null, 3);
        assertThat(manager.quota("alice", "app")).hasValue(3);
        set(D, D, 4);
        assertThat(manager.quota("alice", "app")).hasValue(4);
        set(D, "app", 5);
        assertThat(manager.quota("alice", "app")).hasValue(5);
        set("alice", null, 6);
        assertThat(manager.quota("alice", "app")).hasValue(6);
        set("alice", D, 7);
        assertThat(manager.quota("alice", "app")).hasValue(7);
        set("alice", "app", 8);
        assertThat(manager.quota("alice", "app")).hasValue(8);
        assertThat(manager.quota("bob", "other")).as("the default user's default client").hasValue(4);
    }

    @Test
    void withoutAnyQuotaNothingIsThrottled() {
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 1e12)).isZero();
        assertThat(manager.maxValueInQuotaWindow("alice", "app")).isEqualTo(Integer.MAX_VALUE);
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void aClientOverItsQuotaWaitsUntilTheRateIsBackAtIt() {
        set(null, "app", 1000); // bytes per second
        // A new rate is taken over at least ten windows: 11,000 bytes at once is over 1,000/s.
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 10_000)).isZero();
        int throttleMs = manager.recordAndGetThrottleTimeMs("alice", "app", 11_000);
        // 21,000 bytes over a 10 s window is 2,100/s: 1.1 bounds over, 1.1 x 10 s of waiting.
        assertThat(throttleMs).isEqualTo(11_000);
        assertThat(registry.get("kafka.server.produce.throttle.time").tag("client-id", "app").tag("user", "")
            .gauge().value()).isEqualTo(11_000);

        // Another client of the default entity has its own rate; a client without a quota is free.
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "other", 5_000)).isZero();
        set(null, D, 1000);
        assertThat(manager.recordAndGetThrottleTimeMs("bob", "other", 5_000)).isZero();
        assertThat(manager.recordAndGetThrottleTimeMs("carol", "other", 7_000)).as("shares bob's client id rate")
            .isPositive();

        // Once the measured time has passed, the client is within its quota again.
        time.sleep(30_000);
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "app", 1_000)).isZero();
    }

    @Test
    void aLargeOverrunIsThrottledForAsLongAsItTakesNotOnlyTheMeasuredTime() {
        set(null, "big", 10_000);
        // 1 MB at once against 10 KB/s over a 10 s window: 100 KB/s, nine bounds over, 90 s.
        int throttleMs = manager.recordAndGetThrottleTimeMs("u", "big", 1_000_000);
        assertThat(throttleMs).isGreaterThan(11_000).isEqualTo(90_000);
    }

    @Test
    void namesThatWouldJoinIntoTheSameSensorNameKeepTheirOwnRates() {
        set(null, D, 1000);
        // 9,000 bytes each is within 1,000/s over 10 s; together they would not be.
        assertThat(manager.recordAndGetThrottleTimeMs("app", "x-1", 9_000)).isZero();
        assertThat(manager.recordAndGetThrottleTimeMs("app-x", "1", 9_000)).as("not app/x-1's rate").isZero();
    }

    @Test
    void aUsersOwnQuotaIsSharedByAllItsClients() {
        set("alice", null, 1000);
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "one", 8_000)).isZero();
        assertThat(manager.recordAndGetThrottleTimeMs("alice", "two", 8_000)).isPositive();
        assertThat(registry.get("kafka.server.produce.byte.rate").tag("user", "alice").tag("client-id", "")
            .gauge().value()).isPositive();
    }

    @Test
    void controllerMutationsAreRefusedWhileTheBucketIsEmptyWhenStrictAndOnlyThrottledOtherwise() {
        Map<ClientQuotaEntity, Double> mutationQuotas = new HashMap<>();
        mutationQuotas.put(new ClientQuotaEntity(null, "admin"), 2.0); // 2 partitions per second, 22 deep
        ClientQuotaLookup mutationLookup = new ClientQuotaLookup() {
            @Override
            public OptionalDouble quota(ClientQuotaEntity entity, String key) {
                Double v = key.equals(QuotaType.CONTROLLER_MUTATION.key()) ? mutationQuotas.get(entity) : null;
                return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
            }

            @Override
            public boolean isEmpty() {
                return false;
            }
        };
        ClientQuotaManager mutations = new ClientQuotaManager(QuotaType.CONTROLLER_MUTATION, mutationLookup, time,
            registry);
        // A full bucket takes more than it holds (Kafka lets the last request through), then refuses.
        assertThat(mutations.recordMutations("u", "admin", 30, true)).isEqualTo(new ClientQuotaManager.Mutations(true, 0));
        ClientQuotaManager.Mutations refused = mutations.recordMutations("u", "admin", 1, true);
        assertThat(refused.accepted()).isFalse();
        assertThat(refused.throttleMs()).as("8 tokens in debt at 2 per second").isEqualTo(4_000);
        // Permissive (older versions): accepted, with the time to wait.
        ClientQuotaManager.Mutations permissive = mutations.recordMutations("u", "admin", 2, false);
        assertThat(permissive.accepted()).isTrue();
        assertThat(permissive.throttleMs()).isEqualTo(5_000);
        time.sleep(5_000);
        assertThat(mutations.recordMutations("u", "admin", 1, true).accepted()).isTrue();
        assertThat(mutations.recordMutations("u", "other", 1_000, true)).isEqualTo(new ClientQuotaManager.Mutations(true, 0));
    }

    @Test
    void aThrottledFetchIsTakenBackAndTheWindowBoundsAFetch() {
        set(null, "reader", 1000);
        assertThat(manager.maxValueInQuotaWindow("u", "reader")).as("all windows but one").isEqualTo(10_000);
        assertThat(manager.recordAndGetThrottleTimeMs("u", "reader", 20_000)).isPositive();
        manager.unrecord("u", "reader", 20_000);
        assertThat(manager.recordAndGetThrottleTimeMs("u", "reader", 1_000)).isZero();
    }
}
