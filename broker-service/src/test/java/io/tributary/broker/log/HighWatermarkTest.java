package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.MockTime;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HighWatermarkTest {

    /** Log end at offset 100, position 700 in the active segment at base offset 90. */
    private static final LogOffsetMetadata LOG_END = new LogOffsetMetadata(100, 90, 700);

    @Test
    void checkpointIsRaisedToLogStartAndCappedAtLogEnd() {
        assertThat(HighWatermark.fromCheckpoint(3, 10, LOG_END).metadata())
            .isEqualTo(LogOffsetMetadata.unknownPosition(10));
        assertThat(HighWatermark.fromCheckpoint(500, 10, LOG_END).metadata()).isSameAs(LOG_END);
        assertThat(HighWatermark.fromCheckpoint(50, 10, LOG_END).metadata())
            .isEqualTo(LogOffsetMetadata.unknownPosition(50));
    }

    @Test
    void incrementKeepsAPositionOnlyInTheActiveSegment() {
        HighWatermark hw = HighWatermark.fromCheckpoint(50, 0, LOG_END);

        assertThat(hw.maybeIncrement(new LogOffsetMetadata(60, 40, 123), LOG_END, 90)).isTrue();
        assertThat(hw.metadata()).as("a position in an older segment may be stale")
            .isEqualTo(LogOffsetMetadata.unknownPosition(60));

        assertThat(hw.maybeIncrement(new LogOffsetMetadata(95, 90, 300), LOG_END, 90)).isTrue();
        assertThat(hw.metadata()).isEqualTo(new LogOffsetMetadata(95, 90, 300));
    }

    @Test
    void incrementIsCappedAtTheLogEndAndTakesItsPosition() {
        HighWatermark hw = HighWatermark.fromCheckpoint(50, 0, LOG_END);

        assertThat(hw.maybeIncrement(LogOffsetMetadata.unknownPosition(1_000), LOG_END, 90)).isTrue();

        assertThat(hw.metadata()).isSameAs(LOG_END);
    }

    @Test
    void incrementNeverMovesDownButLearnsAMissingPosition() {
        HighWatermark hw = HighWatermark.fromCheckpoint(95, 0, LOG_END);

        assertThat(hw.maybeIncrement(new LogOffsetMetadata(94, 90, 200), LOG_END, 90)).isFalse();
        assertThat(hw.maybeIncrement(LogOffsetMetadata.unknownPosition(95), LOG_END, 90)).isFalse();
        assertThat(hw.maybeIncrement(new LogOffsetMetadata(95, 90, 300), LOG_END, 90)).isTrue();
        assertThat(hw.metadata()).isEqualTo(new LogOffsetMetadata(95, 90, 300));
        assertThat(hw.maybeIncrement(new LogOffsetMetadata(95, 90, 300), LOG_END, 90)).as("nothing new").isFalse();
    }

    @Test
    void updateMovesEitherWayWithinLogStartAndLogEnd() {
        HighWatermark hw = HighWatermark.fromCheckpoint(95, 0, LOG_END);

        hw.update(20, 10, LOG_END);
        assertThat(hw.metadata()).isEqualTo(LogOffsetMetadata.unknownPosition(20));

        hw.update(5, 10, LOG_END);
        assertThat(hw.offset()).isEqualTo(10);

        hw.update(1_000, 10, LOG_END);
        assertThat(hw.metadata()).isSameAs(LOG_END);
    }

    @Test
    void positionInARemovedSegmentIsForgotten(@TempDir File dir) throws IOException {
        LogSegment segment40 = LogSegment.open(dir, 40, 1024, 4096, 0, false, 0, new MockTime(), false, "");
        LogSegment segment70 = LogSegment.open(dir, 70, 1024, 4096, 0, false, 0, new MockTime(), false, "");
        try {
            HighWatermark hw = HighWatermark.fromCheckpoint(0, 0, LOG_END);
            hw.set(new LogOffsetMetadata(60, 40, 123));

            hw.forgetPositionIn(List.of(segment70));
            assertThat(hw.metadata()).isEqualTo(new LogOffsetMetadata(60, 40, 123));

            hw.forgetPositionIn(List.of(segment70, segment40));
            assertThat(hw.metadata()).isEqualTo(LogOffsetMetadata.unknownPosition(60));
        } finally {
            segment40.close();
            segment70.close();
        }
    }
}
