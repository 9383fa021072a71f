package io.tributary.broker.transaction;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.transaction.TransactionLog;
import org.apache.kafka.server.common.TransactionVersion;

/**
 * Keys and values of {@code __transaction_state} in Kafka's layouts (Kafka's own
 * {@code TransactionLogKey} and {@code TransactionLogValue}, through its {@link TransactionLog}
 * codec), so the topic reads like Kafka's: the key is a transactional id; the value its
 * {@link TransactionMetadata}; a null value (tombstone) removes the id.
 *
 * <p>The partition of an id is {@code abs(hashCode) % transaction.state.log.num.partitions}, as
 * Kafka computes it, so a client's FindCoordinator lands on the same partition on either broker.
 *
 * <p>Thread-safety: stateless.
 */
public final class TransactionLogRecords {

    private TransactionLogRecords() {
    }

    /** The {@code __transaction_state} partition that holds {@code transactionalId}. */
    public static int partitionFor(String transactionalId, int numPartitions) {
        return Utils.abs(transactionalId.hashCode()) % numPartitions;
    }

    /** The record key of {@code transactionalId}. */
    public static byte[] key(String transactionalId) {
        return TransactionLog.keyToBytes(transactionalId);
    }

    /**
     * The record value of {@code metadata} at a finalized {@code transaction.version}: value
     * version 0 at level 0, the flexible version 1 from level 1 on (KIP-890), as Kafka's
     * coordinator writes them. Both are read by every Kafka 3.x/4.x broker and by {@link #read}.
     *
     * @throws IllegalStateException for metadata Kafka never writes (Empty with partitions, say)
     */
    public static byte[] value(TransactionMetadata metadata, TransactionVersion transactionVersion) {
        return TransactionLog.valueToBytes(metadata.toTransit(), transactionVersion);
    }

    /** The value at transaction version 0. */
    public static byte[] value(TransactionMetadata metadata) {
        return value(metadata, TransactionVersion.TV_0);
    }

    /**
     * What one record says: an id's metadata, or its removal; empty for a record this broker cannot
     * read (a key or value version it does not know), which the loader skips with a warning as
     * Kafka's does.
     *
     * @throws RuntimeException from Kafka's decoder for a malformed record
     */
    public static Optional<Read> read(ByteBuffer key, ByteBuffer value) {
        TransactionLog.ReadResult result = TransactionLog.read(key, value);
        if (result instanceof TransactionLog.TxnRecord txn) {
            org.apache.kafka.coordinator.transaction.TransactionMetadata m = txn.metadata();
            // Kafka's decoded metadata does not expose NextProducerId (a tagged field of value
            // version 1, for transaction version 2 only); version 0 has none.
            return Optional.of(new Read.Metadata(new TransactionMetadata(txn.transactionId(), m.producerId(),
                m.prevProducerId(), RecordBatch.NO_PRODUCER_ID, m.producerEpoch(), m.lastProducerEpoch(), m.txnTimeoutMs(),
                m.state(), m.topicPartitions(), m.txnStartTimestamp(), m.txnLastUpdateTimestamp(),
                m.clientTransactionVersion())));
        }
        if (result instanceof TransactionLog.TxnTombstone tombstone) {
            return Optional.of(new Read.Tombstone(tombstone.transactionId()));
        }
        return Optional.empty();
    }

    /** One record of {@code __transaction_state}, read. */
    public sealed interface Read {

        /** The id's metadata as of this record. */
        record Metadata(TransactionMetadata metadata) implements Read {
        }

        /** The id was removed. */
        record Tombstone(String transactionalId) implements Read {
        }
    }
}
