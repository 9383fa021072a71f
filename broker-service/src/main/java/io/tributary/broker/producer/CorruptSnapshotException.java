package io.tributary.broker.producer;

/** A producer state snapshot fails its checksum or format checks. */
public class CorruptSnapshotException extends RuntimeException {
    public CorruptSnapshotException(String message) {
        super(message);
    }
}
