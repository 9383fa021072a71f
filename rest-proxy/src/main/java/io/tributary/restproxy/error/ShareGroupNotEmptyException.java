package io.tributary.restproxy.error;

/** The share group has members (Kafka's NON_EMPTY_GROUP), so it cannot be deleted. */
public final class ShareGroupNotEmptyException extends RestException {

    public ShareGroupNotEmptyException(String message) {
        super(message);
    }
}
