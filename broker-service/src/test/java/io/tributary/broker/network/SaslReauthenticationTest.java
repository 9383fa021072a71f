package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.testing.MockTime;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.Test;

/**
 * Re-authentication (KIP-368) on a SASL_PLAINTEXT listener with {@code connections.max.reauth.ms}
 * of 10 s, over an embedded channel and a mock clock: SaslAuthenticate tells the client the session
 * lifetime; a request after it expired closes the connection; SaslHandshake and SaslAuthenticate
 * on the authenticated connection renew it, at most once a second, only as the same principal and
 * with the same mechanism (Kafka's messages otherwise). Without the setting, sessions last and a
 * later SaslHandshake is an ordinary request.
 */
class SaslReauthenticationTest {

    private static final long MAX_REAUTH_MS = 10_000;
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " user_alice=\"alice-secret\" user_bob=\"bob-secret\";";

    private final MockTime time = new MockTime();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ControlledRequestHandler handler = new ControlledRequestHandler();

    private EmbeddedConnection connect(long maxReauthMs) {
        EmbeddedConnection connection = EmbeddedConnection.open(handler,
            EmbeddedConnection.listener(SecurityProtocol.SASL_PLAINTEXT, Map.of(
                "broker.sasl-enabled-mechanisms", "PLAIN,SCRAM-SHA-256",
                "broker.sasl-jaas-config", JAAS,
                "broker.connection-failed-authentication-delay-ms", "0",
                "broker.connections-max-reauth-ms", String.valueOf(maxReauthMs)), registry, time),
            EmbeddedConnection.MAX_REQUEST_BYTES);
        connection.channel().freezeTime();
        return connection;
    }

    private static SaslHandshakeRequest handshake(String mechanism) {
        return new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism(mechanism)).build((short) 1);
    }

    private static SaslAuthenticateRequest authenticate(String user, String password) {
        byte[] token = ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
        return new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token)).build((short) 2);
    }

    /** Handshake and authenticate; returns the SaslAuthenticate answer. */
    private static SaslAuthenticateResponse login(EmbeddedConnection connection, String user, String password) {
        connection.send(handshake("PLAIN"));
        assertThat(((SaslHandshakeResponse) connection.responses().get(0).body()).error()).isEqualTo(Errors.NONE);
        connection.send(authenticate(user, password));
        List<EmbeddedConnection.Received> answers = connection.responses();
        assertThat(answers).hasSize(1);
        return (SaslAuthenticateResponse) answers.get(0).body();
    }

    private boolean served(EmbeddedConnection connection) {
        int before = handler.correlationIds().size();
        connection.send(MetadataRequest.Builder.allTopics().build((short) 12));
        if (handler.correlationIds().size() == before) {
            return false;
        }
        assertThat(handler.lastCall().context().apiKey()).isEqualTo(ApiKeys.METADATA);
        handler.lastCall().respond();
        connection.responses();
        return true;
    }

    private double count(String name) {
        return registry.get("kafka.server.socket.server.metrics." + name).counter().count();
    }

    @Test
    void theSessionLifetimeIsSentAndAnExpiredSessionClosesTheConnectionAtItsNextRequest() {
        EmbeddedConnection connection = connect(MAX_REAUTH_MS);
        assertThat(login(connection, "alice", "alice-secret").sessionLifetimeMs()).isEqualTo(MAX_REAUTH_MS);
        time.sleep(MAX_REAUTH_MS);
        assertThat(served(connection)).as("at the lifetime").isTrue();

        time.sleep(1);
        assertThat(served(connection)).as("past it").isFalse();
        assertThat(connection.isOpen()).isFalse();
        assertThat(count("expired.connections.killed.count")).isEqualTo(1);
    }

    @Test
    void reauthenticatingOnTheConnectionRenewsTheSession() {
        EmbeddedConnection connection = connect(MAX_REAUTH_MS);
        login(connection, "alice", "alice-secret");
        time.sleep(9_000);

        SaslAuthenticateResponse renewed = login(connection, "alice", "alice-secret");
        assertThat(renewed.error()).isEqualTo(Errors.NONE);
        assertThat(renewed.sessionLifetimeMs()).isEqualTo(MAX_REAUTH_MS);
        time.sleep(9_000); // 18 s after the first login
        assertThat(served(connection)).isTrue();
        assertThat(handler.lastCall().context().principal()).isEqualTo(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice"));
        assertThat(handler.correlationIds()).as("the SASL requests stay in the authenticator").hasSize(1);
        assertThat(count("successful.authentication")).isEqualTo(1);
        assertThat(count("successful.reauthentication")).isEqualTo(1);
    }

    @Test
    void aSecondReauthenticationWithinASecondIsAnOrdinaryHandshake() {
        EmbeddedConnection connection = connect(MAX_REAUTH_MS);
        login(connection, "alice", "alice-secret");
        login(connection, "alice", "alice-secret");
        time.sleep(999);

        connection.send(handshake("PLAIN"));
        assertThat(handler.lastCall().context().apiKey()).as("to the handler, which answers ILLEGAL_SASL_STATE")
            .isEqualTo(ApiKeys.SASL_HANDSHAKE);
    }

    @Test
    void reauthenticationCannotChangeThePrincipal() {
        EmbeddedConnection connection = connect(MAX_REAUTH_MS);
        login(connection, "alice", "alice-secret");

        SaslAuthenticateResponse refused = login(connection, "bob", "bob-secret");
        connection.channel().runPendingTasks();
        assertThat(refused.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(refused.errorMessage()).isEqualTo("Cannot change principals during re-authentication from User.alice: User.bob");
        assertThat(connection.isOpen()).isFalse();
        assertThat(count("failed.reauthentication")).isEqualTo(1);
    }

    @Test
    void reauthenticationCannotChangeTheMechanism() {
        EmbeddedConnection connection = connect(MAX_REAUTH_MS);
        login(connection, "alice", "alice-secret");

        connection.send(handshake("SCRAM-SHA-256"));
        assertThat(((SaslHandshakeResponse) connection.responses().get(0).body()).error()).isEqualTo(Errors.NONE);
        connection.send(authenticate("alice", "alice-secret"));
        SaslAuthenticateResponse refused = (SaslAuthenticateResponse) connection.responses().get(0).body();
        connection.channel().runPendingTasks();
        assertThat(refused.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(refused.errorMessage()).isEqualTo("SASL mechanism 'SCRAM-SHA-256' requested by client is not "
            + "supported for re-authentication of mechanism 'PLAIN'");
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void withoutAMaximumSessionsLastAndALaterHandshakeGoesToTheHandler() {
        EmbeddedConnection connection = connect(0);
        assertThat(login(connection, "alice", "alice-secret").sessionLifetimeMs()).isZero();
        time.sleep(TimeUnit.DAYS.toMillis(30));
        assertThat(served(connection)).isTrue();

        connection.send(handshake("PLAIN"));
        assertThat(handler.lastCall().context().apiKey()).isEqualTo(ApiKeys.SASL_HANDSHAKE);
    }
}
