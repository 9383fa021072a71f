package io.tributary.restproxy.atomic;

import io.tributary.restproxy.produce.OutgoingRecord;

/**
 * One record of an atomic request.
 *
 * @param record      what to send
 * @param timestampMs its timestamp (ms since the epoch), or null for the producer's clock
 */
public record AtomicRecord(OutgoingRecord record, Long timestampMs) {
}
