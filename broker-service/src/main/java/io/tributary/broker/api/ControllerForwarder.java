package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.replica.InterBrokerSender;
import java.io.Closeable;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Sends a request that only the controller can carry out, received by a broker that is not the
 * controller, on to the active controller over the inter-broker listener, and hands back its
 * answer. Kafka 4's brokers forward such requests (KIP-590), so an {@code Admin} whose metadata
 * still names a broker that was the controller is served: its ElectLeaders, unlike
 * CreateTopics or AlterPartitionReassignments, does not refresh the metadata on NOT_CONTROLLER
 * and would keep failing for up to {@code metadata.max.age.ms}.
 *
 * <p>The receiving broker authorizes the client before it forwards; the controller sees the
 * inter-broker principal. A forwarded request carries a client id starting with
 * {@link #CLIENT_ID_PREFIX} and is never forwarded again (a controller that lost its role in
 * between answers NOT_CONTROLLER, which goes back to the client).
 *
 * <p>Errors: no known controller, or the controller being this broker, gives an empty
 * {@link Optional} (the caller answers from the local controller, NOT_CONTROLLER); a connection
 * failure or timeout ({@code request.timeout.ms}) fails the future. Thread-safe.
 */
public final class ControllerForwarder implements Closeable {

    /** The client id prefix of forwarded requests, followed by the forwarding broker's id. */
    public static final String CLIENT_ID_PREFIX = "controller-forwarder-";

    private final int brokerId;
    private final IntSupplier activeController;
    private final InterBrokerSender sender;

    /**
     * @param brokerId         this broker's id
     * @param activeController the controller's broker id from the metadata (ZooKeeper's
     *                         {@code /controller}), -1 when there is none
     * @param sender           reaches other brokers; its connections use a client id starting with
     *                         {@link #CLIENT_ID_PREFIX}
     */
    public ControllerForwarder(int brokerId, IntSupplier activeController, InterBrokerSender sender) {
        this.brokerId = brokerId;
        this.activeController = activeController;
        this.sender = sender;
    }

    /**
     * Forwards {@code request} to the active controller, unless it was itself forwarded or the
     * controller is this broker or unknown.
     *
     * @return the controller's response, or empty when the request is not forwarded
     */
    public Optional<CompletableFuture<AbstractResponse>> forward(RequestContext context,
                                                                AbstractRequest.Builder<? extends AbstractRequest> request) {
        String clientId = context.clientId();
        if (clientId != null && clientId.startsWith(CLIENT_ID_PREFIX)) {
            return Optional.empty();
        }
        int controller = activeController.getAsInt();
        if (controller < 0 || controller == brokerId) {
            return Optional.empty();
        }
        return Optional.of(sender.send(controller, request));
    }

    @Override
    public void close() {
        sender.close();
    }
}
