package io.tributary.broker.log;

import static io.tributary.broker.log.LogTestSupport.config;
import static io.tributary.broker.log.LogTestSupport.offsets;
import static io.tributary.broker.log.LogTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.records;
import static io.tributary.broker.log.LogTestSupport.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PartitionLog#tryLockForAppend}, the append a network thread may make: it appends as
 * {@link PartitionLog#appendAsLeader} does when nothing could block, and declines (null, nothing
 * changed, nothing held) when the log's lock is busy, a roll or a forced flush is due, or the
 * leader epoch is new and its checkpoint would be written.
 */
class PartitionLogWithoutBlockingTest {

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;

    private PartitionLog open(io.tributary.broker.config.LogConfig config) throws IOException {
        f = new LogFixture(tmp, config);
        log = f.open();
        return log;
    }

    @AfterEach
    void close() {
        if (log != null) {
            log.close();
        }
    }

    private long now() {
        return f.time.milliseconds();
    }

    /** Prepares, appends and unlocks, as the network thread does; null if it declined. */
    private LogAppendInfo appendWithoutBlocking(int leaderEpoch, String... values) {
        PreparedAppend prepared = log.tryLockForAppend(records(now(), values), leaderEpoch);
        if (prepared == null) {
            return null;
        }
        try {
            return prepared.append();
        } finally {
            prepared.unlock();
        }
    }

    @Test
    void appendsAsTheOrdinaryAppendDoesWhenNothingCouldBlock() throws IOException {
        open(config());
        log.appendAsLeader(records(now(), "a"), 0);

        LogAppendInfo info = appendWithoutBlocking(0, "b", "c");

        assertThat(info).isNotNull();
        assertThat(info.firstOffset()).isEqualTo(1);
        assertThat(info.lastOffset()).isEqualTo(2);
        assertThat(offsets(readAll(log, 0))).containsExactly(0L, 1L, 2L);
        assertThat(log.lock().isLocked()).as("the locks are released").isFalse();
    }

    @Test
    void declinesWhileAnotherThreadHoldsTheLogsLock() throws Exception {
        open(config());
        log.appendAsLeader(records(now(), "a"), 0);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            log.lock().lock();
            try {
                held.countDown();
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                log.lock().unlock();
            }
        });
        holder.start();
        assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();

        try {
            assertThat(appendWithoutBlocking(0, "b")).isNull();
        } finally {
            release.countDown();
            holder.join();
        }
        assertThat(log.logEndOffset()).isEqualTo(1);
        assertThat(appendWithoutBlocking(0, "b")).isNotNull();
    }

    @Test
    void declinesWhenTheAppendWouldRoll() throws IOException {
        open(config("segment.bytes", "1024"));
        log.appendAsLeader(records(now(), value("first", 700)), 0);

        assertThat(appendWithoutBlocking(0, value("second", 700))).isNull();

        assertThat(log.numberOfSegments()).isEqualTo(1);
        assertThat(log.logEndOffset()).isEqualTo(1);
        assertThat(appendWithoutBlocking(0, "small")).as("what still fits is appended").isNotNull();
    }

    @Test
    void declinesWhenTheTopicForcesFlushes() throws IOException {
        open(config("flush.messages", "1000"));

        assertThat(appendWithoutBlocking(0, "a")).isNull();
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void declinesTheFirstAppendOfANewLeaderEpoch() throws IOException {
        open(config());
        log.appendAsLeader(records(now(), "a"), 3);

        assertThat(appendWithoutBlocking(4, "b")).as("epoch 4 would be checkpointed").isNull();
        assertThat(appendWithoutBlocking(3, "b")).isNotNull();
        log.appendAsLeader(records(now(), "c"), 4);
        assertThat(appendWithoutBlocking(4, "d")).isNotNull();
        assertThat(log.leaderEpochCache().latestEpoch()).hasValue(4);
    }
}
