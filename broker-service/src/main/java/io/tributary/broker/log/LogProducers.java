package io.tributary.broker.log;

import io.tributary.broker.producer.ActiveProducer;
import io.tributary.broker.producer.ProducerStateManager;
import io.tributary.broker.producer.VerificationGuard;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.common.utils.Time;

/**
 * The producer state of one log as it is read and tended outside the append path: the producers
 * DescribeProducers reports, the expiry of idle producers, and the start of a transaction's
 * verification (KIP-890 part 1). Each call takes the log's lock for a few map operations and
 * does no I/O.
 *
 * <p>Thread-safe.
 */
public final class LogProducers {

    private final ReentrantLock lock;
    private final ProducerStateManager producerStateManager;
    private final Time time;

    LogProducers(ReentrantLock lock, ProducerStateManager producerStateManager, Time time) {
        this.lock = lock;
        this.producerStateManager = producerStateManager;
        this.time = time;
    }

    /** The producers with state here (DescribeProducers, KIP-664), by producer id. */
    public List<ActiveProducer> active() {
        lock.lock();
        try {
            return producerStateManager.describeProducers();
        } finally {
            lock.unlock();
        }
    }

    /** Drops idle producers and unfinished verifications ({@code producer.id.expiration.ms}). */
    public void removeExpired() {
        lock.lock();
        try {
            producerStateManager.removeExpiredProducers(time.milliseconds());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The guard a produce of a transactional batch must hold (KIP-890 part 1): a new or joined
     * verification's, to be confirmed by the transaction coordinator; or
     * {@link VerificationGuard#SENTINEL} when the producer's transaction is already open here.
     *
     * @param sequence the base sequence of the producer's first batch in the request
     */
    public VerificationGuard maybeStartTransactionVerification(long producerId, int sequence, short epoch) {
        lock.lock();
        try {
            return producerStateManager.maybeStartTransactionVerification(producerId, sequence, epoch,
                time.milliseconds());
        } finally {
            lock.unlock();
        }
    }
}
