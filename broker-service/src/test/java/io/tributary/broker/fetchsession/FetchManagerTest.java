package io.tributary.broker.fetchsession;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.FetchMetadata;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;

/**
 * The KIP-227 rules of {@link FetchManager}: which request opens, uses, closes or fails a session,
 * and what an incremental response leaves out. Fast rung: no broker, a mock clock.
 */
class FetchManagerTest {

    private static final short V17 = 17;
    private static final short V12 = 12;
    private static final Uuid FOO_ID = Uuid.randomUuid();
    private static final Uuid BAR_ID = Uuid.randomUuid();
    private static final TopicIdPartition FOO0 = new TopicIdPartition(FOO_ID, 0, "foo");
    private static final TopicIdPartition FOO1 = new TopicIdPartition(FOO_ID, 1, "foo");
    private static final TopicIdPartition BAR0 = new TopicIdPartition(BAR_ID, 0, "bar");

    /** What the broker's metadata names each topic id. */
    private static final java.util.function.Function<Uuid, String> NAMES =
        id -> id.equals(FOO_ID) ? "foo" : id.equals(BAR_ID) ? "bar" : null;

    private final MockTime time = new MockTime();
    private final FetchSessionCache cache = new FetchSessionCache(3, 1000);
    private final FetchManager manager = new FetchManager(time, cache);

    private static FetchRequest.PartitionData request(TopicIdPartition tp, long fetchOffset) {
        return new FetchRequest.PartitionData(tp.topicId(), fetchOffset, 0, 1_000_000, Optional.of(0), Optional.empty());
    }

    private static FetchResponseData.PartitionData read(long highWatermark, int records) {
        FetchResponseData.PartitionData data = new FetchResponseData.PartitionData()
            .setHighWatermark(highWatermark).setLastStableOffset(highWatermark).setLogStartOffset(0);
        if (records > 0) {
            SimpleRecord[] simple = new SimpleRecord[records];
            for (int i = 0; i < records; i++) {
                simple[i] = new SimpleRecord(("v" + i).getBytes());
            }
            data.setRecords(MemoryRecords.withRecords(org.apache.kafka.common.compress.Compression.NONE, simple));
        } else {
            data.setRecords(MemoryRecords.EMPTY);
        }
        return data;
    }

    private static LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> requests(Object... tpAndOffset) {
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> map = new LinkedHashMap<>();
        for (int i = 0; i < tpAndOffset.length; i += 2) {
            TopicIdPartition tp = (TopicIdPartition) tpAndOffset[i];
            map.put(tp, request(tp, (Long) tpAndOffset[i + 1]));
        }
        return map;
    }

    /** Reads every partition of the context with the given results (same order), unlisted ones as nothing new at hw 10. */
    private static FetchResponse respond(FetchContext context, Map<TopicIdPartition, FetchResponseData.PartitionData> results) {
        LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> read = new LinkedHashMap<>();
        context.partitions().keySet().forEach(tp -> read.put(tp, results.getOrDefault(tp, read(10, 0))));
        return context.response(read, List.of());
    }

    private static List<String> partitionsOf(FetchResponse response) {
        return response.data().responses().stream()
            .flatMap(t -> t.partitions().stream().map(p -> t.topicId() + ":" + p.partitionIndex()))
            .toList();
    }

    private FetchResponse openSession(Map<TopicIdPartition, FetchRequest.PartitionData> partitions) {
        FetchContext full = manager.newContext(V17, FetchMetadata.INITIAL, false, partitions, List.of(), id -> null);
        assertThat(full.kind()).isEqualTo(FetchContext.Kind.FULL);
        return respond(full, Map.of());
    }

