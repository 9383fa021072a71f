package io.tributary.broker.security;

import io.tributary.broker.config.BrokerSecurityProperties;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler;
import org.apache.kafka.common.security.oauthbearer.internals.OAuthBearerSaslServer;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.plain.internals.PlainServerCallbackHandler;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;
import org.apache.kafka.common.security.scram.internals.ScramServerCallbackHandler;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;

/**
 * Creates the {@link SaslServer} of one exchange for a listener's enabled mechanisms, from the
 * implementations in kafka-clients: {@code PlainSaslServer} checking the JAAS entry's
 * {@code user_<name>} passwords, {@code ScramSaslServer} checking the SCRAM credentials of the
 * {@link CredentialCache} (kept from ZooKeeper's {@code /config/users}), and
 * {@code OAuthBearerSaslServer} with {@code OAuthBearerValidatorCallbackHandler}, which checks a
 * JWT's signature against the issuer's keys (JWKS), its expiry, issuer and audience (KIP-768); the
 * principal is the token's {@code sub} claim. With
 * {@code broker.sasl-scram-accept-legacy-client-nonce} SCRAM exchanges go through
 * {@link LegacyNonceScramSaslServer}.
 *
 * <p>Thread-safe: the callback handlers are built once per listener and shared; each exchange gets
 * its own server.
 */
public final class SaslServers {

    private static final String OAUTHBEARER = "OAUTHBEARER";

    private final String listenerName;
    private final List<String> mechanisms;
    private final PlainServerCallbackHandler plain;
    private final CredentialCache credentials;
    private final Map<ScramMechanism, ScramServerCallbackHandler> scram = new HashMap<>();
    private final boolean acceptLegacyScramNonce;
    private final OAuthBearerValidatorCallbackHandler oauthBearer;

    /**
     * @param listenerName the SASL listener
     * @param security     enabled mechanisms and JAAS entries
     * @param credentials  SCRAM credentials by mechanism name
     * @throws IllegalArgumentException when PLAIN is enabled without a JAAS entry of PlainLoginModule
     */
    public SaslServers(String listenerName, BrokerSecurityProperties security, CredentialCache credentials) {
        this.listenerName = listenerName;
        this.mechanisms = security.enabledMechanisms();
        this.credentials = credentials;
        this.acceptLegacyScramNonce = security.saslScramAcceptLegacyClientNonce();
        if (mechanisms.contains(PlainSaslServer.PLAIN_MECHANISM)) {
            String jaas = security.jaasConfig(listenerName, PlainSaslServer.PLAIN_MECHANISM);
            if (jaas == null || jaas.isBlank()) {
                throw new IllegalArgumentException("PLAIN is enabled on listener " + listenerName + " but no JAAS entry"
                    + " lists its users: set broker.sasl-jaas-config or broker.listener-sasl-jaas-config["
                    + listenerName.toLowerCase(Locale.ROOT) + ".plain] to org.apache.kafka.common.security.plain."
                    + "PlainLoginModule required user_<name>=\"<password>\" ...;");
            }
            plain = new PlainServerCallbackHandler();
            plain.configure(Map.of(), PlainSaslServer.PLAIN_MECHANISM, jaasEntries(PlainSaslServer.PLAIN_MECHANISM, jaas));
        } else {
            plain = null;
        }
        if (mechanisms.contains(OAUTHBEARER)) {
            if (security.saslOauthbearerJwksEndpointUrl() == null || security.saslOauthbearerJwksEndpointUrl().isBlank()) {
                throw new IllegalArgumentException("OAUTHBEARER is enabled on listener " + listenerName + " but"
                    + " broker.sasl-oauthbearer-jwks-endpoint-url is not set: tokens could not be checked");
            }
            String jaas = security.jaasConfig(listenerName, OAUTHBEARER);
            if (jaas == null || !jaas.contains("OAuthBearerLoginModule")) {
                jaas = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;";
            }
            oauthBearer = new OAuthBearerValidatorCallbackHandler();
            // Kafka's validator, without the token in its refusals (which kafka-clients logs).
            oauthBearer.configure(security.oauthBearerConfigs(RedactingJwtValidator.class), OAUTHBEARER,
                jaasEntries(OAUTHBEARER, jaas));
        } else {
            oauthBearer = null;
        }
        DelegationTokenCache tokens = new DelegationTokenCache(ScramMechanism.mechanismNames());
        for (String name : mechanisms) {
            ScramMechanism mechanism = ScramMechanism.forMechanismName(name);
            if (mechanism != null) {
                CredentialCache.Cache<ScramCredential> cache = credentials.cache(name, ScramCredential.class);
                if (cache == null) {
                    cache = credentials.createCache(name, ScramCredential.class);
                }
                ScramServerCallbackHandler handler = new ScramServerCallbackHandler(cache, tokens);
                handler.configure(Map.of(), name, List.of());
                scram.put(mechanism, handler);
            }
        }
    }

    private List<AppConfigurationEntry> jaasEntries(String mechanism, String jaas) {
        Map<String, Object> configs = Map.of(mechanism.toLowerCase(Locale.ROOT) + "." + SaslConfigs.SASL_JAAS_CONFIG,
            new Password(jaas));
        return JaasContext.loadServerContext(new ListenerName(listenerName), mechanism, configs).configurationEntries();
    }

    /** The mechanisms clients may ask for, in the order of {@code sasl.enabled.mechanisms}. */
    public List<String> mechanisms() {
        return mechanisms;
    }

    /**
     * A server for one exchange.
     *
     * @throws IllegalArgumentException when {@code mechanism} is not enabled
     * @throws SaslException            when the server cannot be created
     */
    public SaslServer create(String mechanism) throws SaslException {
        if (!mechanisms.contains(mechanism)) {
            throw new IllegalArgumentException("Mechanism " + mechanism + " is not enabled");
        }
        if (PlainSaslServer.PLAIN_MECHANISM.equals(mechanism)) {
            return new PlainSaslServer(plain);
        }
        if (OAUTHBEARER.equals(mechanism)) {
            return new OAuthBearerSaslServer(oauthBearer);
        }
        ScramMechanism scramMechanism = ScramMechanism.forMechanismName(mechanism);
        try {
            ScramSaslServer server = new ScramSaslServer(scramMechanism, Map.of(), scram.get(scramMechanism));
            return acceptLegacyScramNonce
                ? new LegacyNonceScramSaslServer(server, scramMechanism,
                    credentials.cache(mechanism, ScramCredential.class))
                : server;
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new SaslException("No hash algorithm for " + mechanism, e);
        }
    }
}
