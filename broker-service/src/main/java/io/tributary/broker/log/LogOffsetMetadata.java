package io.tributary.broker.log;

/**
 * An offset with where it lies on disk, so reads up to it need no index lookup.
 *
 * @param messageOffset             the offset
 * @param segmentBaseOffset         base offset of the segment holding it, or -1 when unknown
 * @param relativePositionInSegment byte position within that segment, or -1 when unknown
 */
public record LogOffsetMetadata(long messageOffset, long segmentBaseOffset, int relativePositionInSegment) {

    static final long UNKNOWN_SEGMENT = -1L;

    /** An offset whose position is not known. */
    public static LogOffsetMetadata unknownPosition(long offset) {
        return new LogOffsetMetadata(offset, UNKNOWN_SEGMENT, -1);
    }

    /** Whether the on-disk position is known. */
    public boolean positionKnown() {
        return segmentBaseOffset != UNKNOWN_SEGMENT;
    }

    /** Whether both lie in the same segment (positions known). */
    public boolean onSameSegment(LogOffsetMetadata that) {
        return positionKnown() && that.positionKnown() && segmentBaseOffset == that.segmentBaseOffset;
    }

    /**
     * Bytes between {@code that} and this offset, both in the same segment.
     *
     * @throws IllegalStateException if they lie in different segments
     */
    public int positionDiff(LogOffsetMetadata that) {
        if (!onSameSegment(that)) {
            throw new IllegalStateException("Offsets " + this + " and " + that + " lie in different segments");
        }
        return relativePositionInSegment - that.relativePositionInSegment;
    }
}