    @Test
    void aFullFetchAtEpochZeroOpensASessionAndIsAnsweredInFull() {
        FetchResponse response = openSession(requests(FOO0, 0L, FOO1, 0L, BAR0, 0L));

        assertThat(response.sessionId()).isPositive();
        assertThat(partitionsOf(response)).hasSize(3);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.partitionsCached()).isEqualTo(3);
        assertThat(cache.get(response.sessionId()).orElseThrow().epoch()).isEqualTo(1);
    }

    @Test
    void anIncrementalFetchReadsTheWholeSessionButAnswersOnlyWhatChanged() {
        int id = openSession(requests(FOO0, 0L, FOO1, 0L, BAR0, 0L)).sessionId();

        // The request names only foo-1 (its offset moved); every partition is still read.
        FetchContext incremental = manager.newContext(V17, new FetchMetadata(id, 1), false, requests(FOO1, 5L),
            List.of(), NAMES);
        assertThat(incremental.kind()).isEqualTo(FetchContext.Kind.INCREMENTAL);
        assertThat(incremental.partitions()).containsOnlyKeys(FOO0, FOO1, BAR0);
        assertThat(incremental.partitions().get(FOO1).fetchOffset).isEqualTo(5);
        assertThat(incremental.partitions().get(FOO0).fetchOffset).isEqualTo(0);

        // bar-0 has records, foo-0's high watermark moved, foo-1 has nothing new.
        FetchResponse response = respond(incremental, Map.of(BAR0, read(12, 2), FOO0, read(11, 0)));
        assertThat(response.error()).isEqualTo(Errors.NONE);
        assertThat(response.sessionId()).isEqualTo(id);
        assertThat(partitionsOf(response)).containsExactly(FOO_ID + ":0", BAR_ID + ":0");

        // Nothing new at all: an empty answer, and the epoch has moved to 2.
        FetchContext quiet = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(), NAMES);
        assertThat(partitionsOf(respond(quiet, Map.of(BAR0, read(12, 0), FOO0, read(11, 0))))).isEmpty();
        assertThat(manager.requests(FetchContext.Kind.INCREMENTAL, false)).isEqualTo(2);
        assertThat(manager.requests(FetchContext.Kind.FULL, false)).isEqualTo(1);
    }

    @Test
    void partitionsThatReturnedRecordsMoveToTheEndOfTheSession() {
        int id = openSession(requests(FOO0, 0L, FOO1, 0L, BAR0, 0L)).sessionId();
        FetchContext first = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(), NAMES);
        respond(first, Map.of(FOO0, read(10, 1)));

        FetchContext next = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(), NAMES);
        assertThat(next.partitions().keySet()).containsExactly(FOO1, BAR0, FOO0);
    }

    @Test
    void aPartitionWithAnErrorIsSentAgainOnceTheErrorClears() {
        int id = openSession(requests(FOO0, 0L)).sessionId();
        FetchContext failing = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(), NAMES);
        // The same high watermark as the session holds: only the error makes it go out, and resets it.
        FetchResponseData.PartitionData error = read(10, 0).setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
        assertThat(partitionsOf(respond(failing, Map.of(FOO0, error)))).hasSize(1);

        // Back to hw 10, which is what the session started with: still sent, since the error reset it.
        FetchContext recovered = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(), NAMES);
        assertThat(partitionsOf(respond(recovered, Map.of(FOO0, read(10, 0))))).hasSize(1);
    }

    @Test
    void sessionErrorsAreAnsweredWithNoPartitionsAndSessionIdZero() {
        int id = openSession(requests(FOO0, 0L)).sessionId();

        FetchContext unknown = manager.newContext(V17, new FetchMetadata(id + 1, 1), false, Map.of(), List.of(), NAMES);
        FetchResponse notFound = respond(unknown, Map.of());
        assertThat(notFound.error()).isEqualTo(Errors.FETCH_SESSION_ID_NOT_FOUND);
        assertThat(notFound.sessionId()).isZero();
        assertThat(partitionsOf(notFound)).isEmpty();

        FetchContext stale = manager.newContext(V17, new FetchMetadata(id, 7), false, Map.of(), List.of(), NAMES);
        assertThat(respond(stale, Map.of()).error()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);

        FetchContext names = manager.newContext(V12, new FetchMetadata(id, 1), false, Map.of(), List.of(), NAMES);
        assertThat(respond(names, Map.of()).error()).isEqualTo(Errors.FETCH_SESSION_TOPIC_ID_ERROR);

        // The session survives wrong requests: the right epoch still works.
        FetchContext right = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(), NAMES);
        assertThat(right.kind()).isEqualTo(FetchContext.Kind.INCREMENTAL);
        assertThat(manager.requests(FetchContext.Kind.SESSION_ERROR, false)).isEqualTo(3);
    }

    @Test
    void aDuplicateRequestReadAtTheSameTimeIsRefusedWhenAnswered() {
        int id = openSession(requests(FOO0, 0L)).sessionId();
        FetchContext first = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(), NAMES);
        // The next request of the session comes in before the first is answered.
        manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(), NAMES);

        FetchResponse response = respond(first, Map.of(FOO0, read(20, 1)));
        assertThat(response.error()).isEqualTo(Errors.INVALID_FETCH_SESSION_EPOCH);
        assertThat(response.sessionId()).isEqualTo(id);
        assertThat(partitionsOf(response)).isEmpty();
    }

    @Test
    void aFullFetchClosesTheSessionItNamesAndEpochMinusOneKeepsNone() {
        int id = openSession(requests(FOO0, 0L)).sessionId();

        FetchContext close = manager.newContext(V17, new FetchMetadata(id, FetchMetadata.FINAL_EPOCH), false,
            requests(FOO0, 3L), List.of(), NAMES);
        assertThat(close.kind()).isEqualTo(FetchContext.Kind.SESSIONLESS);
        FetchResponse response = respond(close, Map.of());
        assertThat(response.sessionId()).isZero();
        assertThat(partitionsOf(response)).hasSize(1);
        assertThat(cache.get(id)).isEmpty();
        assertThat(cache.size()).isZero();

        // Close and open anew in one request (epoch 0 with the old id).
        int second = openSession(requests(FOO0, 0L)).sessionId();
        FetchContext reopen = manager.newContext(V17, new FetchMetadata(second, FetchMetadata.INITIAL_EPOCH), false,
            requests(FOO0, 3L), List.of(), NAMES);
        int third = respond(reopen, Map.of()).sessionId();
        assertThat(third).isPositive().isNotEqualTo(second);
        assertThat(cache.get(second)).isEmpty();
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void forgottenPartitionsLeaveTheSessionAndAnEmptiedSessionCloses() {
        int id = openSession(requests(FOO0, 0L, BAR0, 0L)).sessionId();

        FetchContext forget = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(BAR0), NAMES);
        assertThat(forget.partitions()).containsOnlyKeys(FOO0);
        respond(forget, Map.of());
        assertThat(cache.partitionsCached()).isEqualTo(1);

        FetchContext last = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(FOO0), NAMES);
        assertThat(last.kind()).isEqualTo(FetchContext.Kind.SESSIONLESS);
        assertThat(respond(last, Map.of()).sessionId()).isZero();
        assertThat(cache.get(id)).isEmpty();
    }

    @Test
    void aTopicIdUnknownWhenAddedIsNamedOnceTheBrokerKnowsIt() {
        TopicIdPartition unknown = new TopicIdPartition(BAR_ID, new TopicPartition(null, 0));
        int id = openSession(requests(unknown, 0L)).sessionId();

        FetchContext stillUnknown = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(), x -> null);
        assertThat(stillUnknown.partitions().keySet().iterator().next().topic()).isNull();
        respond(stillUnknown, Map.of());

        FetchContext known = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(),
            x -> x.equals(BAR_ID) ? "bar" : null);
        assertThat(known.partitions()).containsOnlyKeys(BAR0);
    }

    @Test
    void anIdNoLongerKnownIsUnnamedSoItCannotReadATopicCreatedAgainUnderItsName() {
        int id = openSession(requests(FOO0, 0L)).sessionId();
        FetchContext known = manager.newContext(V17, new FetchMetadata(id, 1), false, Map.of(), List.of(),
            x -> x.equals(FOO_ID) ? "foo" : null);
        assertThat(known.partitions()).containsOnlyKeys(FOO0);
        respond(known, Map.of());

        // foo was deleted and created again: a new id is "foo", the session's old one names nothing.
        FetchContext deleted = manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(),
            x -> x.equals(BAR_ID) ? "foo" : null);
        TopicIdPartition old = deleted.partitions().keySet().iterator().next();
        assertThat(old.topicId()).isEqualTo(FOO_ID);
        assertThat(old.topic()).isNull();
    }

    @Test
    void aFollowerTakesTheSlotOfAConsumerButConsumersWaitTheirTurn() {
        for (int i = 0; i < 3; i++) {
            assertThat(openSession(requests(FOO0, 0L)).sessionId()).isPositive();
        }
        // Full cache, every session young: a consumer's new session is refused, even a larger one.
        assertThat(openSession(requests(FOO0, 0L, FOO1, 0L, BAR0, 0L)).sessionId()).isZero();

        // A follower's evicts the consumer session of fewest partitions.
        FetchContext follower = manager.newContext(V17, FetchMetadata.INITIAL, true, requests(FOO0, 0L), List.of(),
            NAMES);
        assertThat(respond(follower, Map.of()).sessionId()).isPositive();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.size()).isEqualTo(3);
    }

    @Test
    void aLargerSessionEvictsASmallerOneOnceItIsOldAndAnUnusedOneGoesFirst() {
        int small = openSession(requests(FOO0, 0L)).sessionId();
        time.sleep(10);
        int medium = openSession(requests(FOO0, 0L, FOO1, 0L)).sessionId();
        time.sleep(10);
        int busy = openSession(requests(FOO0, 0L, FOO1, 0L)).sessionId();
        time.sleep(780);
        manager.newContext(V17, new FetchMetadata(busy, 1), false, Map.of(), List.of(), NAMES);
        time.sleep(300); // all older than 1000 ms; small unused for 1100 ms, medium for 1090 ms

        // An unused session goes first, whatever its size: the least recently used.
        int next = openSession(requests(FOO0, 0L)).sessionId();
        assertThat(next).isPositive();
        assertThat(cache.get(small)).isEmpty();
        assertThat(cache.get(medium)).isPresent();

        // Used sessions only: one of three partitions evicts a smallest old one (medium or busy, 2 each,
        // by id), not the young one.
        manager.newContext(V17, new FetchMetadata(medium, 1), false, Map.of(), List.of(), NAMES);
        manager.newContext(V17, new FetchMetadata(busy, 2), false, Map.of(), List.of(), NAMES);
        int large = openSession(requests(FOO0, 0L, FOO1, 0L, BAR0, 0L)).sessionId();
        assertThat(large).isPositive();
        assertThat(cache.get(next)).isPresent(); // younger than 1000 ms
        assertThat(cache.get(medium).isPresent() ^ cache.get(busy).isPresent()).isTrue();
        assertThat(cache.evictions()).isEqualTo(2);
    }

    @Test
    void aCacheOfNoSlotsNeverOpensASession() {
        FetchManager none = new FetchManager(time, new FetchSessionCache(0, 1000));
        FetchContext full = none.newContext(V17, FetchMetadata.INITIAL, true, requests(FOO0, 0L), List.of(), NAMES);
        assertThat(respond(full, Map.of()).sessionId()).isZero();
    }

    @Test
    void sessionsByTopicNameKeepPartitionsByName() {
        TopicIdPartition foo0 = new TopicIdPartition(Uuid.ZERO_UUID, 0, "foo");
        FetchContext full = manager.newContext(V12, FetchMetadata.INITIAL, false, requests(foo0, 0L), List.of(), NAMES);
        int id = respond(full, Map.of()).sessionId();
        FetchContext incremental = manager.newContext(V12, new FetchMetadata(id, 1), false, requests(foo0, 4L),
            List.of(), NAMES);
        assertThat(incremental.partitions()).hasSize(1);
        assertThat(incremental.partitions().get(foo0).fetchOffset).isEqualTo(4);
        assertThat(manager.newContext(V17, new FetchMetadata(id, 2), false, Map.of(), List.of(), NAMES).kind())
            .isEqualTo(FetchContext.Kind.SESSION_ERROR);
    }
}
