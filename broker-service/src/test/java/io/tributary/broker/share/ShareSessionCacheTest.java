package io.tributary.broker.share;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

class ShareSessionCacheTest {

    private static final Uuid TOPIC = Uuid.randomUuid();
    private static final TopicIdPartition P0 = new TopicIdPartition(TOPIC, 0, "t");
    private static final TopicIdPartition P1 = new TopicIdPartition(TOPIC, 1, "t");

    private final MockTime time = new MockTime();
    private final List<ShareSessionKey> evicted = new ArrayList<>();
    private final ShareSessionCache cache = new ShareSessionCache(2, 10_000, time, evicted::add);

    @Test
    void epochZeroOpensASessionAndLaterRequestsAddAndForgetPartitions() {
        ShareSessionContext opened = cache.fetchContext("g", "m", 0, List.of(P0), List.of(), false);
        assertThat(opened.error()).isEqualTo(Errors.NONE);
        assertThat(opened.partitions()).containsExactly(P0);
        assertThat(cache.expectedEpoch("g", "m")).isEqualTo(1);

        ShareSessionContext added = cache.fetchContext("g", "m", 1, List.of(P1), List.of(), true);
        assertThat(added.partitions()).containsExactly(P0, P1);

        ShareSessionContext forgotten = cache.fetchContext("g", "m", 2, List.of(), List.of(P0), false);
        assertThat(forgotten.partitions()).containsExactly(P1);
        assertThat(cache.expectedEpoch("g", "m")).isEqualTo(3);
    }

    @Test
    void aWrongEpochOrAMissingSessionIsRefused() {
        assertThat(cache.fetchContext("g", "m", 1, List.of(P0), List.of(), false).error())
            .isEqualTo(Errors.SHARE_SESSION_NOT_FOUND);
        cache.fetchContext("g", "m", 0, List.of(P0), List.of(), false);

        assertThat(cache.fetchContext("g", "m", 5, List.of(), List.of(), false).error())
            .isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH);
        assertThat(cache.acknowledgeContext("g", "m", 0).error()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH);
        assertThat(cache.acknowledgeContext("g", "m", 2).error()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH);
        assertThat(cache.acknowledgeContext("g", "other", 1).error()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND);
        assertThat(cache.acknowledgeContext("g", "m", 1).error()).isEqualTo(Errors.NONE);
        assertThat(cache.expectedEpoch("g", "m")).isEqualTo(2);
    }

    @Test
    void openingASessionWithAcknowledgementsIsAnInvalidRequest() {
        assertThat(cache.fetchContext("g", "m", 0, List.of(P0), List.of(), true).error())
            .isEqualTo(Errors.INVALID_REQUEST);
    }

    @Test
    void finalEpochClosesTheSession() {
        cache.fetchContext("g", "m", 0, List.of(P0), List.of(), false);

        assertThat(cache.fetchContext("g", "m", -1, List.of(P0), List.of(), false).error())
            .isEqualTo(Errors.INVALID_REQUEST);
        ShareSessionContext closed = cache.fetchContext("g", "m", -1, List.of(), List.of(), true);

        assertThat(closed.isFinal()).isTrue();
        assertThat(cache.size()).isZero();
        assertThat(cache.fetchContext("g", "m", -1, List.of(), List.of(), false).error())
            .isEqualTo(Errors.SHARE_SESSION_NOT_FOUND);
        cache.fetchContext("g", "m", 0, List.of(P0), List.of(), false);
        assertThat(cache.acknowledgeContext("g", "m", -1).isFinal()).isTrue();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aFullCacheRefusesNewSessionsUntilOneIsIdleLongEnough() {
        cache.fetchContext("g", "m1", 0, List.of(P0), List.of(), false);
        cache.fetchContext("g", "m2", 0, List.of(P0), List.of(), false);

        assertThat(cache.fetchContext("g", "m3", 0, List.of(P0), List.of(), false).error())
            .isEqualTo(Errors.SHARE_SESSION_LIMIT_REACHED);
        assertThat(cache.fetchContext("g", "m1", 0, List.of(P1), List.of(), false).error())
            .as("reopening one's own session takes no new slot").isEqualTo(Errors.NONE);

        time.advance(10_000);
        cache.fetchContext("g", "m1", 1, List.of(), List.of(), false);
        assertThat(cache.fetchContext("g", "m3", 0, List.of(P0), List.of(), false).error()).isEqualTo(Errors.NONE);
        assertThat(evicted).containsExactly(new ShareSessionKey("g", "m2"));
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void aSessionEndsWithTheConnectionOfItsLatestFetch() {
        cache.fetchContext("g", "m1", 0, List.of(P0), List.of(), false, "c1");
        cache.fetchContext("g", "m1", 1, List.of(), List.of(), false, "c2"); // the client reconnected

        assertThat(cache.removeConnection("c1")).isEmpty();
        assertThat(cache.hasSessions("g")).isTrue();
        assertThat(cache.removeConnection("c2")).containsExactly(new ShareSessionKey("g", "m1"));
        assertThat(cache.hasSessions("g")).isFalse();
    }
}
