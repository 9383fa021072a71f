package io.tributary.broker.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.oauthbearer.JwtValidator;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The broker's TLS and SASL settings, bound from {@code broker.*} like {@link BrokerProperties}:
 * each is Kafka's broker setting in Spring's relaxed form ({@code ssl.keystore.location} is
 * {@code broker.ssl-keystore-location}). They apply to the listeners whose security protocol
 * ({@code broker.listener-security-protocol-map}) is SSL, SASL_PLAINTEXT or SASL_SSL, and, on the
 * client side, to this broker's own connections over {@code broker.inter-broker-listener-name}.
 *
 * <p>Key material: PKCS12 or JKS files ({@code ssl-keystore-location}), or PEM
 * ({@code ssl-keystore-type=PEM} with {@code ssl-keystore-certificate-chain} and
 * {@code ssl-keystore-key}, or the same as file locations). kafka-clients' {@code SslFactory}
 * reads them, so every Kafka form works as in Kafka.
 *
 * <p>Immutable. {@link #toString()} never shows a password, key or JAAS text.
 *
 * @param sslKeystoreType                     {@code ssl.keystore.type}: JKS, PKCS12 or PEM
 * @param sslKeystoreLocation                 {@code ssl.keystore.location}
 * @param sslKeystorePassword                 {@code ssl.keystore.password}
 * @param sslKeyPassword                      {@code ssl.key.password}
 * @param sslKeystoreCertificateChain         {@code ssl.keystore.certificate.chain}: PEM text
 * @param sslKeystoreKey                      {@code ssl.keystore.key}: PEM private key text
 * @param sslTruststoreType                   {@code ssl.truststore.type}
 * @param sslTruststoreLocation               {@code ssl.truststore.location}
 * @param sslTruststorePassword               {@code ssl.truststore.password}
 * @param sslTruststoreCertificates           {@code ssl.truststore.certificates}: PEM text
 * @param sslClientAuth                       {@code ssl.client.auth}: none, requested or required (mTLS)
 * @param sslEnabledProtocols                 {@code ssl.enabled.protocols}
 * @param sslEndpointIdentificationAlgorithm  {@code ssl.endpoint.identification.algorithm} of this broker's
 *                                            own TLS connections (https checks the peer's host name; empty
 *                                            does not)
 * @param sslPrincipalMappingRules            {@code ssl.principal.mapping.rules}: certificate DN to principal
 * @param sslReloadIntervalMs                 how often the key and trust store files are checked for a change, ms;
 *                                            a changed store is reloaded into every TLS listener without a restart
 *                                            (Tributary's own setting, {@code ssl.reload.interval.ms} in
 *                                            {@code server.properties}; 0 turns the check off)
 * @param saslEnabledMechanisms               {@code sasl.enabled.mechanisms}; Kafka's default is GSSAPI,
 *                                            which this broker does not serve, so the default here is the
 *                                            two SCRAM mechanisms
 * @param saslMechanismInterBrokerProtocol    {@code sasl.mechanism.inter.broker.protocol} (Kafka: GSSAPI;
 *                                            here SCRAM-SHA-512)
 * @param saslJaasConfig                      {@code sasl.jaas.config}: the JAAS entry of this broker's own
 *                                            login (inter-broker) and, for PLAIN, the users it accepts
 *                                            ({@code user_<name>="<password>"} options)
 * @param listenerSaslJaasConfig              Kafka's {@code listener.name.<listener>.<mechanism>.sasl.jaas.config},
 *                                            keyed {@code <listener>.<mechanism>} in lower case, e.g.
 *                                            {@code broker.listener-sasl-jaas-config[sasl_ssl.plain]}
 * @param connectionFailedAuthenticationDelayMs {@code connection.failed.authentication.delay.ms}: how long a
 *                                            failed authentication's answer and the close wait, ms
 * @param passwordEncoderSecret               {@code password.encoder.secret}: encrypts the passwords of dynamic
 *                                            broker configs (a listener's TLS store passwords) in ZooKeeper;
 *                                            without it, no password can be set dynamically, as in Kafka
 * @param connectionsMaxReauthMs              {@code connections.max.reauth.ms} (KIP-368): the longest a SASL
 *                                            session lasts before the client must re-authenticate on its
 *                                            connection, ms; 0 (the default) lets sessions last, except an
 *                                            OAUTHBEARER token's, which ends with the token
 * @param saslScramAcceptLegacyClientNonce    accept the SCRAM client-final nonce of librdkafka before 2.6.1
 *                                            (client nonce + the server's combined nonce) as Kafka 3.x did;
 *                                            Kafka 4 refuses it. Off by default (Tributary's own setting)
 * @param authorizerClassName                 {@code authorizer.class.name}: empty (no authorization, Kafka's
 *                                            default), or {@code org.apache.kafka.metadata.authorizer.StandardAuthorizer}
 *                                            / {@code kafka.security.authorizer.AclAuthorizer} for ACLs kept in ZooKeeper
 * @param superUsers                          {@code super.users}: principals allowed everything, {@code User:a;User:b}
 * @param allowEveryoneIfNoAclFound           {@code allow.everyone.if.no.acl.found}: whether a resource without
 *                                            any ACL is open to all (Kafka: false)
 * @param zookeeperSetAcl                     {@code zookeeper.set.acl}: create znodes writable only by this
 *                                            cluster's ZooKeeper identity (and SCRAM credentials readable only by it)
 * @param saslOauthbearerJwksEndpointUrl     {@code sasl.oauthbearer.jwks.endpoint.url}: where OAUTHBEARER tokens'
 *                                            signing keys are (https, or a {@code file:} URL); the JVM must allow it
 *                                            ({@code -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=...}, or
 *                                            {@code ...allowed.files} for a file), as Kafka 4 demands
 * @param saslOauthbearerExpectedIssuer       {@code sasl.oauthbearer.expected.issuer}: the tokens' {@code iss}
 * @param saslOauthbearerExpectedAudience     {@code sasl.oauthbearer.expected.audience}: an {@code aud} tokens must carry
 * @param saslOauthbearerSubClaimName         {@code sasl.oauthbearer.sub.claim.name}: the claim that names the principal
 * @param saslServerMaxReceiveSize            {@code sasl.server.max.receive.size}: the largest frame a client may send
 *                                            on a SASL listener before it has authenticated, bytes
 * @param zookeeperDigestCredentials          {@code user:password} the brokers authenticate to ZooKeeper with
 *                                            (its {@code digest} scheme; Tributary's own setting, where Kafka uses
 *                                            a JAAS {@code Client} section)
 */
@ConfigurationProperties("broker")
public record BrokerSecurityProperties(
        @DefaultValue("JKS") String sslKeystoreType,
        String sslKeystoreLocation,
        String sslKeystorePassword,
        String sslKeyPassword,
        String sslKeystoreCertificateChain,
        String sslKeystoreKey,
        @DefaultValue("JKS") String sslTruststoreType,
        String sslTruststoreLocation,
        String sslTruststorePassword,
        String sslTruststoreCertificates,
        @DefaultValue("none") String sslClientAuth,
        @DefaultValue("TLSv1.2,TLSv1.3") String sslEnabledProtocols,
        @DefaultValue("https") String sslEndpointIdentificationAlgorithm,
        @DefaultValue("DEFAULT") String sslPrincipalMappingRules,
        @DefaultValue("60000") long sslReloadIntervalMs,
        @DefaultValue("SCRAM-SHA-256,SCRAM-SHA-512") String saslEnabledMechanisms,
        @DefaultValue("SCRAM-SHA-512") String saslMechanismInterBrokerProtocol,
        String saslJaasConfig,
        Map<String, String> listenerSaslJaasConfig,
        @DefaultValue("100") int connectionFailedAuthenticationDelayMs,
        @DefaultValue("0") long connectionsMaxReauthMs,
        String passwordEncoderSecret,
        @DefaultValue("false") boolean saslScramAcceptLegacyClientNonce,
        String authorizerClassName,
        String superUsers,
        @DefaultValue("false") boolean allowEveryoneIfNoAclFound,
        @DefaultValue("false") boolean zookeeperSetAcl,
        String zookeeperDigestCredentials,
        String saslOauthbearerJwksEndpointUrl,
        String saslOauthbearerExpectedIssuer,
        String saslOauthbearerExpectedAudience,
        @DefaultValue("sub") String saslOauthbearerSubClaimName,
        @DefaultValue("524288") int saslServerMaxReceiveSize) {

    /** SASL mechanisms this broker serves. */
    public static final List<String> SUPPORTED_MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512",
        "OAUTHBEARER");

    public BrokerSecurityProperties {
        listenerSaslJaasConfig = listenerSaslJaasConfig == null ? Map.of() : Map.copyOf(listenerSaslJaasConfig);
        for (String mechanism : enabledMechanisms(saslEnabledMechanisms)) {
            if (!SUPPORTED_MECHANISMS.contains(mechanism)) {
                throw new IllegalArgumentException("broker.sasl-enabled-mechanisms names " + mechanism
                    + ", which this broker does not serve; it serves " + SUPPORTED_MECHANISMS);
            }
        }
        if (!SUPPORTED_MECHANISMS.contains(saslMechanismInterBrokerProtocol)) {
            throw new IllegalArgumentException("broker.sasl-mechanism-inter-broker-protocol is "
                + saslMechanismInterBrokerProtocol + "; this broker serves " + SUPPORTED_MECHANISMS);
        }
        if (!List.of("none", "requested", "required").contains(sslClientAuth.strip().toLowerCase(Locale.ROOT))) {
            // kafka-clients would fall back to "none" with a warning: a typo must not turn mTLS off.
            throw new IllegalArgumentException("broker.ssl-client-auth is " + sslClientAuth
                + "; it must be none, requested or required");
        }
        if (sslReloadIntervalMs < 0) {
            throw new IllegalArgumentException("broker.ssl-reload-interval-ms must be >= 0 (0 turns the reload off)");
        }
        if (saslServerMaxReceiveSize <= 0) {
            throw new IllegalArgumentException("broker.sasl-server-max-receive-size must be positive");
        }
        if (connectionsMaxReauthMs < 0) {
            throw new IllegalArgumentException("broker.connections-max-reauth-ms must be >= 0");
        }
        if (connectionFailedAuthenticationDelayMs < 0) {
            throw new IllegalArgumentException("broker.connection-failed-authentication-delay-ms must be >= 0");
        }
    }

    /** Defaults only: no key material, SCRAM mechanisms. Enough for PLAINTEXT listeners. */
    public static BrokerSecurityProperties defaults() {
        return bind(Map.of());
    }

    /**
     * Binds {@code broker.*} keys from a map, with the same rules and defaults as the Spring environment.
     *
     * @throws org.springframework.boot.context.properties.bind.BindException on a bad value
     */
    public static BrokerSecurityProperties bind(Map<String, ?> properties) {
        Binder binder = new Binder(new MapConfigurationPropertySource(properties));
        return binder.bindOrCreate("broker", Bindable.of(BrokerSecurityProperties.class));
    }

    /** The enabled SASL mechanisms, upper case, in order. */
    public List<String> enabledMechanisms() {
        return enabledMechanisms(saslEnabledMechanisms);
    }

    private static List<String> enabledMechanisms(String value) {
        List<String> mechanisms = new ArrayList<>();
        for (String m : value.split(",")) {
            if (!m.isBlank()) {
                mechanisms.add(m.strip().toUpperCase(Locale.ROOT));
            }
        }
        return mechanisms;
    }

    /**
     * The JAAS text for {@code mechanism} on {@code listenerName}: the listener's own entry if set,
     * else {@code sasl.jaas.config}; null when neither is.
     */
    public String jaasConfig(String listenerName, String mechanism) {
        String key = listenerName.toLowerCase(Locale.ROOT) + "." + mechanism.toLowerCase(Locale.ROOT);
        String own = listenerSaslJaasConfig.get(key);
        return own != null && !own.isBlank() ? own : saslJaasConfig;
    }

    /**
     * The TLS settings under Kafka's names, parsed by Kafka's {@code ConfigDef} (passwords as
     * {@code Password}, lists as lists), for {@code SslFactory} and the principal builder.
     */
    public Map<String, Object> sslConfigs() {
        Map<String, Object> raw = new HashMap<>();
        putIfSet(raw, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, sslKeystoreType);
        putIfSet(raw, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, sslKeystoreLocation);
        putIfSet(raw, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, sslKeystorePassword);
        putIfSet(raw, SslConfigs.SSL_KEY_PASSWORD_CONFIG, sslKeyPassword);
        putIfSet(raw, SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, sslKeystoreCertificateChain);
        putIfSet(raw, SslConfigs.SSL_KEYSTORE_KEY_CONFIG, sslKeystoreKey);
        putIfSet(raw, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, sslTruststoreType);
        putIfSet(raw, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, sslTruststoreLocation);
        putIfSet(raw, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, sslTruststorePassword);
        putIfSet(raw, SslConfigs.SSL_TRUSTSTORE_CERTIFICATES_CONFIG, sslTruststoreCertificates);
        putIfSet(raw, SslConfigs.SSL_ENABLED_PROTOCOLS_CONFIG, sslEnabledProtocols);
        raw.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
            sslEndpointIdentificationAlgorithm == null ? "" : sslEndpointIdentificationAlgorithm);
        Map<String, Object> parsed = new HashMap<>(new ConfigDef().withClientSslSupport().parse(raw));
        parsed.put(BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG, sslClientAuth.toLowerCase(Locale.ROOT));
        parsed.put(BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_CONFIG, sslPrincipalMappingRules);
        return parsed;
    }

    /**
     * The configs of this broker's own client connections over a listener of {@code protocol}
     * (replica fetchers, the lag reader): {@code security.protocol}, TLS settings and the SASL
     * mechanism and login for SASL listeners.
     */
    public Map<String, Object> clientConfigs(org.apache.kafka.common.security.auth.SecurityProtocol protocol,
                                             String listenerName) {
        Map<String, Object> configs = new LinkedHashMap<>();
        configs.put("security.protocol", protocol.name);
        if (protocol == org.apache.kafka.common.security.auth.SecurityProtocol.SSL
                || protocol == org.apache.kafka.common.security.auth.SecurityProtocol.SASL_SSL) {
            Map<String, Object> ssl = sslConfigs();
            ssl.remove(BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG);
            ssl.remove(BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_CONFIG);
            configs.putAll(ssl);
        }
        if (protocol == org.apache.kafka.common.security.auth.SecurityProtocol.SASL_PLAINTEXT
                || protocol == org.apache.kafka.common.security.auth.SecurityProtocol.SASL_SSL) {
            configs.put(SaslConfigs.SASL_MECHANISM, saslMechanismInterBrokerProtocol);
            String jaas = jaasConfig(listenerName, saslMechanismInterBrokerProtocol);
            if (jaas == null || jaas.isBlank()) {
                throw new IllegalArgumentException("The inter-broker listener " + listenerName + " uses SASL ("
                    + saslMechanismInterBrokerProtocol + ") but no JAAS login is configured: set broker.sasl-jaas-config"
                    + " (e.g. " + ScramMechanism.SCRAM_SHA_512.mechanismName()
                    + ": org.apache.kafka.common.security.scram.ScramLoginModule required username=\"...\" password=\"...\";)");
            }
            configs.put(SaslConfigs.SASL_JAAS_CONFIG, new org.apache.kafka.common.config.types.Password(jaas));
        }
        return configs;
    }

    /**
     * The OAUTHBEARER validator's settings under Kafka's names, parsed by Kafka's {@code ConfigDef}
     * (which fills the other defaults).
     *
     * @param jwtValidator the validator class Kafka's callback handler instantiates
     *                     ({@code sasl.oauthbearer.jwt.validator.class}); the security layer picks it
     */
    public Map<String, Object> oauthBearerConfigs(Class<? extends JwtValidator> jwtValidator) {
        Map<String, Object> raw = new HashMap<>();
        putIfSet(raw, SaslConfigs.SASL_OAUTHBEARER_JWKS_ENDPOINT_URL, saslOauthbearerJwksEndpointUrl);
        putIfSet(raw, SaslConfigs.SASL_OAUTHBEARER_EXPECTED_ISSUER, saslOauthbearerExpectedIssuer);
        putIfSet(raw, SaslConfigs.SASL_OAUTHBEARER_EXPECTED_AUDIENCE, saslOauthbearerExpectedAudience);
        putIfSet(raw, SaslConfigs.SASL_OAUTHBEARER_SUB_CLAIM_NAME, saslOauthbearerSubClaimName);
        raw.put(SaslConfigs.SASL_OAUTHBEARER_JWT_VALIDATOR_CLASS, jwtValidator.getName());
        return new HashMap<>(new ConfigDef().withClientSaslSupport().parse(raw));
    }

    private static void putIfSet(Map<String, Object> map, String key, String value) {
        if (value != null && !value.isBlank()) {
            map.put(key, value);
        }
    }

    @Override
    public String toString() {
        return "BrokerSecurityProperties[sslKeystoreType=" + sslKeystoreType + ", sslKeystoreLocation="
            + sslKeystoreLocation + ", sslTruststoreType=" + sslTruststoreType + ", sslTruststoreLocation="
            + sslTruststoreLocation + ", sslClientAuth=" + sslClientAuth + ", sslEnabledProtocols=" + sslEnabledProtocols
            + ", sslReloadIntervalMs=" + sslReloadIntervalMs
            + ", saslEnabledMechanisms=" + saslEnabledMechanisms + ", saslMechanismInterBrokerProtocol="
            + saslMechanismInterBrokerProtocol + ", connectionFailedAuthenticationDelayMs="
            + connectionFailedAuthenticationDelayMs + ", connectionsMaxReauthMs=" + connectionsMaxReauthMs
            + ", saslScramAcceptLegacyClientNonce="
            + saslScramAcceptLegacyClientNonce + ", authorizerClassName=" + authorizerClassName + ", superUsers="
            + superUsers + ", allowEveryoneIfNoAclFound=" + allowEveryoneIfNoAclFound
            + ", zookeeperSetAcl=" + zookeeperSetAcl + ", passwords, keys and JAAS hidden]";
    }
}
