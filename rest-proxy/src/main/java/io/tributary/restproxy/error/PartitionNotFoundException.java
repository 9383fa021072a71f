package io.tributary.restproxy.error;

/** The topic exists but lacks the partition named. */
public final class PartitionNotFoundException extends RestException {

    public PartitionNotFoundException(String message) {
        super(message);
    }
}
