package io.tributary.broker.replica;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Sends requests to other brokers over the inter-broker listener, with kafka-clients'
 * {@code NetworkClient} through {@link BrokerBlockingSender}: one thread and one connection per
 * destination broker, opened on first use, requests to it in order. Used for transaction markers
 * (WriteTxnMarkers), share-group state (ReadShareGroupState, WriteShareGroupState, ...) and
 * dead-letter records (Produce).
 *
 * <p>Errors: a broker unknown to the metadata, a connection failure or a timeout fails the future
 * (callers retry). Thread-safe.
 */
public final class InterBrokerSender implements Closeable {

    /** A destination's connection, used by its own thread only. */
    private static final class Destination {
        private final ExecutorService thread;
        private BrokerBlockingSender sender;

        private Destination(String threadNamePrefix, int brokerId) {
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadNamePrefix + brokerId);
                t.setDaemon(true);
                return t;
            });
        }
    }

    private final String threadNamePrefix;
    private final Function<Integer, Optional<Node>> nodeOf;
    private final Function<Integer, BrokerBlockingSender> connect;
    private final Map<Integer, Destination> destinations = new ConcurrentHashMap<>();

    /**
     * @param threadNamePrefix names each destination's thread, followed by the broker id
     *                         ({@code transaction-marker-sender-} makes {@code transaction-marker-sender-2})
     * @param nodeOf           a broker's inter-broker endpoint, from the metadata
     * @param connect          opens a sender to a broker (its client id, listener and security)
     */
    public InterBrokerSender(String threadNamePrefix, Function<Integer, Optional<Node>> nodeOf,
                             Function<Integer, BrokerBlockingSender> connect) {
        this.threadNamePrefix = threadNamePrefix;
        this.nodeOf = nodeOf;
        this.connect = connect;
    }

    /** Sends {@code request} to {@code brokerId}; completes with its response on the destination's thread. */
    public CompletableFuture<AbstractResponse> send(int brokerId, AbstractRequest.Builder<? extends AbstractRequest> request) {
        Destination destination = destinations.computeIfAbsent(brokerId, id -> new Destination(threadNamePrefix, id));
        return CompletableFuture.supplyAsync(() -> {
            Node node = nodeOf.apply(brokerId).orElseThrow(() -> new IllegalStateException(
                "Broker " + brokerId + " has no inter-broker endpoint in the metadata"));
            if (destination.sender == null) {
                destination.sender = connect.apply(brokerId);
            }
            try {
                return destination.sender.sendRequest(node, request).responseBody();
            } catch (IOException e) {
                throw new IllegalStateException(request.apiKey() + " to broker " + brokerId + " failed: " + e.getMessage(), e);
            }
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
