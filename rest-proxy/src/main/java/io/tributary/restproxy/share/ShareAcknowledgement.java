package io.tributary.restproxy.share;

import org.apache.kafka.clients.consumer.AcknowledgeType;

/**
 * How to acknowledge one record a share consumer instance delivered (KIP-932): {@code ACCEPT}
 * (processed, never delivered again), {@code RELEASE} (back to the group for another delivery, its
 * delivery count then one higher), {@code REJECT} (unprocessable, never delivered again) or
 * {@code RENEW} (keep it: its acquisition lock is extended and the instance's next read returns it
 * again, to be acknowledged then; KIP-1222).
 */
public record ShareAcknowledgement(RecordId record, AcknowledgeType type) {

    /** A record of a topic-partition, by offset. */
    public record RecordId(String topic, int partition, long offset) {

        @Override
        public String toString() {
            return topic + "-" + partition + "@" + offset;
        }
    }
}
