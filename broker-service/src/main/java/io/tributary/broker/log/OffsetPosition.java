package io.tributary.broker.log;

/**
 * An offset index entry: the batch whose last offset is {@code offset} starts at byte
 * {@code position} of the segment file.
 *
 * @param offset   absolute offset
 * @param position byte position in the segment's {@code .log} file
 */
public record OffsetPosition(long offset, int position) {
}
