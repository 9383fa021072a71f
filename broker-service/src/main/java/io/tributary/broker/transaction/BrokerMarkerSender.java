package io.tributary.broker.transaction;

import io.tributary.broker.replica.BrokerBlockingSender;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.apache.kafka.clients.ClientResponse;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;

/**
 * Sends WriteTxnMarkers to other brokers over the inter-broker listener, with kafka-clients'
 * {@code NetworkClient} (through {@link BrokerBlockingSender}, as the replica fetchers do): one
 * thread and one connection per destination broker, requests to it in order.
 *
 * <p>Errors: a connection failure, a timeout or a broker unknown to the metadata fails the
 * future, and {@link TransactionMarkerChannel} retries.
 *
 * <p>Thread-safety: thread-safe.
 */
public final class BrokerMarkerSender implements TransactionMarkerChannel.RemoteSender, Closeable {

    /** A destination's connection, used by its own thread only. */
    private static final class Destination {
        private final ExecutorService thread;
        private BrokerBlockingSender sender;

        private Destination(int brokerId) {
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "transaction-marker-sender-" + brokerId);
                t.setDaemon(true);
                return t;
            });
        }
    }

    private final Function<Integer, Optional<Node>> nodeOf;
    private final Function<Integer, BrokerBlockingSender> connect;
    private final Map<Integer, Destination> destinations = new ConcurrentHashMap<>();

    /**
     * @param nodeOf  a broker's inter-broker endpoint, from the metadata
     * @param connect opens a sender to a broker (its client id, listener and security)
     */
    public BrokerMarkerSender(Function<Integer, Optional<Node>> nodeOf, Function<Integer, BrokerBlockingSender> connect) {
        this.nodeOf = nodeOf;
        this.connect = connect;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Errors>> send(int brokerId, long producerId, short producerEpoch,
                                                               int coordinatorEpoch, boolean commit,
                                                               List<TopicPartition> partitions) {
        Destination destination = destinations.computeIfAbsent(brokerId, Destination::new);
        return CompletableFuture.supplyAsync(() -> {
            Node node = nodeOf.apply(brokerId).orElseThrow(() -> new IllegalStateException(
                "Broker " + brokerId + " has no inter-broker endpoint in the metadata"));
            if (destination.sender == null) {
                destination.sender = connect.apply(brokerId);
            }
            WriteTxnMarkersRequest.Builder request = new WriteTxnMarkersRequest.Builder(List.of(
                new WriteTxnMarkersRequest.TxnMarkerEntry(producerId, producerEpoch, coordinatorEpoch,
                    commit ? TransactionResult.COMMIT : TransactionResult.ABORT, partitions, (short) 0)));
            ClientResponse response;
            try {
                response = destination.sender.sendRequest(node, request);
            } catch (IOException e) {
                throw new IllegalStateException("WriteTxnMarkers to broker " + brokerId + " failed: " + e.getMessage(), e);
            }
            Map<TopicPartition, Errors> errors = ((WriteTxnMarkersResponse) response.responseBody())
                .errorsByProducerId().get(producerId);
            return errors == null ? Map.<TopicPartition, Errors>of() : errors;
        }, destination.thread);
    }

    @Override
    public void close() {
        for (Destination d : destinations.values()) {
            d.thread.shutdownNow();
            BrokerBlockingSender sender = d.sender;
            if (sender != null) {
                sender.wakeup();
                sender.close();
            }
        }
        destinations.clear();
    }
}
