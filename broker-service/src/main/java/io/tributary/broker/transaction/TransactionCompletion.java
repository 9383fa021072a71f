package io.tributary.broker.transaction;

import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a transaction, as Kafka's coordinator runs it (KIP-98): PrepareCommit or PrepareAbort
 * is written first (from then on the outcome is decided and the client is answered), then the
 * markers go to every partition of the transaction ({@link TransactionMarkerWriter}), then
 * CompleteCommit or CompleteAbort is written. A coordinator that loads an id found in Prepare*
 * (its predecessor stopped between the two writes) sends the markers again and completes it.
 *
 * <p>Thread-safety: thread-safe; each step runs when the one before completes, on the thread that
 * completed it.
 */
final class TransactionCompletion {

    private static final Logger log = LoggerFactory.getLogger(TransactionCompletion.class);
    private static final long RETRY_BACKOFF_MS = 100;

    private final TransactionStateManager state;
    private final TransactionMarkerWriter markers;
    private final Time time;

    TransactionCompletion(TransactionStateManager state, TransactionMarkerWriter markers, Time time) {
        this.state = state;
        this.markers = markers;
        this.time = time;
    }

    /**
     * Ends the open transaction of {@code current}, the id's current (Ongoing) metadata.
     *
     * @return completes with the error of the Prepare* write (NONE once the outcome is durable); the
     *         markers and the Complete* write follow in the background
     */
    CompletableFuture<Errors> end(TransactionMetadata current, boolean commit) {
        return prepareAndComplete(current, current.withEndPrepared(commit, time.milliseconds()));
    }

    /**
     * Fences the producer of the open transaction of {@code current} and aborts the transaction: the
     * epoch is bumped (PrepareEpochFence, never written) and PrepareAbort written with it, so the
     * fenced producer's writes and EndTxn fail (PRODUCER_FENCED).
     */
    CompletableFuture<Errors> fenceAndAbort(TransactionMetadata current) {
        long now = time.milliseconds();
        return prepareAndComplete(current, current.withEpochFenced(now).withEndPrepared(false, now));
    }

    private CompletableFuture<Errors> prepareAndComplete(TransactionMetadata current, TransactionMetadata prepared) {
        return state.write(current, prepared).thenApply(error -> {
            if (error == Errors.NONE) {
                sendMarkersAndComplete(prepared);
            }
            return error;
        });
    }

    /** Finishes every loaded transaction that was ending when the previous coordinator stopped. */
    void resume(List<TransactionMetadata> loaded) {
        for (TransactionMetadata m : loaded) {
            if (m.state() == TransactionState.PREPARE_COMMIT || m.state() == TransactionState.PREPARE_ABORT) {
                log.info("Resuming the {} of {} (producer {}, epoch {})", m.state().stateName(), m.transactionalId(),
                    m.producerId(), m.producerEpoch());
                sendMarkersAndComplete(m);
            }
        }
    }

    private void sendMarkersAndComplete(TransactionMetadata prepared) {
        OptionalInt coordinatorEpoch = state.coordinatorEpoch(prepared.transactionalId());
        if (coordinatorEpoch.isEmpty()) {
            return; // no longer the coordinator: the next one resumes it
        }
        boolean commit = prepared.state() == TransactionState.PREPARE_COMMIT;
        int epoch = coordinatorEpoch.getAsInt();
        String id = prepared.transactionalId();
        markers.writeMarkers(prepared.producerId(), prepared.producerEpoch(), epoch, commit, prepared.partitions(),
                () -> state.coordinatorEpoch(id).equals(OptionalInt.of(epoch)))
            .whenComplete((written, failure) -> {
                if (failure != null) {
                    log.info("Markers of {} not all written here ({}); the next coordinator writes them",
                        prepared.transactionalId(), failure.toString());
                } else {
                    complete(prepared);
                }
            });
    }

    /** Writes Complete*; a write the ISR could not take yet is retried after {@value #RETRY_BACKOFF_MS} ms. */
    private void complete(TransactionMetadata prepared) {
        state.write(prepared, prepared.withCompleted(time.milliseconds())).thenAccept(error -> {
            if (error == Errors.COORDINATOR_NOT_AVAILABLE) {
                CompletableFuture.delayedExecutor(RETRY_BACKOFF_MS, TimeUnit.MILLISECONDS).execute(() -> complete(prepared));
            } else if (error != Errors.NONE) {
                log.info("Did not record the completion of {} here: {}", prepared.transactionalId(), error);
            }
        });
    }
}
