package io.tributary.restproxy.error;

/** No coordinator knows the transactional id, or the partition has no open transaction of the producer. */
public final class TransactionNotFoundException extends RestException {

    public TransactionNotFoundException(String message) {
        super(message);
    }
}
