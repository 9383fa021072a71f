package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeIndexTest {

    private static final long BASE = 100;

    @TempDir
    File dir;

    private File indexFile() {
        return LogFileNames.timeIndexFile(dir, BASE, "");
    }

    private TimeIndex newIndex(int maxEntries) throws IOException {
        return new TimeIndex(indexFile(), BASE, maxEntries * TimeIndex.ENTRY_SIZE);
    }

    /** Writes raw (timestamp, relative offset) entries, as found on disk. */
    private TimeIndex rawIndex(long... timestampAndRelativeOffset) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(timestampAndRelativeOffset.length / 2 * TimeIndex.ENTRY_SIZE);
        for (int i = 0; i < timestampAndRelativeOffset.length; i += 2) {
            buffer.putLong(timestampAndRelativeOffset[i]);
            buffer.putInt((int) timestampAndRelativeOffset[i + 1]);
        }
        Files.write(indexFile().toPath(), buffer.array());
        return new TimeIndex(indexFile(), BASE, 1200);
    }

    private TimeIndex threeEntries() throws IOException {
        TimeIndex index = newIndex(10);
        index.maybeAppend(1000, 102);
        index.maybeAppend(2000, 105);
        index.maybeAppend(3000, 110);
        return index;
    }

    @Test
    void lookupReturnsTheLastEntryWithATimestampAtOrBelowTheTarget() throws IOException {
        TimeIndex index = threeEntries();

        assertThat(index.lookup(999)).isEqualTo(new TimestampOffset(RecordBatch.NO_TIMESTAMP, BASE));
        assertThat(index.lookup(1000)).isEqualTo(new TimestampOffset(1000, 102));
        assertThat(index.lookup(1999)).isEqualTo(new TimestampOffset(1000, 102));
        assertThat(index.lookup(2000)).isEqualTo(new TimestampOffset(2000, 105));
        assertThat(index.lookup(2500)).isEqualTo(new TimestampOffset(2000, 105));
        assertThat(index.lookup(Long.MAX_VALUE)).isEqualTo(new TimestampOffset(3000, 110));
    }

    @Test
    void anEmptyIndexAnswersNoTimestampAtTheBaseOffset() throws IOException {
        TimeIndex index = newIndex(10);

        assertThat(index.lastEntry()).isEqualTo(new TimestampOffset(RecordBatch.NO_TIMESTAMP, BASE));
        assertThat(index.lookup(5000)).isEqualTo(new TimestampOffset(RecordBatch.NO_TIMESTAMP, BASE));
    }

    @Test
    void maybeAppendSkipsTimestampsThatDoNotIncrease() throws IOException {
        TimeIndex index = newIndex(10);
        index.maybeAppend(1000, 102);

        index.maybeAppend(1000, 105);
        index.maybeAppend(900, 106);

        assertThat(index.entries()).isEqualTo(1);
        assertThat(index.lastEntry()).isEqualTo(new TimestampOffset(1000, 102));
    }

    @Test
    void maybeAppendRejectsAnOffsetGoingBackwards() throws IOException {
        TimeIndex index = newIndex(10);
        index.maybeAppend(1000, 105);

        assertThatThrownBy(() -> index.maybeAppend(2000, 104)).isInstanceOf(IllegalStateException.class);
        assertThat(index.entries()).isEqualTo(1);
    }

    @Test
    void aFullIndexRefusesAppends() throws IOException {
        TimeIndex index = newIndex(2);
        index.maybeAppend(1000, 101);
        index.maybeAppend(2000, 102);

        assertThat(index.isFull()).isTrue();
        assertThatThrownBy(() -> index.maybeAppend(3000, 103)).isInstanceOf(IllegalStateException.class);
        // A timestamp that would not be recorded anyway is no error even when full.
        assertThatCode(() -> index.maybeAppend(1500, 103)).doesNotThrowAnyException();
    }

    @Test
    void truncateToDropsEntriesAtOrAboveTheOffset() throws IOException {
        TimeIndex index = threeEntries();

        index.truncateTo(106);
        assertThat(index.entries()).isEqualTo(2);
        assertThat(index.lastEntry()).isEqualTo(new TimestampOffset(2000, 105));

        index.truncateTo(105);
        assertThat(index.entries()).isEqualTo(1);
        assertThat(index.lookup(5000)).isEqualTo(new TimestampOffset(1000, 102));

        index.truncateTo(BASE);
        assertThat(index.entries()).isZero();
    }

    @Test
    void closingTrimsTheFileAndReopeningKeepsTheEntries() throws IOException {
        TimeIndex index = threeEntries();
        index.close();
        assertThat(indexFile().length()).isEqualTo(3L * TimeIndex.ENTRY_SIZE);

        TimeIndex reopened = newIndex(10);

        assertThat(reopened.entries()).isEqualTo(3);
        assertThat(reopened.lookup(2500)).isEqualTo(new TimestampOffset(2000, 105));
        assertThat(reopened.lastEntry()).isEqualTo(new TimestampOffset(3000, 110));
    }

    @Test
    void sanityCheckAcceptsAValidIndex() throws IOException {
        TimeIndex index = threeEntries();

        assertThatCode(() -> index.sanityCheck(0)).doesNotThrowAnyException();
    }

    @Test
    void sanityCheckDetectsAZeroedIndex() throws IOException {
        Files.write(indexFile().toPath(), new byte[4 * TimeIndex.ENTRY_SIZE]);
        TimeIndex index = new TimeIndex(indexFile(), BASE, 1200);

        assertThat(index.entries()).isEqualTo(4);
        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsZeroedEntriesAfterValidOnes() throws IOException {
        TimeIndex index = rawIndex(1000, 2, 2000, 5, 0, 0, 0, 0);

        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsDecreasingTimestamps() throws IOException {
        TimeIndex index = rawIndex(2000, 2, 1000, 5);

        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsDecreasingOffsets() throws IOException {
        TimeIndex index = rawIndex(1000, 5, 2000, 2);

        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsAnOffsetBelowTheBaseOffset() throws IOException {
        TimeIndex index = rawIndex(1000, -1, 2000, 5);

        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsANegativeTimestamp() throws IOException {
        TimeIndex index = rawIndex(-5, 1);

        assertThatThrownBy(() -> index.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void aPreallocatedIndexLeftByACrashFailsTheSanityCheck() throws IOException {
        TimeIndex active = newIndex(50);
        active.maybeAppend(1000, 103);
        active.maybeAppend(2000, 107);
        active.flush();

        TimeIndex reopened = newIndex(50);

        assertThat(reopened.entries()).isEqualTo(50);
        assertThatThrownBy(() -> reopened.sanityCheck(0)).isInstanceOf(CorruptIndexException.class);
    }
}
