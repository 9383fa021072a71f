package io.tributary.broker.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import java.io.Closeable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.network.ChannelBuilders;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.PlaintextAuthenticationContext;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.auth.SslAuthenticationContext;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.ssl.SslFactory;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;

/**
 * What one listener needs to secure its connections, by its security protocol:
 * <ul>
 *   <li>SSL and SASL_SSL: server-side {@link SSLEngine}s from kafka-clients' {@link SslFactory}
 *       ({@code ssl.*} settings, PKCS12/JKS/PEM, {@code ssl.client.auth});</li>
 *   <li>SASL_PLAINTEXT and SASL_SSL: the {@link SaslServers} of its enabled mechanisms;</li>
 *   <li>all: the principal of a connection, from Kafka's {@code DefaultKafkaPrincipalBuilder}
 *       ({@code User:<name>} for SASL, the mapped certificate DN for a TLS client certificate
 *       ({@code ssl.principal.mapping.rules}), else {@code User:ANONYMOUS});</li>
 *   <li>the failed-authentication delay and the counters
 *       {@code kafka_server_socket_server_metrics_{successful,failed}_authentication_total{listener}}
 *       (Kafka's socket-server-metrics).</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class ListenerSecurity implements Closeable {

    private final EndPoint endPoint;
    private final SslFactory sslFactory;
    private final SaslServers saslServers;
    private final KafkaPrincipalBuilder principalBuilder;
    private final long failedAuthenticationDelayMs;
    private final int saslServerMaxReceiveSize;
    private final Counter successful;
    private final Counter failed;

    /**
     * @param endPoint    the listener
     * @param security    TLS and SASL settings
     * @param credentials SCRAM credentials
     * @param registry    where the authentication counters go
     * @throws IllegalArgumentException or {@code org.apache.kafka.common.KafkaException} when the
     *                                  key material or JAAS entries are missing or unreadable
     */
    public ListenerSecurity(EndPoint endPoint, BrokerSecurityProperties security, CredentialCache credentials,
                            MeterRegistry registry) {
        this.endPoint = endPoint;
        SecurityProtocol protocol = endPoint.securityProtocol();
        Map<String, Object> sslConfigs = security.sslConfigs();
        if (protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL) {
            if (security.sslKeystoreLocation() == null && security.sslKeystoreCertificateChain() == null) {
                throw new IllegalArgumentException("Listener " + endPoint.listenerName() + " uses " + protocol
                    + " but no key store is set: broker.ssl-keystore-location (PKCS12/JKS/PEM file) or"
                    + " broker.ssl-keystore-certificate-chain and broker.ssl-keystore-key (PEM)");
            }
            sslFactory = new SslFactory(ConnectionMode.SERVER);
            sslFactory.configure(sslConfigs);
        } else {
            sslFactory = null;
        }
        saslServers = protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL
            ? new SaslServers(endPoint.listenerName(), security, credentials) : null;
        principalBuilder = ChannelBuilders.createPrincipalBuilder(sslConfigs, null,
            SslPrincipalMapper.fromRules(security.sslPrincipalMappingRules()));
        failedAuthenticationDelayMs = security.connectionFailedAuthenticationDelayMs();
        saslServerMaxReceiveSize = security.saslServerMaxReceiveSize();
        successful = Counter.builder("kafka.server.socket.server.metrics.successful.authentication")
            .description("Connections that authenticated").tag("listener", endPoint.listenerName()).register(registry);
        failed = Counter.builder("kafka.server.socket.server.metrics.failed.authentication")
            .description("Connections that failed to authenticate").tag("listener", endPoint.listenerName())
            .register(registry);
    }

    /** The listener's name. */
    public String listenerName() {
        return endPoint.listenerName();
    }

    /** The listener's security protocol. */
    public SecurityProtocol securityProtocol() {
        return endPoint.securityProtocol();
    }

    /** Whether connections start with a TLS handshake. */
    public boolean usesTls() {
        return sslFactory != null;
    }

    /** The SASL mechanisms' servers; null when the listener does not use SASL. */
    public SaslServers saslServers() {
        return saslServers;
    }

    /** A server-side TLS engine for a connection from {@code peer}. */
    public SSLEngine newSslEngine(InetSocketAddress peer) {
        return sslFactory.createSslEngine(peer == null ? null : peer.getHostString(), peer == null ? -1 : peer.getPort());
    }

    /** The principal of a connection without SASL: the mapped client certificate, or ANONYMOUS. */
    public KafkaPrincipal transportPrincipal(InetAddress client, SSLSession session) {
        if (session != null) {
            return principalBuilder.build(new SslAuthenticationContext(session, client, endPoint.listenerName()));
        }
        return principalBuilder.build(new PlaintextAuthenticationContext(client, endPoint.listenerName()));
    }

    /** The principal a completed SASL exchange authenticated. */
    public KafkaPrincipal saslPrincipal(SaslServer server, InetAddress client, SSLSession session) {
        return principalBuilder.build(new SaslAuthenticationContext(server, endPoint.securityProtocol(), client,
            endPoint.listenerName(), Optional.ofNullable(session)));
    }

    /** How long a failed authentication's answer waits, ms ({@code connection.failed.authentication.delay.ms}). */
    public long failedAuthenticationDelayMs() {
        return failedAuthenticationDelayMs;
    }

    /** Largest frame a SASL connection may send before it authenticated, bytes ({@code sasl.server.max.receive.size}). */
    public int saslServerMaxReceiveSize() {
        return saslServerMaxReceiveSize;
    }

    /** Counts a connection that authenticated. */
    public void recordSuccess() {
        successful.increment();
    }

    /** Counts a connection that failed to authenticate. */
    public void recordFailure() {
        failed.increment();
    }

    @Override
    public void close() {
        if (sslFactory != null) {
            sslFactory.close();
        }
    }
}
