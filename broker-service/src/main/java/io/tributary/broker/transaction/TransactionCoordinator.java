package io.tributary.broker.transaction;

import io.tributary.broker.producer.ProducerIdManager;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction coordinator's requests, as Kafka answers them for clients of transaction
 * version 0 and 1 (KIP-98, KIP-360, KIP-588): InitProducerId with a transactional id,
 * AddPartitionsToTxn, AddOffsetsToTxn and EndTxn, and the proactive abort of transactions past
 * their {@code transaction.timeout.ms}. Each request reads the id's current metadata, decides, and
 * writes the next metadata through the {@link TransactionStateManager}; the end of a transaction is
 * {@link TransactionCompletion}'s.
 *
 * <p>Errors, as Kafka's: NOT_COORDINATOR and COORDINATOR_LOAD_IN_PROGRESS (find the coordinator
 * again, retry); CONCURRENT_TRANSACTIONS while a write or the end of a transaction is in progress
 * (retriable); INVALID_PRODUCER_ID_MAPPING for a producer id the id does not have;
 * PRODUCER_FENCED for an older epoch; INVALID_TXN_STATE for a request the state does not allow;
 * INVALID_TRANSACTION_TIMEOUT above {@code transaction.max.timeout.ms}.
 *
 * <p>Thread-safety: thread-safe. InitProducerId of a new id may block on ZooKeeper for a block of
 * producer ids: call it from a request handler thread, never a network thread.
 */
public final class TransactionCoordinator {

    private static final Logger log = LoggerFactory.getLogger(TransactionCoordinator.class);

    /** What InitProducerId answers: an error, or the producer id and epoch to use. */
    public record InitProducerIdResult(Errors error, long producerId, short producerEpoch) {

        static InitProducerIdResult failed(Errors error) {
            return new InitProducerIdResult(error, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH);
        }
    }

    private final TransactionStateManager state;
    private final TransactionCompletion completion;
    private final ProducerIdManager producerIds;
    private final int maxTimeoutMs;
    private final Time time;

    /**
     * @param maxTimeoutMs {@code transaction.max.timeout.ms}: the largest transaction timeout a
     *                     client may ask for, ms
     */
    public TransactionCoordinator(TransactionStateManager state, TransactionMarkerWriter markers,
                                  ProducerIdManager producerIds, int maxTimeoutMs, Time time) {
        this.state = state;
        this.completion = new TransactionCompletion(state, markers, time);
        this.producerIds = producerIds;
        this.maxTimeoutMs = maxTimeoutMs;
        this.time = time;
    }

    /**
     * This broker became the leader of {@code __transaction_state} partition {@code partition} in
     * {@code leaderEpoch}: load its ids and finish the transactions that were ending.
     */
    public void onElection(int partition, int leaderEpoch) {
        state.loadPartition(partition, leaderEpoch, completion::resume);
    }

    /** This broker no longer leads the partition. */
    public void onResignation(int partition) {
        state.unloadPartition(partition);
    }

