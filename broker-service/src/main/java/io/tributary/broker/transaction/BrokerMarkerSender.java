package io.tributary.broker.transaction;

import io.tributary.broker.replica.BrokerBlockingSender;
import io.tributary.broker.replica.InterBrokerSender;
import java.io.Closeable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
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

    private final InterBrokerSender sender;

    /**
     * @param nodeOf  a broker's inter-broker endpoint, from the metadata
     * @param connect opens a sender to a broker (its client id, listener and security)
     */
    public BrokerMarkerSender(Function<Integer, Optional<Node>> nodeOf, Function<Integer, BrokerBlockingSender> connect) {
        this.sender = new InterBrokerSender("transaction-marker-sender-", nodeOf, connect);
    }

    @Override
    public CompletableFuture<Map<TopicPartition, Errors>> send(int brokerId, long producerId, short producerEpoch,
                                                               int coordinatorEpoch, boolean commit,
                                                               List<TopicPartition> partitions) {
        WriteTxnMarkersRequest.Builder request = new WriteTxnMarkersRequest.Builder(List.of(
            new WriteTxnMarkersRequest.TxnMarkerEntry(producerId, producerEpoch, coordinatorEpoch,
                commit ? TransactionResult.COMMIT : TransactionResult.ABORT, partitions, (short) 0)));
        return sender.send(brokerId, request).thenApply(response -> {
            Map<TopicPartition, Errors> errors = ((WriteTxnMarkersResponse) response).errorsByProducerId().get(producerId);
            return errors == null ? Map.<TopicPartition, Errors>of() : errors;
        });
    }

    @Override
    public void close() {
        sender.close();
    }
}
