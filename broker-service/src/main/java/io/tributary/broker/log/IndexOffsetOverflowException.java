package io.tributary.broker.log;

/** An offset lies more than {@code Integer.MAX_VALUE} above a segment's base offset. */
public class IndexOffsetOverflowException extends RuntimeException {
    public IndexOffsetOverflowException(String message) {
        super(message);
    }
}