    /**
     * InitProducerId for {@code transactionalId}: a new producer id for a new id; else the epoch
     * bumped (a new producer id once the epoch is exhausted), which fences older instances. An open
     * transaction is aborted first and the client told CONCURRENT_TRANSACTIONS, so it retries.
     *
     * @param expectedProducerId    the id the producer had (KIP-360 recovery), or -1
     * @param expectedProducerEpoch its epoch, or -1
     */
    public CompletableFuture<InitProducerIdResult> initProducerId(String transactionalId, int transactionTimeoutMs,
                                                                  long expectedProducerId, short expectedProducerEpoch) {
        if (transactionalId.isEmpty()) {
            return done(InitProducerIdResult.failed(Errors.INVALID_REQUEST));
        }
        if (transactionTimeoutMs <= 0 || transactionTimeoutMs > maxTimeoutMs) {
            return done(InitProducerIdResult.failed(Errors.INVALID_TRANSACTION_TIMEOUT));
        }
        Errors coordinatorError = state.coordinatorError(transactionalId);
        if (coordinatorError != Errors.NONE) {
            return done(InitProducerIdResult.failed(coordinatorError));
        }
        long now = time.milliseconds();
        Optional<TransactionMetadata> existing = state.get(transactionalId);
        if (existing.isEmpty()) {
            long producerId;
            try {
                producerId = producerIds.generateProducerId();
            } catch (ApiException e) {
                return done(InitProducerIdResult.failed(Errors.forException(e)));
            }
            TransactionMetadata next = TransactionMetadata.initial(transactionalId, producerId, transactionTimeoutMs, now)
                .withEpoch((short) 0, RecordBatch.NO_PRODUCER_EPOCH, transactionTimeoutMs, now);
            return writeInit(null, next);
        }
        TransactionMetadata current = existing.get();
        if (expectedProducerId != RecordBatch.NO_PRODUCER_ID && expectedProducerId != current.producerId()
                && expectedProducerId != current.previousProducerId()) {
            return done(InitProducerIdResult.failed(Errors.PRODUCER_FENCED));
        }
        return switch (current.state()) {
            case EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT -> bumpEpoch(current, transactionTimeoutMs,
                expectedProducerId, expectedProducerEpoch, now);
            case ONGOING -> fenceAndAbort(current).thenApply(error -> InitProducerIdResult.failed(
                error == Errors.NONE ? Errors.CONCURRENT_TRANSACTIONS : error));
            default -> done(InitProducerIdResult.failed(Errors.CONCURRENT_TRANSACTIONS));
        };
    }

    private CompletableFuture<InitProducerIdResult> bumpEpoch(TransactionMetadata current, int timeoutMs,
                                                              long expectedProducerId, short expectedEpoch, long now) {
        if (expectedProducerId != RecordBatch.NO_PRODUCER_ID && expectedProducerId == current.previousProducerId()
                && expectedProducerId != current.producerId()) {
            // A retry after the rotation to a new producer id: the answer it missed.
            return done(new InitProducerIdResult(Errors.NONE, current.producerId(), current.producerEpoch()));
        }
        if (current.isProducerEpochExhausted()) {
            long producerId;
            try {
                producerId = producerIds.generateProducerId();
            } catch (ApiException e) {
                return done(InitProducerIdResult.failed(Errors.forException(e)));
            }
            return writeInit(current, current.withNewProducerId(producerId, timeoutMs, now));
        }
        short bumped = (short) (current.producerEpoch() + 1);
        TransactionMetadata next;
        if (expectedEpoch == RecordBatch.NO_PRODUCER_EPOCH) {
            next = current.withEpoch(bumped, RecordBatch.NO_PRODUCER_EPOCH, timeoutMs, now); // a new instance
        } else if (current.producerEpoch() == RecordBatch.NO_PRODUCER_EPOCH || expectedEpoch == current.producerEpoch()) {
            next = current.withEpoch(bumped, current.producerEpoch(), timeoutMs, now);       // KIP-360 recovery
        } else if (expectedEpoch == current.lastProducerEpoch()) {
            next = current.withEpoch(current.producerEpoch(), current.lastProducerEpoch(), timeoutMs, now); // a retry
        } else {
            return done(InitProducerIdResult.failed(Errors.PRODUCER_FENCED));
        }
        return writeInit(current, next);
    }

    private CompletableFuture<InitProducerIdResult> writeInit(TransactionMetadata current, TransactionMetadata next) {
        return state.write(current, next).thenApply(error -> error == Errors.NONE
            ? new InitProducerIdResult(Errors.NONE, next.producerId(), next.producerEpoch())
            : InitProducerIdResult.failed(error));
    }

    /** Fences the producer of an open transaction (its epoch is bumped) and aborts the transaction. */
    private CompletableFuture<Errors> fenceAndAbort(TransactionMetadata ongoing) {
        log.info("Fencing producer {} of {} at epoch {} and aborting its open transaction", ongoing.producerId(),
            ongoing.transactionalId(), ongoing.producerEpoch());
        return completion.fenceAndAbort(ongoing);
    }

