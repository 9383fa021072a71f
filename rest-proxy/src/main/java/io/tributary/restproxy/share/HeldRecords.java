package io.tributary.restproxy.share;

import io.tributary.restproxy.share.ShareAcknowledgement.RecordId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * The records of a share consumer instance's last poll that are not acknowledged yet: acquired by
 * its Kafka share consumer, locked for it on the broker until acknowledged or until the lock
 * expires. Kafka's share consumer in explicit mode may not poll again while any is held.
 *
 * <p>A batch is <em>delivered</em> once an HTTP reader got it; a batch polled for a reader that gave
 * up meanwhile is handed to the next reader instead.
 *
 * <p>Not thread-safe: confined to the instance's poll thread.
 */
final class HeldRecords {

    private final Map<RecordId, ConsumerRecord<byte[], byte[]>> held = new LinkedHashMap<>();
    private boolean delivered;

    /** Holds a new batch, not yet delivered. Only called when nothing is held. */
    void hold(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            held.put(new RecordId(record.topic(), record.partition(), record.offset()), record);
        }
        delivered = false;
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    int size() {
        return held.size();
    }

    boolean delivered() {
        return delivered;
    }

    void markDelivered() {
        delivered = true;
    }

    boolean contains(RecordId id) {
        return held.containsKey(id);
    }

    /** The record held under {@code id}, or null. */
    ConsumerRecord<byte[], byte[]> record(RecordId id) {
        return held.get(id);
    }

    /** Forgets an acknowledged record. */
    void release(RecordId id) {
        held.remove(id);
    }

    /** The records held, in the order polled. */
    List<ConsumerRecord<byte[], byte[]>> records() {
        return new ArrayList<>(held.values());
    }

    /** The ids of the records held, in the order polled. */
    List<RecordId> ids() {
        return new ArrayList<>(held.keySet());
    }
}
