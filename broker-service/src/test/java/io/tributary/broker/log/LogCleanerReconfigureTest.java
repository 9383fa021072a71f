package io.tributary.broker.log;

import static io.tributary.broker.log.CleanerTestSupport.fat;
import static io.tributary.broker.log.CleanerTestSupport.keyed;
import static io.tributary.broker.log.CleanerTestSupport.readAll;
import static io.tributary.broker.log.LogTestSupport.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.log.LogTestSupport.LogFixture;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log cleaner's settings changed while it runs (Kafka's {@code LogCleaner.reconfigure}, the
 * dynamic {@code log.cleaner.*}): its threads restart with them, and the I/O rate holds a cleaning
 * to {@code log.cleaner.io.max.bytes.per.second}, on a simulated clock.
 */
class LogCleanerReconfigureTest {

    private static final long DEDUPE = 1 << 20;

    @TempDir
    File tmp;

    private LogFixture f;
    private PartitionLog log;
    private LogCleaner cleaner;

    @AfterEach
    void close() {
        if (cleaner != null) {
            cleaner.shutdown();
        }
    }

    /** A compacted log with {@code rounds} rounds of 10 keys, one record per batch, all committed; its bytes. */
    private long fill(int segmentBytes, int rounds) throws IOException {
        f = new LogFixture(tmp, config("segment.bytes", Integer.toString(segmentBytes), "cleanup.policy", "compact",
            "min.cleanable.dirty.ratio", "0.01"));
        log = f.open();
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 10; k++) {
                log.appendAsLeader(keyed(f.time.milliseconds(), "k" + k, fat("r" + r + "-k" + k)), 0);
            }
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
        return log.size();
    }

    private LogCleaner cleaner(LogCleaner.Config config, Time time) {
        return new LogCleaner(config, List.of(tmp), () -> f.log == null || f.log.isClosed() ? List.of() : List.of(f.log),
            time);
    }

    /** The fixture's clock, which moves 10 ms each time it is read in nanoseconds (the cleaner's work takes time). */
    private Time ticking() {
        return new Time() {
            @Override
            public long milliseconds() {
                return f.time.milliseconds();
            }

            @Override
            public long nanoseconds() {
                f.time.advance(10);
                return f.time.nanoseconds();
            }

            @Override
            public void sleep(long ms) {
                f.time.sleep(ms);
            }
        };
    }

    @Test
    void reconfiguringRestartsTheThreadsWithTheNewSettings() throws Exception {
        fill(1024, 8);
        cleaner = cleaner(new LogCleaner.Config(1, DEDUPE, 64 * 1024, 20), f.time);
        cleaner.startup();
        assertThat(cleaner.threadCount()).isEqualTo(1);

        LogCleaner.Config three = new LogCleaner.Config(3, DEDUPE, 32 * 1024, 20, 0.5, Double.MAX_VALUE);
        cleaner.reconfigure(three);
        assertThat(cleaner.config()).isEqualTo(three);
        assertThat(cleaner.threadCount()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> cleaner.checkpoints().containsKey(log.topicPartition()));
        assertThat(readAll(log)).as("the latest value of each key").hasSize(10);

        cleaner.reconfigure(new LogCleaner.Config(2, DEDUPE, 64 * 1024, 20));
        assertThat(cleaner.threadCount()).isEqualTo(2);
        cleaner.shutdown();
        assertThat(cleaner.threadCount()).isZero();
        cleaner.reconfigure(new LogCleaner.Config(1, DEDUPE, 64 * 1024, 20));
        assertThat(cleaner.threadCount()).as("a stopped cleaner stays stopped").isZero();
    }

    @Test
    void aCleaningIsHeldToTheIoRateAndANewRateAppliesAtOnce() throws Exception {
        long cleanable = fill(4096, 40);
        double rate = 1_000; // bytes/s
        cleaner = cleaner(new LogCleaner.Config(1, DEDUPE, 64 * 1024, 20, 0.9, rate), ticking());
        long start = f.time.milliseconds();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        long elapsedMs = f.time.milliseconds() - start;
        // Every cleanable byte is read once to build the offset map (a batch at a time) and once to
        // copy (a segment at a time); the last period of 300 ms ends unmeasured: at least half of
        // the reads are held to the rate.
        assertThat(elapsedMs).as("%d cleanable bytes at %s bytes/s", cleanable, rate)
            .isGreaterThanOrEqualTo((long) (cleanable / rate * 1000 / 2));

        for (int k = 0; k < 10; k++) {
            log.appendAsLeader(keyed(f.time.milliseconds(), "k" + k, fat("again-k" + k)), 0);
        }
        log.roll();
        log.updateHighWatermark(log.logEndOffset());
        cleaner.reconfigure(new LogCleaner.Config(1, DEDUPE, 64 * 1024, 20, 0.9, Double.MAX_VALUE));
        start = f.time.milliseconds();
        assertThat(cleaner.cleanFilthiestLog()).isTrue();
        assertThat(f.time.milliseconds() - start).as("unlimited: only the clock's own ticks")
            .isLessThan(elapsedMs / 5);
    }
}
