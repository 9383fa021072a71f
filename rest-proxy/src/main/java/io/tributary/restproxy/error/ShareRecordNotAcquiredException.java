package io.tributary.restproxy.error;

/**
 * An acknowledgement named a record that the share consumer instance does not hold: it was never
 * returned by the instance, was acknowledged already, or its acquisition lock expired on the
 * broker (Kafka's {@code InvalidRecordStateException}, KIP-932) so the record went back to the
 * share group and may be delivered to another consumer.
 */
public final class ShareRecordNotAcquiredException extends RestException {

    public ShareRecordNotAcquiredException(String message) {
        super(message);
    }
}
