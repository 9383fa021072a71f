package io.tributary.restproxy.share;

import io.tributary.restproxy.error.IllegalConsumerStateException;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.ShareBatchNotAcknowledgedException;
import io.tributary.restproxy.error.ShareRecordNotAcquiredException;
import io.tributary.restproxy.share.ShareAcknowledgement.RecordId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.ShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.errors.InvalidRecordStateException;

/**
 * What a share consumer instance does with its Kafka {@link ShareConsumer} (KIP-932, explicit
 * acknowledgement), and the state it keeps: the subscription and the {@link HeldRecords}.
 *
 * <p>Acknowledging: each record named must be held (delivered by this instance, not acknowledged
 * yet); all are checked before any is acknowledged. Then Kafka's {@code acknowledge(record, type)}
 * marks each and {@code commitSync} sends them to the brokers; a
 * partition whose acknowledgements the broker refused fails the call: with Kafka's
 * {@link InvalidRecordStateException} (the acquisition lock expired, the record went back to the
 * group) as a {@link ShareRecordNotAcquiredException}, with any other error as a
 * {@link KafkaOperationException}. The records are no longer held either way. A {@code RENEW}ed
 * record counts as acknowledged too: Kafka's share consumer extends its lock and returns it again
 * from the next poll (KIP-1222), where it is held anew.
 *
 * <p>Not thread-safe: confined to the instance's poll thread.
 */
final class ShareOperations {

    /** How long a {@code commitSync} of acknowledgements may take. */
    static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(30);

    private final ShareConsumer<byte[], byte[]> consumer;
    private final HeldRecords held = new HeldRecords();

    ShareOperations(ShareConsumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /** Subscribes to {@code topics}, replacing the earlier list. */
    void subscribe(List<String> topics) {
        consumer.subscribe(topics);
    }

    Set<String> subscription() {
        return consumer.subscription();
    }

    /** Whether the next read may poll: subscribed, and every record of the last poll acknowledged. */
    boolean mayPoll() {
        return held.isEmpty() && !consumer.subscription().isEmpty();
    }

    /**
     * The held batch if no reader got it yet (then marked delivered), else null when the reader should
     * wait for a poll.
     *
     * @throws ShareBatchNotAcknowledgedException when a delivered batch is not all acknowledged
     * @throws IllegalConsumerStateException when not subscribed
     */
    List<ConsumerRecord<byte[], byte[]>> takeUndelivered() {
        if (!held.isEmpty()) {
            if (held.delivered()) {
                throw new ShareBatchNotAcknowledgedException(held.size() + " records returned before are not "
                    + "acknowledged yet (" + summary(held.ids()) + "): acknowledge them (ACCEPT, RELEASE or REJECT) "
                    + "before reading more");
            }
            held.markDelivered();
            return held.records();
        }
        if (consumer.subscription().isEmpty()) {
            throw new IllegalConsumerStateException(new IllegalStateException(
                "The share consumer instance is not subscribed to any topic"));
        }
        return null;
    }

    /** Holds the records of a poll; returns them in order. */
    List<ConsumerRecord<byte[], byte[]>> hold(ConsumerRecords<byte[], byte[]> records) {
        held.hold(records);
        return held.records();
    }

    void markDelivered() {
        held.markDelivered();
    }

    /** Records held now. */
    int heldCount() {
        return held.size();
    }

    /**
     * Acknowledges the given records, or with {@code all} every held and delivered record as
     * {@code allType}, and commits the acknowledgements.
     *
     * @return how many records were acknowledged
     * @throws ShareRecordNotAcquiredException for a record not held, or refused as not acquired by the broker
     * @throws KafkaOperationException when the broker refused the acknowledgements of a partition otherwise
     */
    int acknowledge(List<ShareAcknowledgement> acknowledgements, AcknowledgeType allType) {
        Map<RecordId, AcknowledgeType> wanted = new LinkedHashMap<>();
        if (acknowledgements == null) {
            if (held.delivered()) {
                held.ids().forEach(id -> wanted.put(id, allType));
            }
        } else {
            List<RecordId> unknown = new ArrayList<>();
            for (ShareAcknowledgement ack : acknowledgements) {
                if (!held.contains(ack.record()) || !held.delivered()) {
                    unknown.add(ack.record());
                }
                wanted.put(ack.record(), ack.type());
            }
            if (!unknown.isEmpty()) {
                throw new ShareRecordNotAcquiredException("This share consumer instance does not hold "
                    + summary(unknown) + ": never delivered by it, acknowledged already, or released when the "
                    + "instance was closed; nothing was acknowledged");
            }
        }
        for (Map.Entry<RecordId, AcknowledgeType> entry : wanted.entrySet()) {
            RecordId id = entry.getKey();
            // By record: Kafka's acknowledge(topic, partition, offset, type) is for records it could not deserialize.
            consumer.acknowledge(held.record(id), entry.getValue());
            held.release(id);
        }
        if (!wanted.isEmpty()) {
            commit();
        }
        return wanted.size();
    }

    private void commit() {
        Map<TopicIdPartition, Optional<KafkaException>> results = consumer.commitSync(COMMIT_TIMEOUT);
        List<String> notAcquired = new ArrayList<>();
        KafkaException other = null;
        for (Map.Entry<TopicIdPartition, Optional<KafkaException>> result : results.entrySet()) {
            if (result.getValue().isEmpty()) {
                continue;
            }
            KafkaException failure = result.getValue().get();
            String partition = result.getKey().topic() + "-" + result.getKey().partition();
            if (failure instanceof InvalidRecordStateException) {
                notAcquired.add(partition);
            } else if (other == null) {
                other = failure;
            }
        }
        if (other != null) {
            throw new KafkaOperationException(other);
        }
        if (!notAcquired.isEmpty()) {
            throw new ShareRecordNotAcquiredException("The brokers refused the acknowledgements of " + notAcquired
                + ": the records are no longer acquired by this instance (their acquisition lock expired, "
                + "share.record.lock.duration.ms) and went back to the share group");
        }
    }

    private static String summary(List<RecordId> ids) {
        return ids.size() <= 5 ? ids.toString() : ids.subList(0, 5) + " and " + (ids.size() - 5) + " more";
    }
}
