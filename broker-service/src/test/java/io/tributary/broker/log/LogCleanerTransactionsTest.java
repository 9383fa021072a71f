package io.tributary.broker.log;

import static io.tributary.broker.log.CleanerTestSupport.cleanerFor;
import static io.tributary.broker.log.CleanerTestSupport.fat;
import static io.tributary.broker.log.CleanerTestSupport.keyed;
import static io.tributary.broker.log.CleanerTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.log.CleanerTestSupport.KeyValue;
import io.tributary.broker.log.LogTestSupport.LogFixture;
import io.tributary.broker.producer.AppendOrigin;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of a log with transactions (KIP-98, Kafka's cleaner rules): records of aborted
 * transactions are dropped and those of committed ones kept; an ABORT marker and its transaction
 * index entry stay while the cleaning dropped records of it, and the markers go once their
 * transaction is gone and their delete horizon has passed; an open transaction is not cleaned.
 */
class LogCleanerTransactionsTest {

    private static final long PID_ABORTED = 10L;
    private static final long PID_COMMITTED = 20L;
    private static final long DELETE_RETENTION_MS = 60_000;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;
    private LogCleaner cleaner;

    @AfterEach
    void close() {
        if (log != null) {
            log.close();
        }
    }

    private void open() throws IOException {
        f = new LogFixture(tmp, config("segment.bytes", "1024", "cleanup.policy", "compact",
            "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", String.valueOf(DELETE_RETENTION_MS)));
        log = f.open();
        cleaner = cleanerFor(f, tmp, 1024 * 1024);
    }

    private void transactional(long producerId, int sequence, String key, String value) {
        log.appendAsLeader(MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, sequence,
            new SimpleRecord(f.time.milliseconds(), key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8))), 0);
    }

    private void marker(long producerId, ControlRecordType type) {
        log.appendAsLeader(MemoryRecords.withEndTransactionMarker(f.time.milliseconds(), producerId, (short) 0,
            new EndTransactionMarker(type, 1)), 0, AppendOrigin.COORDINATOR);
    }

    /** Keyed plain records, enough to roll past everything written so far. */
    private void fillAndRoll(String prefix) {
        for (int i = 0; i < 12; i++) {
            log.appendAsLeader(keyed(f.time.milliseconds(), prefix + i, fat(prefix + i)), 0);
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
    }

    /** The markers left, as "producer id:type", in offset order. */
    private List<String> markers() {
        List<String> out = new ArrayList<>();
        for (LogSegment segment : log.segments().values()) {
            for (RecordBatch batch : segment.log().batches()) {
                if (batch.isControlBatch() && batch.iterator().hasNext()) {
                    out.add(batch.producerId() + ":" + ControlRecordType.parse(batch.iterator().next().key()));
                }
            }
        }
        return out;
    }

    private List<TransactionIndex.AbortedTxnEntry> indexEntries() throws IOException {
        List<TransactionIndex.AbortedTxnEntry> out = new ArrayList<>();
        for (LogSegment segment : log.segments().values()) {
            out.addAll(segment.txnIndex().all());
        }
        return out;
    }

    @Test
    void abortedRecordsAreDroppedCommittedOnesKeptAndMarkersGoOnceTheirTransactionIsGone() throws IOException {
        open();
        transactional(PID_ABORTED, 0, "a", fat("aborted"));
        transactional(PID_COMMITTED, 0, "c", fat("committed"));
        marker(PID_ABORTED, ControlRecordType.ABORT);
        marker(PID_COMMITTED, ControlRecordType.COMMIT);
        // The aborting producer's next transaction, so its aborted batch is not its last one (which the
        // producer state would keep, emptied, for as long as the producer is active).
        transactional(PID_ABORTED, 1, "b", fat("later"));
        marker(PID_ABORTED, ControlRecordType.COMMIT);
        fillAndRoll("k");

        assertThat(cleaner.cleanFilthiestLog()).isTrue();

        List<String> keys = readAll(log).stream().map(KeyValue::key).toList();
        assertThat(keys).doesNotContain("a").contains("c", "b");
        assertThat(markers()).as("every marker stays while this cleaning saw records of its transaction")
            .containsExactly(PID_ABORTED + ":ABORT", PID_COMMITTED + ":COMMIT", PID_ABORTED + ":COMMIT");
        assertThat(indexEntries()).as("the abort stays indexed in the cleaned segment")
            .extracting(TransactionIndex.AbortedTxnEntry::producerId).containsExactly(PID_ABORTED);

        // The next cleaning sees no record of the aborted transaction: its marker goes once its horizon passed.
        fillAndRoll("m");
        cleaner.cleanFilthiestLog();
        f.time.advance(DELETE_RETENTION_MS + 1);
        fillAndRoll("n");
        cleaner.cleanFilthiestLog();

        assertThat(markers()).as("the committed transactions' records are still there")
            .containsExactly(PID_COMMITTED + ":COMMIT", PID_ABORTED + ":COMMIT");
        assertThat(readAll(log).stream().map(KeyValue::key).toList()).contains("c", "b").doesNotContain("a");
    }

    @Test
    void anOpenTransactionIsNotCleaned() throws IOException {
        open();
        transactional(PID_ABORTED, 0, "a", fat("open"));
        fillAndRoll("k");
        fillAndRoll("k"); // newer values of every k: all but the open transaction could go

        cleaner.cleanFilthiestLog();

        assertThat(log.lastStableOffset()).isZero();
        assertThat(readAll(log).get(0).key()).as("nothing at or after the open transaction was cleaned")
            .isEqualTo("a");
        assertThat(readAll(log)).hasSize(25);
    }
}
