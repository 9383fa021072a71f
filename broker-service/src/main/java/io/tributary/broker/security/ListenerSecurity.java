package io.tributary.broker.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.network.ChannelBuilders;
import org.apache.kafka.common.network.ConnectionMode;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.KafkaPrincipalBuilder;
import org.apache.kafka.common.security.auth.PlaintextAuthenticationContext;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.auth.SslEngineFactory;
import org.apache.kafka.common.security.auth.SslAuthenticationContext;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.ssl.SslFactory;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.common.utils.Time;

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
 * <p>Its key and trust stores can be reloaded from their files while it serves
 * ({@link #reloadSslStores(boolean)}, driven by {@link SslStoreWatcher}): new connections get the
 * new certificate, open ones keep their TLS session.
 *
 * <p>Thread-safe.
 */
public final class ListenerSecurity implements Closeable {

    private final EndPoint endPoint;
    /** The TLS settings of the broker's configuration; {@link #sslConfigs} adds this broker's dynamic ones. */
    private final Map<String, Object> staticSslConfigs;
    private volatile Map<String, Object> sslConfigs;
    private final SslFactory sslFactory;
    private final SaslServers saslServers;
    private final KafkaPrincipalBuilder principalBuilder;
    private final long failedAuthenticationDelayMs;
    private final int saslServerMaxReceiveSize;
    private final Counter successful;
    private final Counter failed;
    private final Counter successfulReauthentication;
    private final Counter failedReauthentication;
    private final Counter expiredConnectionsKilled;
    private final long connectionsMaxReauthMs;
    private final Time time;
    /**
     * The engine factory new connections use: {@code sslFactory}'s, republished after each reload,
     * so an event loop creating an engine never waits for a reload reading the store files.
     */
    private volatile SslEngineFactory serving;
    private volatile boolean closed;

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
        this(endPoint, security, credentials, registry, Time.SYSTEM);
    }

    /** @param time the clock of SASL session lifetimes (KIP-368) */
    public ListenerSecurity(EndPoint endPoint, BrokerSecurityProperties security, CredentialCache credentials,
                            MeterRegistry registry, Time time) {
        this.endPoint = endPoint;
        this.time = time;
        SecurityProtocol protocol = endPoint.securityProtocol();
        staticSslConfigs = Collections.unmodifiableMap(security.sslConfigs());
        sslConfigs = staticSslConfigs;
        if (protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL) {
            if (security.sslKeystoreLocation() == null && security.sslKeystoreCertificateChain() == null) {
                throw new IllegalArgumentException("Listener " + endPoint.listenerName() + " uses " + protocol
                    + " but no key store is set: broker.ssl-keystore-location (PKCS12/JKS/PEM file) or"
                    + " broker.ssl-keystore-certificate-chain and broker.ssl-keystore-key (PEM)");
            }
            sslFactory = new SslFactory(ConnectionMode.SERVER);
            sslFactory.configure(sslConfigs);
            serving = sslFactory.sslEngineFactory();
        } else {
            sslFactory = null;
        }
        saslServers = protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL
            ? new SaslServers(endPoint.listenerName(), security, credentials) : null;
        principalBuilder = ChannelBuilders.createPrincipalBuilder(sslConfigs, null,
            SslPrincipalMapper.fromRules(security.sslPrincipalMappingRules()));
        failedAuthenticationDelayMs = security.connectionFailedAuthenticationDelayMs();
        connectionsMaxReauthMs = security.connectionsMaxReauthMs();
        saslServerMaxReceiveSize = security.saslServerMaxReceiveSize();
        successful = Counter.builder("kafka.server.socket.server.metrics.successful.authentication")
            .description("Connections that authenticated").tag("listener", endPoint.listenerName()).register(registry);
        failed = Counter.builder("kafka.server.socket.server.metrics.failed.authentication")
            .description("Connections that failed to authenticate").tag("listener", endPoint.listenerName())
            .register(registry);
        successfulReauthentication = Counter.builder("kafka.server.socket.server.metrics.successful.reauthentication")
            .description("Sessions re-authenticated on their connection (KIP-368)")
            .tag("listener", endPoint.listenerName()).register(registry);
        failedReauthentication = Counter.builder("kafka.server.socket.server.metrics.failed.reauthentication")
            .description("Re-authentications refused (the connection was closed)")
            .tag("listener", endPoint.listenerName()).register(registry);
        expiredConnectionsKilled = Counter.builder("kafka.server.socket.server.metrics.expired.connections.killed.count")
            .description("Connections closed because their SASL session expired without re-authentication")
            .tag("listener", endPoint.listenerName()).register(registry);
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

    /**
     * A server-side TLS engine for a connection from {@code peer}, from the stores in use. Called on
     * a Netty event loop, so it does not wait for a {@link #reloadSslStores(boolean) reload} under
     * way, which reads the store files and may take long (a slow or hung mount): a connection
     * accepted while a reload runs gets the previous certificate, one accepted after the reload
     * returned gets the new one. Only when the reload closed the previous factory between this
     * method reading it and using it does it wait for the reload to finish.
     */
    public SSLEngine newSslEngine(InetSocketAddress peer) {
        String host = peer == null ? null : peer.getHostString();
        int port = peer == null ? -1 : peer.getPort();
        SslEngineFactory factory = serving;
        try {
            return factory.createServerSslEngine(host, port);
        } catch (RuntimeException closedByReload) {
            // SslFactory.reconfigure closes the factory it replaces (DefaultSslEngineFactory drops its
            // SSLContext): take the one the reload leaves, or fail as before when it was not that.
            synchronized (this) {
                return sslFactory.createSslEngine(host, port);
            }
        }
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

    /**
     * Re-reads the key and trust stores from the files the settings name and, when kafka-clients'
     * {@link SslFactory#reconfigure} accepts them, serves them to new connections; connections
     * already open keep their TLS session. {@code SslFactory} refuses a key store that does not
     * load (wrong password, corrupt, missing) or whose certificate changes the subject DN or the
     * SANs (unless {@code ssl.allow.dn.changes} / {@code ssl.allow.san.changes}); then the previous
     * stores keep serving.
     *
     * <p>{@code SslFactory} rebuilds only when a store file's modification time changed. A copy
     * that kept the old time ({@code cp -p}, {@code rsync -t}) is reloaded when {@code contentChanged}
     * says the bytes differ: the same files are then named with a different spelling
     * ({@code dir/./file}), which {@code SslFactory} takes as new settings.
     *
     * @param contentChanged whether the caller saw a store file's content change
     * @return true when new stores now serve; false when there was nothing to reload, or the listener is
     *         (or got) closed
     * @throws org.apache.kafka.common.KafkaException (a {@code ConfigException}) when the new stores are refused;
     *                                               its message names the file and the reason, no password
     * @throws IllegalStateException when the listener does not use TLS
     */
    public synchronized boolean reloadSslStores(boolean contentChanged) {
        if (sslFactory == null) {
            throw new IllegalStateException("Listener " + endPoint.listenerName() + " does not use TLS");
        }
        if (closed) {
            return false;
        }
        SslEngineFactory before = sslFactory.sslEngineFactory();
        boolean rebuilt;
        try {
            sslFactory.reconfigure(sslConfigs);
            rebuilt = sslFactory.sslEngineFactory() != before;
            if (!rebuilt && contentChanged) {
                sslFactory.reconfigure(respelled(sslConfigs));
                rebuilt = sslFactory.sslEngineFactory() != before;
            }
        } finally {
            serving = sslFactory.sslEngineFactory();
            if (closed) { // closed while this reload read the files: close what it left
                sslFactory.close();
            }
        }
        return rebuilt && !closed;
    }

    /**
     * The TLS settings the listener serves with these dynamic ones ({@code listener.name.<listener>.ssl.*}
     * without the prefix, KIP-226) over those of the broker's configuration, parsed with Kafka's types.
     *
     * @param dynamicSsl by setting name ({@code ssl.keystore.location}), passwords in clear
     * @throws org.apache.kafka.common.config.ConfigException a setting Kafka does not know
     */
    public Map<String, Object> sslConfigsWith(Map<String, String> dynamicSsl) {
        Map<String, Object> configs = new HashMap<>(staticSslConfigs);
        Map<String, org.apache.kafka.common.config.ConfigDef.ConfigKey> keys =
            new org.apache.kafka.common.config.ConfigDef().withClientSslSupport().configKeys();
        dynamicSsl.forEach((name, value) -> {
            org.apache.kafka.common.config.ConfigDef.ConfigKey key = keys.get(name);
            if (key == null) {
                throw new org.apache.kafka.common.config.ConfigException(name, value, "not a TLS setting");
            }
            configs.put(name, org.apache.kafka.common.config.ConfigDef.parseType(name, value, key.type));
        });
        return Collections.unmodifiableMap(configs);
    }

    /**
     * Checks dynamic TLS settings as Kafka's {@code SslFactory.validateReconfiguration} does before
     * they are stored: the new key and trust stores load, and the certificate keeps its subject DN
     * and SANs (unless {@code ssl.allow.dn.changes} / {@code ssl.allow.san.changes}).
     *
     * @throws org.apache.kafka.common.config.ConfigException stores that are refused, with the reason
     * @throws IllegalArgumentException when the listener does not use TLS
     */
    public void validateSslReconfiguration(Map<String, String> dynamicSsl) {
        if (sslFactory == null) {
            throw new IllegalArgumentException("Listener " + endPoint.listenerName() + " does not use TLS");
        }
        sslFactory.validateReconfiguration(sslConfigsWith(dynamicSsl));
    }

    /**
     * Serves the stores these dynamic TLS settings name to new connections from now on (connections
     * already open keep their TLS session); the file watch then follows those files.
     *
     * @return whether the settings in use changed
     * @throws org.apache.kafka.common.KafkaException stores that are refused; the previous ones keep serving
     */
    public synchronized boolean reconfigureSsl(Map<String, String> dynamicSsl) {
        if (sslFactory == null || closed) {
            return false;
        }
        Map<String, Object> next = sslConfigsWith(dynamicSsl);
        if (next.equals(sslConfigs)) {
            return false;
        }
        try {
            sslFactory.reconfigure(next);
            sslConfigs = next;
        } finally {
            serving = sslFactory.sslEngineFactory();
            if (closed) {
                sslFactory.close();
            }
        }
        return true;
    }

    /**
     * {@code configs} with each store location spelled {@code dir/./file}: the same files, but
     * settings kafka-clients' {@code SslFactory.reconfigure} takes as new, so it rebuilds from the
     * files even when their modification time did not change. Both {@code /} and the platform's
     * separator count ({@code C:/certs/broker.p12} on Windows); a bare name becomes {@code ./name}.
     *
     * @param configs TLS settings ({@code ssl.keystore.location}, {@code ssl.truststore.location})
     * @return a copy, locations respelled
     */
    public static Map<String, Object> respelled(Map<String, ?> configs) {
        Map<String, Object> respelled = new HashMap<>(configs);
        for (String key : new String[] {SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG}) {
            if (configs.get(key) instanceof String location && !location.isBlank()) {
                int slash = Math.max(location.lastIndexOf('/'), location.lastIndexOf(File.separatorChar));
                respelled.put(key, location.substring(0, slash + 1) + "." + File.separator + location.substring(slash + 1));
            }
        }
        return respelled;
    }

    /**
     * The certificate new TLS connections are served: the first key entry's of the key store in
     * use; empty when the listener does not use TLS.
     */
    public synchronized Optional<X509Certificate> serverCertificate() {
        if (sslFactory == null) {
            return Optional.empty();
        }
        KeyStore keyStore = sslFactory.sslEngineFactory().keystore();
        if (keyStore == null) {
            return Optional.empty();
        }
        try {
            for (String alias : Collections.list(keyStore.aliases())) {
                if (keyStore.isKeyEntry(alias) && keyStore.getCertificate(alias) instanceof X509Certificate certificate) {
                    return Optional.of(certificate);
                }
            }
            return Optional.empty();
        } catch (KeyStoreException e) {
            return Optional.empty();
        }
    }

    /** Counts a connection that authenticated, or re-authenticated. */
    public void recordSuccess(boolean reauthentication) {
        (reauthentication ? successfulReauthentication : successful).increment();
    }

    /** Counts a connection that failed to authenticate, or to re-authenticate. */
    public void recordFailure(boolean reauthentication) {
        (reauthentication ? failedReauthentication : failed).increment();
    }

    /** Counts a connection closed because its session expired. */
    public void recordExpiredConnectionKilled() {
        expiredConnectionsKilled.increment();
    }

    /** The clock SASL sessions expire by. */
    public Time time() {
        return time;
    }

    /** {@code connections.max.reauth.ms}: the longest a SASL session lasts, ms; 0 for no limit (KIP-368). */
    public long connectionsMaxReauthMs() {
        return connectionsMaxReauthMs;
    }

    /**
     * Closes the TLS engine factory. Does not wait for a reload under way (one stuck reading a store
     * on a hung mount would hold up the broker's shutdown): that reload closes what it built when it
     * ends.
     */
    @Override
    public void close() {
        closed = true;
        if (sslFactory != null) {
            SslEngineFactory last = serving;
            try {
                last.close();
            } catch (IOException | RuntimeException e) {
                // DefaultSslEngineFactory only drops its SSLContext
            }
            sslFactory.close();
        }
    }
}
