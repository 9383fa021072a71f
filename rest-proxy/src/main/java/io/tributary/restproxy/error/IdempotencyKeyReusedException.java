package io.tributary.restproxy.error;

/**
 * An {@code Idempotency-Key} sent again with another request (another topic or other records)
 * than the one it was first committed with: refused, since answering the first request's outcome
 * would tell the caller that records it never sent were written.
 */
public final class IdempotencyKeyReusedException extends RestException {

    public IdempotencyKeyReusedException(String key) {
        super("Idempotency-Key '" + key + "' was already used for another request; a retry must repeat the "
            + "topic and records exactly");
    }
}
