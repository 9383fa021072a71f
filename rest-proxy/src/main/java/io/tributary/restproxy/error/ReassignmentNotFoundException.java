package io.tributary.restproxy.error;

/** No reassignment of the partition is in progress (Kafka's NO_REASSIGNMENT_IN_PROGRESS). */
public final class ReassignmentNotFoundException extends RestException {

    public ReassignmentNotFoundException(String message) {
        super(message);
    }
}
