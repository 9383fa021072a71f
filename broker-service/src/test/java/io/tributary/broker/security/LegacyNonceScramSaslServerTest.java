package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ClientFinalMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ClientFirstMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ServerFinalMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ServerFirstMessage;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;
import org.apache.kafka.common.security.scram.internals.ScramServerCallbackHandler;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCache;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SCRAM exchanges as a client writes them, against kafka-clients' server alone and wrapped: the
 * client-final nonce of librdkafka before 2.6.1 (client nonce + combined nonce) is refused by
 * Kafka 4's server and accepted by the wrapper; anything else is decided as before.
 */
class LegacyNonceScramSaslServerTest {

    private static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_512;
    private static final String PASSWORD = "carol-secret";

    private ScramFormatter formatter;
    private CredentialCache.Cache<ScramCredential> cache;
    private ScramServerCallbackHandler handler;

    @BeforeEach
    void credentials() throws Exception {
        formatter = new ScramFormatter(MECHANISM);
        cache = new CredentialCache().createCache(MECHANISM.mechanismName(), ScramCredential.class);
        cache.put("carol", formatter.generateCredential(PASSWORD, 4096));
        handler = new ScramServerCallbackHandler(cache, new DelegationTokenCache(ScramMechanism.mechanismNames()));
        handler.configure(Map.of(), MECHANISM.mechanismName(), List.of());
    }

    private SaslServer kafkaServer() throws Exception {
        return new ScramSaslServer(MECHANISM, Map.of(), handler);
    }

    private SaslServer wrapped() throws Exception {
        return new LegacyNonceScramSaslServer(kafkaServer(), MECHANISM, cache);
    }

    /** Runs an exchange whose client-final nonce is {@code nonce(clientNonce, combinedNonce)}. */
    private SaslServer exchange(SaslServer server, String password,
                                java.util.function.BinaryOperator<String> nonce) throws Exception {
        String clientNonce = formatter.secureRandomString();
        ClientFirstMessage first = new ClientFirstMessage("carol", clientNonce, Map.of());
        ServerFirstMessage serverFirst = new ServerFirstMessage(server.evaluateResponse(first.toBytes()));
        ClientFinalMessage last = new ClientFinalMessage("n,,".getBytes(StandardCharsets.UTF_8),
            nonce.apply(clientNonce, serverFirst.nonce()));
        byte[] salted = formatter.saltedPassword(password, serverFirst.salt(), serverFirst.iterations());
        last.proof(formatter.clientProof(salted, first, serverFirst, last));
        byte[] serverFinal = server.evaluateResponse(last.toBytes());
        ServerFinalMessage parsed = new ServerFinalMessage(serverFinal);
        assertThat(parsed.serverSignature()).as("the server proves it knows the credential")
            .isEqualTo(formatter.serverSignature(cache.get("carol").serverKey(), first, serverFirst, last));
        return server;
    }

    @Test
    void aStandardExchangePassesThrough() throws Exception {
        SaslServer server = exchange(wrapped(), PASSWORD, (client, combined) -> combined);
        assertThat(server.isComplete()).isTrue();
        assertThat(server.getAuthorizationID()).isEqualTo("carol");
    }

    @Test
    void kafka4RefusesTheLegacyNonceAndTheWrapperAcceptsIt() throws Exception {
        assertThatThrownBy(() -> exchange(kafkaServer(), PASSWORD, (client, combined) -> client + combined))
            .isInstanceOf(SaslException.class).hasMessageContaining("nonce");
        SaslServer server = exchange(wrapped(), PASSWORD, (client, combined) -> client + combined);
        assertThat(server.isComplete()).isTrue();
        assertThat(server.getAuthorizationID()).isEqualTo("carol");
    }

    @Test
    void theLegacyFormStillNeedsThePassword() {
        assertThatThrownBy(() -> exchange(wrapped(), "wrong", (client, combined) -> client + combined))
            .isInstanceOf(SaslException.class);
    }

    @Test
    void anyOtherPrefixIsRefused() {
        assertThatThrownBy(() -> exchange(wrapped(), PASSWORD, (client, combined) -> "x" + combined))
            .isInstanceOf(SaslException.class);
        assertThatThrownBy(() -> exchange(wrapped(), PASSWORD, (client, combined) -> combined + client))
            .isInstanceOf(SaslException.class);
    }
}
