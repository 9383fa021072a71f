package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochFileCacheTest {

    private static final EpochEntry UNDEFINED = new EpochEntry(-1, -1);

    @TempDir
    File dir;

    private LeaderEpochFileCache threeEpochs() {
        LeaderEpochFileCache cache = new LeaderEpochFileCache(dir);
        cache.assign(1, 0);
        cache.assign(3, 10);
        cache.assign(5, 20);
        return cache;
    }

    private File checkpoint() {
        return new File(dir, LeaderEpochFileCache.FILE_NAME);
    }

    @Test
    void assignRecordsOnlyNewerEpochs() {
        LeaderEpochFileCache cache = threeEpochs();

        cache.assign(5, 25);
        cache.assign(4, 30);
        cache.assign(RecordBatch.NO_PARTITION_LEADER_EPOCH, 40);

        assertThat(cache.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 10), new EpochEntry(5, 20));
        assertThat(cache.latestEpoch()).hasValue(5);
    }

    @Test
    void aNewerEpochStartingEarlierReplacesTheEntriesItOverlaps() {
        LeaderEpochFileCache cache = threeEpochs();

        cache.assign(6, 10);

        assertThat(cache.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(6, 10));
    }

    @Test
    void theCacheIsPersistedInKafkasCheckpointFormatAndReloaded() throws IOException {
        threeEpochs();

        assertThat(Files.readString(checkpoint().toPath())).isEqualTo("0\n3\n1 0\n3 10\n5 20\n");
        assertThat(new LeaderEpochFileCache(dir).entries())
            .containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 10), new EpochEntry(5, 20));
    }

    @Test
    void anUnreadableCheckpointLeavesAnEmptyCache() throws IOException {
        Files.writeString(checkpoint().toPath(), "0\n2\n1 0\n");

        assertThat(new LeaderEpochFileCache(dir).entries()).isEmpty();
    }

    @Test
    void endOffsetForTheLatestEpochIsTheLogEndOffset() {
        assertThat(threeEpochs().endOffsetFor(5, 30)).isEqualTo(new EpochEntry(5, 30));
    }

    @Test
    void endOffsetForAnOlderEpochIsTheStartOfTheNextOne() {
        LeaderEpochFileCache cache = threeEpochs();

        assertThat(cache.endOffsetFor(3, 30)).isEqualTo(new EpochEntry(3, 20));
        assertThat(cache.endOffsetFor(1, 30)).isEqualTo(new EpochEntry(1, 10));
    }

    @Test
    void endOffsetForAnUnknownEpochBetweenTwoAnswersTheLargestEpochBelowIt() {
        LeaderEpochFileCache cache = threeEpochs();

        assertThat(cache.endOffsetFor(4, 30)).isEqualTo(new EpochEntry(3, 20));
        assertThat(cache.endOffsetFor(2, 30)).isEqualTo(new EpochEntry(1, 10));
    }

    @Test
    void endOffsetForAnEpochBeforeTheFirstIsTheStartOfTheFirst() {
        LeaderEpochFileCache cache = new LeaderEpochFileCache(dir);
        cache.assign(3, 10);
        cache.assign(5, 20);

        assertThat(cache.endOffsetFor(1, 30)).isEqualTo(new EpochEntry(1, 10));
    }

    @Test
    void endOffsetForAnEpochAfterTheLatestOrWithoutEntriesIsUndefined() {
        assertThat(threeEpochs().endOffsetFor(6, 30)).isEqualTo(UNDEFINED);
        assertThat(threeEpochs().endOffsetFor(RecordBatch.NO_PARTITION_LEADER_EPOCH, 30)).isEqualTo(UNDEFINED);
        new LeaderEpochFileCache(dir).clear();
        assertThat(new LeaderEpochFileCache(dir).endOffsetFor(1, 30)).isEqualTo(UNDEFINED);
    }

    @Test
    void truncateFromEndRemovesEpochsStartingAtOrAfterTheOffset() {
        LeaderEpochFileCache cache = threeEpochs();

        cache.truncateFromEnd(21);
        assertThat(cache.entries()).hasSize(3);

        cache.truncateFromEnd(20);
        assertThat(cache.entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(3, 10));
        assertThat(cache.endOffsetFor(3, 20)).isEqualTo(new EpochEntry(3, 20));
        assertThat(new LeaderEpochFileCache(dir).entries()).hasSize(2);
    }

    @Test
    void truncateFromStartMovesTheEpochHoldingTheNewStart() {
        LeaderEpochFileCache cache = threeEpochs();

        cache.truncateFromStart(15);

        assertThat(cache.entries()).containsExactly(new EpochEntry(3, 15), new EpochEntry(5, 20));
        assertThat(new LeaderEpochFileCache(dir).entries()).containsExactly(new EpochEntry(3, 15), new EpochEntry(5, 20));
    }

    @Test
    void truncateFromStartAtAnEpochBoundaryRemovesTheEpochsBeforeIt() {
        LeaderEpochFileCache cache = threeEpochs();

        cache.truncateFromStart(20);

        assertThat(cache.entries()).containsExactly(new EpochEntry(5, 20));
        assertThat(new LeaderEpochFileCache(dir).entries()).containsExactly(new EpochEntry(5, 20));
        assertThat(cache.endOffsetFor(3, 30)).as("no end offset below the log start").isEqualTo(new EpochEntry(3, 20));
    }

    @Test
    void truncateFromStartBeforeTheFirstEpochChangesNothing() {
        LeaderEpochFileCache cache = new LeaderEpochFileCache(dir);
        cache.assign(3, 10);

        cache.truncateFromStart(5);

        assertThat(cache.entries()).containsExactly(new EpochEntry(3, 10));
    }

    @Test
    void clearRemovesEveryEntryFromMemoryAndDisk() throws IOException {
        LeaderEpochFileCache cache = threeEpochs();

        cache.clear();

        assertThat(cache.entries()).isEmpty();
        assertThat(cache.latestEpoch()).isEmpty();
        assertThat(Files.readString(checkpoint().toPath())).isEqualTo("0\n0\n");
    }

    @Test
    void afterTheDirectoryMovesTheCheckpointIsWrittenInTheNewOne() throws IOException {
        LeaderEpochFileCache cache = threeEpochs();
        File moved = new File(dir.getParentFile(), dir.getName() + "-moved");
        Files.move(dir.toPath(), moved.toPath());
        try {
            cache.updateParentDir(moved);
            cache.assign(7, 40);

            assertThat(new LeaderEpochFileCache(moved).latestEpoch()).hasValue(7);
        } finally {
            Files.move(moved.toPath(), dir.toPath());
        }
    }
}
