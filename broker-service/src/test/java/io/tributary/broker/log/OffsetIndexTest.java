package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetIndexTest {

    private static final long BASE = 100;

    @TempDir
    File dir;

    private File indexFile() {
        return LogFileNames.offsetIndexFile(dir, BASE, "");
    }

    private OffsetIndex newIndex(int maxEntries) throws IOException {
        return new OffsetIndex(indexFile(), BASE, maxEntries * OffsetIndex.ENTRY_SIZE);
    }

    /** Writes an index file of raw (relative offset, position) pairs, as found on disk. */
    private OffsetIndex rawIndex(int... relativeOffsetAndPosition) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(relativeOffsetAndPosition.length * 4);
        for (int v : relativeOffsetAndPosition) {
            buffer.putInt(v);
        }
        Files.write(indexFile().toPath(), buffer.array());
        return new OffsetIndex(indexFile(), BASE, 1024);
    }

    private OffsetIndex threeEntries() throws IOException {
        OffsetIndex index = newIndex(10);
        index.append(102, 50);
        index.append(105, 120);
        index.append(110, 300);
        return index;
    }

    @Test
    void lookupReturnsTheLargestEntryAtOrBelowTheTarget() throws IOException {
        OffsetIndex index = threeEntries();

        assertThat(index.lookup(102)).isEqualTo(new OffsetPosition(102, 50));
        assertThat(index.lookup(104)).isEqualTo(new OffsetPosition(102, 50));
        assertThat(index.lookup(105)).isEqualTo(new OffsetPosition(105, 120));
        assertThat(index.lookup(109)).isEqualTo(new OffsetPosition(105, 120));
        assertThat(index.lookup(110)).isEqualTo(new OffsetPosition(110, 300));
        assertThat(index.lookup(Long.MAX_VALUE)).isEqualTo(new OffsetPosition(110, 300));
    }

    @Test
    void lookupBelowTheFirstEntryOrInAnEmptyIndexGivesTheBaseOffsetAtPositionZero() throws IOException {
        OffsetIndex index = newIndex(10);
        assertThat(index.lookup(105)).isEqualTo(new OffsetPosition(BASE, 0));
        assertThat(index.lastEntry()).isEqualTo(new OffsetPosition(BASE, 0));

        index.append(102, 50);
        assertThat(index.lookup(101)).isEqualTo(new OffsetPosition(BASE, 0));
        assertThat(index.lookup(0)).isEqualTo(new OffsetPosition(BASE, 0));
    }

    @Test
    void appendRejectsAnOffsetThatDoesNotIncrease() throws IOException {
        OffsetIndex index = newIndex(10);
        index.append(105, 100);

        assertThatThrownBy(() -> index.append(105, 200)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> index.append(104, 200)).isInstanceOf(IllegalStateException.class);
        assertThat(index.entries()).isEqualTo(1);
        assertThat(index.lastEntry()).isEqualTo(new OffsetPosition(105, 100));
    }

    @Test
    void appendRejectsAnOffsetThatDoesNotFitTheRelativeRange() throws IOException {
        OffsetIndex index = newIndex(10);

        assertThatThrownBy(() -> index.append(BASE - 1, 10)).isInstanceOf(IndexOffsetOverflowException.class);
        assertThatThrownBy(() -> index.append(BASE + Integer.MAX_VALUE + 1L, 10))
            .isInstanceOf(IndexOffsetOverflowException.class);
        assertThat(index.entries()).isZero();
    }

    @Test
    void aFullIndexRefusesAppends() throws IOException {
        OffsetIndex index = newIndex(3);
        index.append(101, 10);
        index.append(102, 20);
        assertThat(index.isFull()).isFalse();
        index.append(103, 30);

        assertThat(index.isFull()).isTrue();
        assertThat(index.maxEntries()).isEqualTo(3);
        assertThatThrownBy(() -> index.append(104, 40)).isInstanceOf(IllegalStateException.class);
        assertThat(index.entries()).isEqualTo(3);
    }

    @Test
    void truncateToKeepsOnlyEntriesBelowTheOffset() throws IOException {
        OffsetIndex index = threeEntries();

        index.truncateTo(111);
        assertThat(index.entries()).isEqualTo(3);

        index.truncateTo(107);
        assertThat(index.entries()).isEqualTo(2);
        assertThat(index.lookup(200)).isEqualTo(new OffsetPosition(105, 120));

        index.truncateTo(105);
        assertThat(index.entries()).isEqualTo(1);
        assertThat(index.lastEntry()).isEqualTo(new OffsetPosition(102, 50));

        index.truncateTo(BASE);
        assertThat(index.entries()).isZero();
        assertThat(index.lookup(200)).isEqualTo(new OffsetPosition(BASE, 0));
    }

    @Test
    void appendsContinueAfterATruncation() throws IOException {
        OffsetIndex index = threeEntries();
        index.truncateTo(105);

        index.append(106, 130);

        assertThat(index.entries()).isEqualTo(2);
        assertThat(index.lookup(109)).isEqualTo(new OffsetPosition(106, 130));
        assertThat(index.lookup(104)).isEqualTo(new OffsetPosition(102, 50));
    }

    @Test
    void closingTrimsTheFileAndReopeningKeepsTheEntries() throws IOException {
        OffsetIndex index = threeEntries();
        assertThat(indexFile().length()).isEqualTo(10L * OffsetIndex.ENTRY_SIZE);

        index.close();
        assertThat(indexFile().length()).isEqualTo(3L * OffsetIndex.ENTRY_SIZE);

        OffsetIndex reopened = newIndex(10);
        assertThat(reopened.entries()).isEqualTo(3);
        assertThat(reopened.lookup(107)).isEqualTo(new OffsetPosition(105, 120));
        assertThat(reopened.isFull()).as("a trimmed index has no spare room").isTrue();

        reopened.resizeToMax();
        assertThat(reopened.isFull()).isFalse();
        reopened.append(111, 400);
        assertThat(reopened.lastEntry()).isEqualTo(new OffsetPosition(111, 400));
    }

    @Test
    void sanityCheckAcceptsAValidIndex() throws IOException {
        OffsetIndex index = threeEntries();

        assertThatCode(() -> index.sanityCheck(301)).doesNotThrowAnyException();
        OffsetIndex empty = new OffsetIndex(LogFileNames.offsetIndexFile(dir, 500, ""), 500, 80);
        assertThatCode(() -> empty.sanityCheck(0)).as("an empty index").doesNotThrowAnyException();
    }

    @Test
    void sanityCheckDetectsAZeroedIndex() throws IOException {
        Files.write(indexFile().toPath(), new byte[5 * OffsetIndex.ENTRY_SIZE]);
        OffsetIndex index = new OffsetIndex(indexFile(), BASE, 1024);

        assertThat(index.entries()).isEqualTo(5);
        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsASingleZeroedEntry() throws IOException {
        OffsetIndex index = rawIndex(0, 0);

        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsZeroedEntriesAfterValidOnes() throws IOException {
        OffsetIndex index = rawIndex(3, 100, 7, 250, 0, 0, 0, 0);

        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsDecreasingOffsets() throws IOException {
        OffsetIndex index = rawIndex(5, 100, 3, 200);

        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsDecreasingPositions() throws IOException {
        OffsetIndex index = rawIndex(3, 200, 5, 100);

        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsAPositionBeyondTheLog() throws IOException {
        OffsetIndex index = rawIndex(3, 100, 5, 250);

        assertThatCode(() -> index.sanityCheck(251)).doesNotThrowAnyException();
        assertThatThrownBy(() -> index.sanityCheck(250)).isInstanceOf(CorruptIndexException.class);
        assertThatThrownBy(() -> index.sanityCheck(120)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void sanityCheckDetectsAnEntryBelowTheBaseOffset() throws IOException {
        // Relative offset -5 is offset 95 in a segment starting at 100: the index is not this segment's.
        OffsetIndex index = rawIndex(-5, 100, 3, 250);

        assertThatThrownBy(() -> index.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void aPreallocatedIndexLeftByACrashFailsTheSanityCheck() throws IOException {
        OffsetIndex active = newIndex(64);
        active.append(103, 100);
        active.append(107, 250);
        active.flush();
        // No close: the file keeps its preallocated, zero-filled tail, as after a crash.

        OffsetIndex reopened = newIndex(64);

        assertThat(reopened.entries()).isEqualTo(64);
        assertThatThrownBy(() -> reopened.sanityCheck(10_000)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void resetEmptiesTheIndexAndRestoresItsCapacity() throws IOException {
        OffsetIndex index = threeEntries();
        index.trimToValidSize();
        assertThat(index.isFull()).isTrue();

        index.reset();

        assertThat(index.entries()).isZero();
        assertThat(index.maxEntries()).isEqualTo(10);
        assertThat(index.lookup(110)).isEqualTo(new OffsetPosition(BASE, 0));
    }
}
