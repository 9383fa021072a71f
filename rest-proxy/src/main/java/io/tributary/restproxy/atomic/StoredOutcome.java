package io.tributary.restproxy.atomic;

import java.util.List;

/**
 * What a committed atomic request wrote, as kept under its idempotency key: the value of its
 * record in the idempotency topic (JSON), written in the request's own transaction, so the key is
 * visible to read_committed readers exactly when the records are.
 *
 * @param fingerprint SHA-256 (hex) of the request's topic and body; a retry with another body is refused
 * @param createdMs   when it was committed (ms since the epoch, the proxy's clock)
 * @param records     where each record landed, in the request's order
 */
public record StoredOutcome(String fingerprint, long createdMs, List<Written> records) {

    public StoredOutcome {
        records = List.copyOf(records);
    }

    /**
     * Where one record landed.
     *
     * @param partition   the partition
     * @param offset      its offset
     * @param timestampMs its timestamp (ms), as the producer or broker set it
     */
    public record Written(int partition, long offset, long timestampMs) {
    }
}
