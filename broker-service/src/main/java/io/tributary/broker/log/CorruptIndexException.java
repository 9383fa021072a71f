package io.tributary.broker.log;

/** An index file breaks its invariants; the index is rebuilt from the segment. */
public class CorruptIndexException extends RuntimeException {
    public CorruptIndexException(String message) {
        super(message);
    }
}