    /**
     * AddPartitionsToTxn from a client (or AddOffsetsToTxn, with the group's offsets partition):
     * the partitions join the transaction, which becomes Ongoing.
     *
     * @return the error for every partition of the request
     */
    public CompletableFuture<Errors> addPartitions(String transactionalId, long producerId, short producerEpoch,
                                                   Set<TopicPartition> partitions) {
        Optional<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (checked.isEmpty()) {
            return done(producerError(transactionalId, producerId, producerEpoch));
        }
        TransactionMetadata current = checked.get();
        if (current.state() != TransactionState.ONGOING && current.state() != TransactionState.EMPTY
                && current.state() != TransactionState.COMPLETE_COMMIT && current.state() != TransactionState.COMPLETE_ABORT) {
            return done(Errors.CONCURRENT_TRANSACTIONS); // ending, or fenced
        }
        if (current.state() == TransactionState.ONGOING && current.partitions().containsAll(partitions)) {
            return done(Errors.NONE);
        }
        return state.write(current, current.withPartitionsAdded(partitions, time.milliseconds()));
    }

    /**
     * AddPartitionsToTxn with {@code VerifyOnly} (v4+, from a partition leader; KIP-890 part 1):
     * whether each partition is in the producer's ongoing transaction, without adding any. Answers
     * from memory, so it never waits. Every partition gets the same error when the producer does
     * not match (INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED), the transaction is ending or a change
     * of the id is being written (CONCURRENT_TRANSACTIONS) or this broker does not serve the id (NOT_COORDINATOR,
     * COORDINATOR_LOAD_IN_PROGRESS); otherwise NONE for a partition in the transaction and
     * TRANSACTION_ABORTABLE for one that is not, as Kafka answers.
     */
    public Map<TopicPartition, Errors> verifyPartitions(String transactionalId, long producerId, short producerEpoch,
                                                        Collection<TopicPartition> partitions) {
        Errors error = Errors.NONE;
        Optional<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (checked.isEmpty()) {
            error = producerError(transactionalId, producerId, producerEpoch);
        } else if (checked.get().state() == TransactionState.PREPARE_COMMIT
                || checked.get().state() == TransactionState.PREPARE_ABORT
                || state.isWriteInFlight(transactionalId)) {
            error = Errors.CONCURRENT_TRANSACTIONS; // ending, or changing (Kafka's pendingTransitionInProgress)
        }
        Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            errors.put(tp, error != Errors.NONE ? error
                : checked.get().partitions().contains(tp) ? Errors.NONE : Errors.TRANSACTION_ABORTABLE);
        }
        return errors;
    }

    /**
     * EndTxn from a client: commits or aborts the open transaction. A retry of an end already
     * done or under way is answered as Kafka does (NONE once complete, CONCURRENT_TRANSACTIONS
     * while the markers are written); the opposite outcome, or no transaction, is INVALID_TXN_STATE.
     */
    public CompletableFuture<Errors> endTransaction(String transactionalId, long producerId, short producerEpoch,
                                                    boolean commit) {
        Optional<TransactionMetadata> checked = checkProducer(transactionalId, producerId, producerEpoch);
        if (checked.isEmpty()) {
            return done(producerError(transactionalId, producerId, producerEpoch));
        }
        TransactionMetadata current = checked.get();
        return switch (current.state()) {
            case ONGOING -> completion.end(current, commit);
            case COMPLETE_COMMIT -> done(commit ? Errors.NONE : Errors.INVALID_TXN_STATE);
            case COMPLETE_ABORT -> done(commit ? Errors.INVALID_TXN_STATE : Errors.NONE);
            case PREPARE_COMMIT -> done(commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE);
            case PREPARE_ABORT -> done(commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS);
            case PREPARE_EPOCH_FENCE -> done(Errors.CONCURRENT_TRANSACTIONS);
            default -> done(Errors.INVALID_TXN_STATE);
        };
    }

    /**
     * Aborts, fencing their producers, the open transactions that outlived their
     * {@code transaction.timeout.ms}; run periodically ({@code transaction.abort.timed.out.transaction.cleanup.interval.ms}).
     *
     * @return the ids whose transaction is being aborted
     */
    public List<String> abortTimedOutTransactions() {
        long now = time.milliseconds();
        List<String> aborted = new ArrayList<>();
        for (TransactionMetadata m : state.all()) {
            if (m.state() == TransactionState.ONGOING && m.transactionStartTimeMs() + m.transactionTimeoutMs() < now
                    && !m.isProducerEpochExhausted()) {
                aborted.add(m.transactionalId());
                log.info("Aborting the transaction of {} (producer {}): open for more than {} ms", m.transactionalId(),
                    m.producerId(), m.transactionTimeoutMs());
                fenceAndAbort(m);
            }
        }
        return aborted;
    }

    /**
     * Removes the ids unused for {@code expirationMs} ({@code transactional.id.expiration.ms}, as
     * Kafka's {@code TransactionStateManager}): an id in Empty, CompleteCommit or CompleteAbort
     * whose metadata last changed that long ago goes Dead, written as a tombstone to
     * {@code __transaction_state}, and is forgotten; its next InitProducerId gets a new producer
     * id. Ids with a transaction open or ending are kept, however old.
     *
     * @return the ids whose removal was started
     */
    public List<String> expireTransactionalIds(long expirationMs) {
        long now = time.milliseconds();
        List<String> expired = new ArrayList<>();
        for (TransactionMetadata m : state.all()) {
            if (m.state().isExpirationAllowed() && m.lastUpdateTimeMs() <= now - expirationMs) {
                expired.add(m.transactionalId());
                state.write(m, m.withDead(now)).thenAccept(error -> {
                    if (error == Errors.NONE) {
                        log.info("Removed transactional id {} (producer {}): unused for {} ms", m.transactionalId(),
                            m.producerId(), expirationMs);
                    } else {
                        log.debug("Did not remove transactional id {}: {}", m.transactionalId(), error);
                    }
                });
            }
        }
        return expired;
    }

    /** What DescribeTransactions answers for one id: an error, or its metadata. */
    public record Described(Errors error, TransactionMetadata metadata) {
    }

    /**
     * DescribeTransactions of one id: NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS when this
     * broker does not serve it now, TRANSACTIONAL_ID_NOT_FOUND when it has no such id.
     */
    public Described describe(String transactionalId) {
        Errors error = state.coordinatorError(transactionalId);
        if (error != Errors.NONE) {
            return new Described(error, null);
        }
        return state.get(transactionalId).map(m -> new Described(Errors.NONE, m))
            .orElse(new Described(Errors.TRANSACTIONAL_ID_NOT_FOUND, null));
    }

    /**
     * ListTransactions (KIP-664, KIP-994): the ids this broker coordinates, filtered by state name
     * (Kafka's, e.g. "Ongoing"; none: every state), producer id (none: every id), how long the
     * transaction has been open ({@code minDurationMs}, -1: any), and a regular expression the id
     * must match (null: any).
     */
    public List<TransactionMetadata> list(Set<String> states, Set<Long> producerIds, long minDurationMs,
                                          java.util.regex.Pattern pattern) {
        long now = time.milliseconds();
        List<TransactionMetadata> out = new ArrayList<>();
        for (TransactionMetadata m : state.all()) {
            if ((states.isEmpty() || states.contains(m.state().stateName()))
                    && (producerIds.isEmpty() || producerIds.contains(m.producerId()))
                    && (minDurationMs < 0 || m.transactionStartTimeMs() >= 0 && now - m.transactionStartTimeMs() >= minDurationMs)
                    && (pattern == null || pattern.matcher(m.transactionalId()).matches())) {
                out.add(m);
            }
        }
        return out;
    }

    /** The id's metadata when this broker serves it and the producer id and epoch are its current ones. */
    private Optional<TransactionMetadata> checkProducer(String transactionalId, long producerId, short producerEpoch) {
        if (transactionalId.isEmpty() || state.coordinatorError(transactionalId) != Errors.NONE) {
            return Optional.empty();
        }
        return state.get(transactionalId)
            .filter(m -> m.producerId() == producerId && m.producerEpoch() == producerEpoch);
    }

    private Errors producerError(String transactionalId, long producerId, short producerEpoch) {
        if (transactionalId.isEmpty()) {
            return Errors.INVALID_REQUEST;
        }
        Errors coordinatorError = state.coordinatorError(transactionalId);
        if (coordinatorError != Errors.NONE) {
            return coordinatorError;
        }
        Optional<TransactionMetadata> m = state.get(transactionalId);
        if (m.isEmpty() || m.get().producerId() != producerId) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        return Errors.PRODUCER_FENCED;
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
