package io.tributary.restproxy.error;

/**
 * A share consumer instance was asked for records while records it returned before are not all
 * acknowledged. In explicit acknowledgement mode Kafka's share consumer (KIP-932) may not poll
 * again until every record of its last poll is acknowledged; the proxy refuses the read rather
 * than release the records silently.
 */
public final class ShareBatchNotAcknowledgedException extends RestException {

    public ShareBatchNotAcknowledgedException(String message) {
        super(message);
    }
}
