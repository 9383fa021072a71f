package io.tributary.broker.replica;

import io.tributary.broker.security.ListenerSecurity;
import java.io.Closeable;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Map;
import org.apache.kafka.clients.ApiVersions;
import org.apache.kafka.clients.BootstrapConfiguration;
import org.apache.kafka.clients.ClientRequest;
import org.apache.kafka.clients.ClientResponse;
import org.apache.kafka.clients.ManualMetadataUpdater;
import org.apache.kafka.clients.MetadataRecoveryStrategy;
import org.apache.kafka.clients.NetworkClient;
import org.apache.kafka.clients.NetworkClientUtils;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.network.ChannelBuilder;
import org.apache.kafka.common.network.ChannelBuilders;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.network.ListenerReconfigurable;
import org.apache.kafka.common.network.PlaintextChannelBuilder;
import org.apache.kafka.common.network.Selector;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;

/**
 * A blocking request-response channel from this broker to one other broker, built on
 * kafka-clients' {@link NetworkClient} (the same codec, framing and version negotiation every
 * Kafka client uses), as Kafka's own replica fetchers do. One request in flight at a time.
 *
 * <p>Not thread-safe: owned by one thread (a replica fetcher, a transaction marker sender);
 * {@link #wakeup()} and {@link #close()} may be called from others.
 */
public final class BrokerBlockingSender implements Closeable {

    private final NetworkClient client;
    private final ChannelBuilder channelBuilder;
    private final Map<String, Object> clientConfigs;
    /** Whether the channel builder's stores were last named {@code dir/./file}; owning thread only. */
    private boolean storesRespelled;
    private final Metrics metrics;
    private final Time time;
    private final int socketTimeoutMs;

    /**
     * @param clientId        client id in the requests (names the fetcher in the leader's logs)
     * @param listenerName    the inter-broker listener
     * @param clientConfigs   {@code security.protocol} and, for a secured listener, TLS and SASL client configs
     * @param socketTimeoutMs how long to wait for a connection or a response, ms
     */
    public BrokerBlockingSender(String clientId, String listenerName, Map<String, Object> clientConfigs, int socketTimeoutMs,
                         long reconnectBackoffMs, Time time) {
        this.time = time;
        this.socketTimeoutMs = socketTimeoutMs;
        this.metrics = new Metrics(time);
        LogContext logContext = new LogContext("[" + clientId + "] ");
        this.clientConfigs = clientConfigs;
        this.channelBuilder = channelBuilder(listenerName, clientConfigs, time, logContext);
        Selector selector = new Selector(org.apache.kafka.common.network.NetworkReceive.UNLIMITED, 600_000L, metrics, time, "replica-fetcher",
            java.util.Map.of("client-id", clientId), false, channelBuilder, logContext);
        this.client = new NetworkClient(selector, new ManualMetadataUpdater(), clientId, 1, reconnectBackoffMs,
            Math.max(reconnectBackoffMs, 1000), 64 * 1024, 1024 * 1024, socketTimeoutMs, 10_000L, 30_000L, time,
            true, new ApiVersions(), logContext, MetadataRecoveryStrategy.NONE, BootstrapConfiguration.DISABLED, false);
    }

    /**
     * kafka-clients' channel builder for the listener's protocol: plaintext, TLS, or SASL (with the
     * broker's own login, {@code sasl.jaas.config}) over either.
     */
    static ChannelBuilder channelBuilder(String listenerName, Map<String, Object> clientConfigs, Time time,
                                         LogContext logContext) {
        Object protocolName = clientConfigs.getOrDefault("security.protocol", SecurityProtocol.PLAINTEXT.name);
        SecurityProtocol protocol = SecurityProtocol.forName(protocolName.toString());
        if (protocol == SecurityProtocol.PLAINTEXT) {
            ChannelBuilder plaintext = new PlaintextChannelBuilder(ListenerName.normalised(listenerName));
            plaintext.configure(Map.of());
            return plaintext;
        }
        AbstractConfig config = new AbstractConfig(new ConfigDef().withClientSslSupport().withClientSaslSupport(),
            clientConfigs, false);
        return ChannelBuilders.clientChannelBuilder(protocol, JaasContext.Type.CLIENT, config,
            ListenerName.normalised(listenerName), (String) clientConfigs.get(SaslConfigs.SASL_MECHANISM), time,
            logContext);
    }

    /**
     * Sends a request to {@code node} and waits for its response.
     *
     * @throws IOException on a connection failure, a disconnect or a timeout; the connection is
     *                     closed so the next call reconnects
     */
    public ClientResponse sendRequest(Node node, AbstractRequest.Builder<? extends AbstractRequest> request)
            throws IOException {
        try {
            if (!NetworkClientUtils.awaitReady(client, node, time, socketTimeoutMs)) {
                throw new SocketTimeoutException("Failed to connect to broker " + node + " within " + socketTimeoutMs + " ms");
            }
            ClientRequest clientRequest = client.newClientRequest(node.idString(), request, time.milliseconds(), true);
            return NetworkClientUtils.sendAndReceive(client, clientRequest, time);
        } catch (IOException | RuntimeException e) {
            client.close(node.idString());
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /**
     * Re-reads the TLS key and trust stores for the connections opened from now on; the open one
     * keeps its session. kafka-clients' {@code SslFactory.reconfigure} refuses stores that do not
     * load or change the certificate's DN or SANs. It rebuilds only for a store file whose
     * modification time changed, or for new settings: each call names the stores with the other
     * spelling ({@code dir/./file}, {@link ListenerSecurity#respelled}), so a copy that kept the old
     * time is read too. A plaintext or SASL_PLAINTEXT channel has nothing to reload. Call on the owning thread.
     *
     * @throws org.apache.kafka.common.KafkaException when the new stores are refused; the previous ones stay in use
     */
    void reloadSslStores() {
        if (channelBuilder instanceof ListenerReconfigurable reconfigurable) {
            reconfigurable.reconfigure(storesRespelled ? clientConfigs : ListenerSecurity.respelled(clientConfigs));
            storesRespelled = !storesRespelled;
        }
    }

    /** Interrupts a blocking send (shutdown). */
    public void wakeup() {
        client.wakeup();
    }

    @Override
    public void close() {
        client.close();
        metrics.close();
    }
}
