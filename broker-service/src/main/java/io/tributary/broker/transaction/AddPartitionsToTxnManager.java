package io.tributary.broker.transaction;

import io.tributary.broker.replica.BrokerBlockingSender;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.kafka.clients.ClientResponse;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition leader's side of KIP-890 part 1, as Kafka's {@code AddPartitionsToTxnManager}:
 * before the first batch of a producer's transaction is appended to a partition, the leader asks
 * the transaction coordinator whether the partition is in that transaction (AddPartitionsToTxn
 * v4+ with {@code VerifyOnly}), so that a late or retried batch cannot open a transaction the
 * coordinator will never end (a hanging transaction).
 *
 * <p>The coordinator is the leader of the id's {@code __transaction_state} partition. When that
 * is this broker the answer comes from memory at once; otherwise the verifications for one
 * broker queue up and go in one request per round trip, over one connection and one thread per
 * destination (kafka-clients' {@code NetworkClient} through {@link BrokerBlockingSender}).
 *
 * <p>Answers, for the produce's partitions: an empty map when all are verified; else the error of
 * each one that is not, mapped as Kafka maps them for a producer: PRODUCER_FENCED becomes
 * INVALID_PRODUCER_EPOCH, TRANSACTION_ABORTABLE becomes INVALID_TXN_STATE for a produce older than
 * v11, a connection failure NETWORK_EXCEPTION, no coordinator COORDINATOR_NOT_AVAILABLE, and a
 * coordinator refusing this broker (CLUSTER_AUTHORIZATION_FAILED) INVALID_TXN_STATE. A broker that
 * does not serve v4 (UNSUPPORTED_VERSION) is not verified against: the produce goes on, as in Kafka.
 *
 * <p>Thread-safety: thread-safe. Futures of remote verifications complete on the destination's
 * thread.
 */
public final class AddPartitionsToTxnManager implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(AddPartitionsToTxnManager.class);
    /** One transaction's partitions waiting to be verified. */
    private record Pending(String transactionalId, long producerId, short producerEpoch, List<TopicPartition> partitions,
                           boolean abortableSupported, CompletableFuture<Map<TopicPartition, Errors>> result) {
    }

    /** A coordinator broker's queue, connection and thread. */
    private final class Destination {
        private final int brokerId;
        private final ExecutorService thread;
        private final List<Pending> queue = new ArrayList<>();
        private boolean flushScheduled;
        private BrokerBlockingSender sender;

        private Destination(int brokerId) {
            this.brokerId = brokerId;
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "add-partitions-to-txn-sender-" + brokerId);
                t.setDaemon(true);
                return t;
            });
        }

        private synchronized void enqueue(Pending pending) {
            queue.add(pending);
            if (!flushScheduled) {
                flushScheduled = true;
                try {
                    thread.execute(this::flush);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // Closing: nothing will send, so nothing waits.
                    flushScheduled = false;
                    queue.forEach(p -> p.result().complete(all(p.partitions(), Errors.NETWORK_EXCEPTION)));
                    queue.clear();
                }
            }
        }

        /** Sends everything queued since the last round trip, one request per distinct transactional id set. */
        private void flush() {
            List<Pending> batch;
            synchronized (this) {
                batch = new ArrayList<>(queue);
                queue.clear();
                flushScheduled = false;
            }
            while (!batch.isEmpty()) {
                // A transactional id appears once per request (it keys the request's map); a second
                // verification of the same id waits for the next round trip.
                Map<String, Pending> round = new LinkedHashMap<>();
                List<Pending> later = new ArrayList<>();
                for (Pending p : batch) {
                    if (round.putIfAbsent(p.transactionalId(), p) != null) {
                        later.add(p);
                    }
                }
                send(round);
                batch = later;
            }
        }

        private void send(Map<String, Pending> round) {
            try {
                Node node = nodeOf.apply(brokerId).orElseThrow(() -> new IOException(
                    "Broker " + brokerId + " has no inter-broker endpoint in the metadata"));
                if (sender == null) {
                    sender = connect.apply(brokerId);
                }
                AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection transactions =
                    new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection();
                for (Pending p : round.values()) {
                    transactions.add(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction()
                        .setTransactionalId(p.transactionalId()).setProducerId(p.producerId())
                        .setProducerEpoch(p.producerEpoch()).setVerifyOnly(true)
                        .setTopics(AddPartitionsToTxnRequest.Builder.forClient("", 0, (short) 0, p.partitions())
                            .data.v3AndBelowTopics()));
                }
                ClientResponse response = sender.sendRequest(node, AddPartitionsToTxnRequest.Builder.forBroker(transactions));
                complete(round, response);
            } catch (IOException | RuntimeException e) {
                log.warn("AddPartitionsToTxn (verify) to broker {} failed: {}", brokerId, e.toString());
                round.values().forEach(p -> p.result().complete(all(p.partitions(), Errors.NETWORK_EXCEPTION)));
            }
        }

        private void complete(Map<String, Pending> round, ClientResponse response) {
            if (response.versionMismatch() != null) {
                log.warn("Broker {} does not serve AddPartitionsToTxn v4: transactional produces are not verified",
                    brokerId);
                round.values().forEach(p -> p.result().complete(Map.of()));
                return;
            }
            AddPartitionsToTxnResponse body = (AddPartitionsToTxnResponse) response.responseBody();
            Errors topLevel = Errors.forCode(body.data().errorCode());
            if (topLevel != Errors.NONE) {
                log.error("AddPartitionsToTxn (verify) to broker {} failed with {}", brokerId, topLevel);
                Errors error = topLevel == Errors.CLUSTER_AUTHORIZATION_FAILED ? Errors.INVALID_TXN_STATE : topLevel;
                round.values().forEach(p -> p.result().complete(all(p.partitions(), error)));
                return;
            }
            Map<String, Map<TopicPartition, Errors>> errors = body.errors();
            for (Pending p : round.values()) {
                Map<TopicPartition, Errors> answered = errors.get(p.transactionalId());
                p.result().complete(answered == null ? all(p.partitions(), Errors.NETWORK_EXCEPTION)
                    : forProducer(answered, p.abortableSupported()));
            }
        }

        private void close() {
            thread.shutdownNow();
            BrokerBlockingSender s = sender;
            if (s != null) {
                s.wakeup();
                s.close();
            }
            synchronized (this) {
                queue.forEach(p -> p.result().complete(all(p.partitions(), Errors.NETWORK_EXCEPTION)));
                queue.clear();
            }
        }
    }

    private final int localBrokerId;
    private final TransactionCoordinator coordinator;
    private final Function<String, OptionalInt> coordinatorOf;
    private final IntFunction<Optional<Node>> nodeOf;
    private final IntFunction<BrokerBlockingSender> connect;
    private final Map<Integer, Destination> destinations = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private final TransactionMetrics metrics;
    private final org.apache.kafka.common.utils.Time time;

    /**
     * @param coordinatorOf the broker leading a transactional id's {@code __transaction_state}
     *                      partition, empty when it has no leader
     * @param nodeOf        a broker's inter-broker endpoint
     * @param connect       opens a connection to a broker
     * @param metrics       where verification times and failures are counted
     */
    public AddPartitionsToTxnManager(int localBrokerId, TransactionCoordinator coordinator,
                                     Function<String, OptionalInt> coordinatorOf, IntFunction<Optional<Node>> nodeOf,
                                     IntFunction<BrokerBlockingSender> connect, TransactionMetrics metrics,
                                     org.apache.kafka.common.utils.Time time) {
        this.metrics = metrics;
        this.time = time;
        this.localBrokerId = localBrokerId;
        this.coordinator = coordinator;
        this.coordinatorOf = coordinatorOf;
        this.nodeOf = nodeOf;
        this.connect = connect;
    }

    /**
     * Asks the producer's transaction coordinator whether {@code partitions} are in its ongoing
     * transaction.
     *
     * @param abortableSupported the produce is v11 or later, whose clients know TRANSACTION_ABORTABLE
     * @return the errors of the partitions not verified (empty: all verified); never fails
     */
    public CompletableFuture<Map<TopicPartition, Errors>> verifyTransaction(String transactionalId, long producerId,
            short producerEpoch, Collection<TopicPartition> partitions, boolean abortableSupported) {
        long startMs = time.milliseconds();
        return verify(transactionalId, producerId, producerEpoch, List.copyOf(partitions), abortableSupported)
            .whenComplete((unverified, failure) -> metrics.verified(time.milliseconds() - startMs,
                unverified == null ? partitions.size() : unverified.size()));
    }

    private CompletableFuture<Map<TopicPartition, Errors>> verify(String transactionalId, long producerId,
            short producerEpoch, List<TopicPartition> list, boolean abortableSupported) {
        OptionalInt coordinatorId = coordinatorOf.apply(transactionalId);
        if (coordinatorId.isEmpty()) {
            return CompletableFuture.completedFuture(all(list, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        if (coordinatorId.getAsInt() == localBrokerId) {
            return CompletableFuture.completedFuture(forProducer(
                coordinator.verifyPartitions(transactionalId, producerId, producerEpoch, list), abortableSupported));
        }
        if (closed) {
            return CompletableFuture.completedFuture(all(list, Errors.NETWORK_EXCEPTION));
        }
        CompletableFuture<Map<TopicPartition, Errors>> result = new CompletableFuture<>();
        destinations.computeIfAbsent(coordinatorId.getAsInt(), Destination::new)
            .enqueue(new Pending(transactionalId, producerId, producerEpoch, list, abortableSupported, result));
        return result;
    }

    /** The unverified partitions, with the coordinator's errors as a producer expects them. */
    private static Map<TopicPartition, Errors> forProducer(Map<TopicPartition, Errors> answered, boolean abortableSupported) {
        Map<TopicPartition, Errors> unverified = new LinkedHashMap<>();
        answered.forEach((tp, error) -> {
            if (error == Errors.PRODUCER_FENCED) {
                unverified.put(tp, Errors.INVALID_PRODUCER_EPOCH);
            } else if (error == Errors.TRANSACTION_ABORTABLE && !abortableSupported) {
                unverified.put(tp, Errors.INVALID_TXN_STATE);
            } else if (error != Errors.NONE) {
                unverified.put(tp, error);
            }
        });
        return unverified;
    }

    private static Map<TopicPartition, Errors> all(List<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
        partitions.forEach(tp -> errors.put(tp, error));
        return errors;
    }

    @Override
    public void close() {
        closed = true;
        destinations.values().forEach(Destination::close);
        destinations.clear();
    }
}
