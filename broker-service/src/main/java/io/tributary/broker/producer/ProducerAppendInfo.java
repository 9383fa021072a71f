package io.tributary.broker.producer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.TransactionCoordinatorFencedException;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates the batches of one producer in one append against that producer's state and
 * collects the updated state, which is committed only after the write succeeds.
 *
 * <p>Rules (Kafka's, KIP-98 and KIP-360): an epoch below the current one is fenced
 * ({@code INVALID_PRODUCER_EPOCH}); a new epoch must start at sequence 0; within an epoch each
 * batch's first sequence follows the last one written ({@code OUT_OF_ORDER_SEQUENCE_NUMBER}
 * otherwise); a producer with no state on this partition (new, or expired) may start anywhere.
 *
 * <p>Transactions (KIP-98): a producer's first transactional batch here opens its transaction at
 * that batch's offset, and a non-transactional batch while one is open is refused
 * ({@code INVALID_TXN_STATE}); a marker (a control batch with one COMMIT or ABORT record) closes it
 * and yields a {@link CompletedTxn}. A marker from a coordinator epoch older than the last one seen
 * is refused ({@code TRANSACTION_COORDINATOR_FENCED}). Followers and recovery take markers and
 * batches as written, with a warning where a leader would have refused them.
 *
 * <p>Verification (KIP-890 part 1): when a client's or a coordinator's append is checked (its guard
 * is not {@link VerificationGuard#NOT_REQUIRED}; the coordinator's is a transactional offset commit),
 * a transactional batch that would open a transaction here needs the guard of the producer's
 * verification ({@code INVALID_TXN_STATE} otherwise, "Record was not part of an ongoing
 * transaction"), and a client's batch above the lowest sequence waiting for that verification is
 * refused (OUT_OF_ORDER_SEQUENCE_NUMBER).
 *
 * <p>Not thread-safe: used under the log's lock.
 */
public final class ProducerAppendInfo {

    private static final Logger log = LoggerFactory.getLogger(ProducerAppendInfo.class);

    private final TopicPartition topicPartition;
    private final long producerId;
    private final ProducerStateEntry currentEntry;
    private final ProducerStateEntry updatedEntry;
    private final AppendOrigin origin;
    private final VerificationStateEntry verification;
    private final VerificationGuard requestGuard;
    private boolean sawTransactionalBatch;
    private final List<TxnMetadata> startedTransactions = new ArrayList<>();
    private final List<CompletedTxn> completedTransactions = new ArrayList<>();

    ProducerAppendInfo(TopicPartition topicPartition, long producerId, ProducerStateEntry currentEntry, AppendOrigin origin,
                       VerificationStateEntry verification, VerificationGuard requestGuard) {
        this.topicPartition = topicPartition;
        this.producerId = producerId;
        this.currentEntry = currentEntry;
        this.origin = origin;
        this.verification = verification;
        // A client's batches and a transactional offset commit's (the group coordinator's) are verified;
        // replicated and recovered ones never.
        this.requestGuard = origin == AppendOrigin.CLIENT || origin == AppendOrigin.COORDINATOR ? requestGuard
            : VerificationGuard.NOT_REQUIRED;
        this.updatedEntry = new ProducerStateEntry(producerId, currentEntry.producerEpoch(), currentEntry.lastTimestamp());
        this.updatedEntry.coordinatorEpoch(currentEntry.coordinatorEpoch());
        this.updatedEntry.currentTxnFirstOffset(currentEntry.currentTxnFirstOffset());
    }

    public long producerId() {
        return producerId;
    }

    ProducerStateEntry updatedEntry() {
        return updatedEntry;
    }

    /** Whether this append held a transactional batch or a marker of the producer: its verification is over. */
    boolean sawTransactionalBatch() {
        return sawTransactionalBatch;
    }

    /** Transactions this append opened, in offset order. */
    List<TxnMetadata> startedTransactions() {
        return startedTransactions;
    }

    /** Transactions this append's markers closed, in offset order. */
    public List<CompletedTxn> completedTransactions() {
        return completedTransactions;
    }

    /**
     * Validates a batch (already carrying its final offsets) and records it.
     *
     * @param appendTimeMs broker time of the append, ms (drives producer expiry)
     * @throws InvalidProducerEpochException  when the epoch is older than the producer's current one
     * @throws OutOfOrderSequenceException    when the sequence does not follow the last one written
     * @throws InvalidTxnStateException       for a non-transactional batch in an open transaction, or
     *                                        a control batch that is not a transaction marker
     * @throws TransactionCoordinatorFencedException for a marker of an older coordinator epoch
     */
    public void append(RecordBatch batch, long appendTimeMs) {
        short epoch = batch.producerEpoch();
        sawTransactionalBatch |= batch.isTransactional();
        if (batch.isControlBatch()) {
            Iterator<Record> records = batch.iterator();
            if (records.hasNext()) {
                // An empty control batch is a marker the cleaner emptied: its transaction is gone.
                appendEndTxnMarker(EndTransactionMarker.deserialize(records.next()), epoch, batch.baseOffset(),
                    appendTimeMs);
            }
            return;
        }
        int firstSeq = batch.baseSequence();
        checkProducerEpoch(epoch, batch.baseOffset());
        checkVerified(batch);
        if (origin == AppendOrigin.CLIENT) {
            checkSequence(epoch, firstSeq, batch.baseOffset());
        }
        updatedEntry.addBatch(epoch, batch.lastSequence(), batch.lastOffset(),
            (int) (batch.lastOffset() - batch.baseOffset()), batch.maxTimestamp());
        updatedEntry.setLastTimestamp(appendTimeMs);
        long txnFirstOffset = updatedEntry.currentTxnFirstOffset();
        if (batch.isTransactional() && txnFirstOffset == ProducerStateEntry.NO_TRANSACTION) {
            updatedEntry.currentTxnFirstOffset(batch.baseOffset());
            startedTransactions.add(TxnMetadata.started(producerId, batch.baseOffset()));
        } else if (!batch.isTransactional() && txnFirstOffset != ProducerStateEntry.NO_TRANSACTION) {
            refuseOrWarn(new InvalidTxnStateException("Expected a transactional write from producer " + producerId
                + " at offset " + batch.baseOffset() + " in " + topicPartition + ": its transaction is open since offset "
                + txnFirstOffset));
        }
    }

    private void appendEndTxnMarker(EndTransactionMarker marker, short epoch, long offset, long appendTimeMs) {
        checkProducerEpoch(epoch, offset);
        if (updatedEntry.coordinatorEpoch() > marker.coordinatorEpoch()) {
            refuseOrWarn(new TransactionCoordinatorFencedException("Marker of producer " + producerId + " at offset "
                + offset + " in " + topicPartition + " is from coordinator epoch " + marker.coordinatorEpoch()
                + ", older than the last seen " + updatedEntry.coordinatorEpoch()));
        }
        updatedEntry.maybeUpdateEpoch(epoch);
        long firstOffset = updatedEntry.currentTxnFirstOffset() == ProducerStateEntry.NO_TRANSACTION
            ? offset : updatedEntry.currentTxnFirstOffset();
        updatedEntry.currentTxnFirstOffset(ProducerStateEntry.NO_TRANSACTION);
        updatedEntry.coordinatorEpoch(marker.coordinatorEpoch());
        updatedEntry.setLastTimestamp(appendTimeMs);
        completedTransactions.add(new CompletedTxn(producerId, firstOffset, offset,
            marker.controlType() == ControlRecordType.ABORT));
    }

    /** A leader refuses what breaks the rules; a follower or recovery takes the log as written. */
    private void refuseOrWarn(RuntimeException e) {
        if (origin == AppendOrigin.REPLICATION || origin == AppendOrigin.LOG) {
            log.warn(e.getMessage());
        } else {
            throw e;
        }
    }

    private void checkProducerEpoch(short epoch, long offset) {
        if (epoch < updatedEntry.producerEpoch()) {
            refuseOrWarn(new InvalidProducerEpochException("Epoch of producer " + producerId + " at offset " + offset
                + " in " + topicPartition + " is " + epoch + ", which is smaller than the last seen epoch "
                + updatedEntry.producerEpoch()));
        }
    }

    private void checkVerified(RecordBatch batch) {
        if (requestGuard == VerificationGuard.NOT_REQUIRED) {
            return;
        }
        if (batch.isTransactional() && updatedEntry.currentTxnFirstOffset() == ProducerStateEntry.NO_TRANSACTION
                && (verification == null || !verification.guard().verifies(requestGuard))) {
            throw new InvalidTxnStateException("Record was not part of an ongoing transaction: producer " + producerId
                + " has no verified transaction on " + topicPartition);
        }
        if (origin == AppendOrigin.CLIENT && verification != null && batch.producerEpoch() == verification.epoch()
                && batch.baseSequence() > verification.lowestSequence()) {
            throw new OutOfOrderSequenceException("Out of order sequence number for producer " + producerId + " at "
                + "offset " + batch.baseOffset() + " in " + topicPartition + ": " + batch.baseSequence()
                + " (incoming seq. number), " + verification.lowestSequence() + " (earliest seen sequence)");
        }
    }

    private void checkSequence(short epoch, int appendFirstSeq, long offset) {
        if (epoch != updatedEntry.producerEpoch()) {
            if (appendFirstSeq != 0 && updatedEntry.producerEpoch() != RecordBatch.NO_PRODUCER_EPOCH) {
                throw new OutOfOrderSequenceException("Invalid sequence number for new epoch " + epoch + " of producer "
                    + producerId + " at offset " + offset + " in " + topicPartition + ": " + appendFirstSeq
                    + " (request epoch), 0 expected");
            }
            return;
        }
        int currentLastSeq;
        if (!updatedEntry.isEmpty()) {
            currentLastSeq = updatedEntry.lastSeq();
        } else if (epoch == currentEntry.producerEpoch()) {
            currentLastSeq = currentEntry.lastSeq();
        } else {
            currentLastSeq = RecordBatch.NO_SEQUENCE;
        }
        // With no state for this producer (new, expired, or removed by retention) the first batch may
        // start at any sequence; later batches of the same append follow it like any others.
        boolean hasState = currentEntry.producerEpoch() != RecordBatch.NO_PRODUCER_EPOCH || !updatedEntry.isEmpty();
        if (hasState && !inSequence(currentLastSeq, appendFirstSeq)) {
            throw new OutOfOrderSequenceException("Out of order sequence number for producer " + producerId
                + " at offset " + offset + " in " + topicPartition + ": " + appendFirstSeq + " (incoming seq. number), "
                + currentLastSeq + " (current end sequence number)");
        }
    }

    /** Whether {@code nextSeq} directly follows {@code lastSeq}; sequences wrap from Integer.MAX_VALUE to 0. */
    private static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == DefaultRecordBatch.incrementSequence(lastSeq, 1);
    }
}
