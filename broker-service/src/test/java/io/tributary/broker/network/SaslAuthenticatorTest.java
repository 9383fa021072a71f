package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SASL gating on a SASL_PLAINTEXT listener with PLAIN ({@link SaslAuthenticator} inside
 * {@link ConnectionHandler}, over an embedded channel with frozen time): before authentication only
 * ApiVersions reaches the request handler; SaslHandshake and SaslAuthenticate are answered by the
 * authenticator; any other request, or a SASL request out of turn, closes the connection without
 * an answer after {@code connection.failed.authentication.delay.ms}, as Kafka does; a wrong
 * password and an unknown mechanism are answered with their error and then closed (a wrong bare
 * token, after SaslHandshake v0, is closed without an answer). A successful
 * exchange (SaslAuthenticate after SaslHandshake v1, or bare tokens after v0) lets every request
 * through as {@code User:<name>}. A second frame pipelined before authentication pauses reading;
 * a frame over {@code sasl.server.max.receive.size} before authentication closes the connection,
 * and that limit no longer applies after it. Authentication outcomes are counted.
 */
class SaslAuthenticatorTest {

    private static final int SASL_MAX_RECEIVE_BYTES = 1024;
    private static final long FAILED_AUTHENTICATION_DELAY_MS = 100;
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " user_alice=\"alice-secret\";";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ControlledRequestHandler handler = new ControlledRequestHandler();
    private final EmbeddedConnection connection = EmbeddedConnection.open(handler,
        EmbeddedConnection.listener(SecurityProtocol.SASL_PLAINTEXT, Map.of(
            "broker.sasl-enabled-mechanisms", "PLAIN",
            "broker.sasl-jaas-config", JAAS,
            "broker.sasl-server-max-receive-size", String.valueOf(SASL_MAX_RECEIVE_BYTES),
            "broker.connection-failed-authentication-delay-ms", String.valueOf(FAILED_AUTHENTICATION_DELAY_MS)),
            registry),
        EmbeddedConnection.MAX_REQUEST_BYTES);

    @BeforeEach
    void freezeTime() {
        connection.channel().freezeTime();
    }

    private static ApiVersionsRequest apiVersions() {
        return new ApiVersionsRequest.Builder().build((short) 3);
    }

    private static MetadataRequest metadata() {
        return MetadataRequest.Builder.allTopics().build((short) 12);
    }

    private static SaslHandshakeRequest handshake(String mechanism, int version) {
        return new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism(mechanism))
            .build((short) version);
    }

    private static SaslAuthenticateRequest authenticate(byte[] token) {
        return new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token))
            .build((short) 2);
    }

    /** PLAIN's single message: authorization id (empty), user, password, NUL-separated. */
    private static byte[] plainToken(String user, String password) {
        return ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }

    private double authentications(String outcome) {
        return registry.get("kafka.server.socket.server.metrics." + outcome + ".authentication").counter().count();
    }

    /** Runs what the event loop has scheduled up to the failed-authentication delay. */
    private void passTheFailedAuthenticationDelay() {
        connection.channel().advanceTimeBy(FAILED_AUTHENTICATION_DELAY_MS, TimeUnit.MILLISECONDS);
        connection.channel().runScheduledPendingTasks();
    }

    private void authenticateAsAlice() {
        connection.send(handshake("PLAIN", 1));
        connection.send(authenticate(plainToken("alice", "alice-secret")));
        List<EmbeddedConnection.Received> answers = connection.responses();
        assertThat(answers).extracting(r -> r.body().errorCounts()).containsOnly(Map.of(Errors.NONE, 1));
    }

    @Test
    void aPlainExchangeLetsRequestsThroughAsTheUser() {
        connection.send(apiVersions());
        assertThat(handler.lastCall().context().principal()).isEqualTo(KafkaPrincipal.ANONYMOUS);
        handler.lastCall().respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(1);

        connection.send(handshake("PLAIN", 1));
        List<EmbeddedConnection.Received> handshakeAnswer = connection.responses();
        assertThat(handshakeAnswer).hasSize(1);
        SaslHandshakeResponse handshake = (SaslHandshakeResponse) handshakeAnswer.get(0).body();
        assertThat(handshake.error()).isEqualTo(Errors.NONE);
        assertThat(handshake.enabledMechanisms()).containsExactly("PLAIN");

        connection.send(authenticate(plainToken("alice", "alice-secret")));
        List<EmbeddedConnection.Received> authenticateAnswer = connection.responses();
        assertThat(authenticateAnswer).hasSize(1);
        SaslAuthenticateResponse authenticated = (SaslAuthenticateResponse) authenticateAnswer.get(0).body();
        assertThat(authenticated.error()).isEqualTo(Errors.NONE);
        assertThat(authenticated.sessionLifetimeMs()).isZero();
        assertThat(handler.correlationIds()).as("the SASL requests stay in the authenticator").containsExactly(1);

        connection.send(metadata());
        assertThat(handler.lastCall().context().apiKey()).isEqualTo(ApiKeys.METADATA);
        assertThat(handler.lastCall().context().principal())
            .isEqualTo(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice"));
        handler.lastCall().respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(4);
        assertThat(authentications("successful")).isEqualTo(1);
        assertThat(authentications("failed")).isZero();
    }

    @Test
    void aHandshakeV0TakesTheTokenAsABareFrame() {
        connection.send(handshake("PLAIN", 0));
        assertThat(((SaslHandshakeResponse) connection.responses().get(0).body()).error()).isEqualTo(Errors.NONE);

        connection.write(EmbeddedConnection.sizePrefixed(ByteBuffer.wrap(plainToken("alice", "alice-secret"))));
        List<ByteBuffer> answer = connection.frames();
        assertThat(answer).hasSize(1);
        assertThat(answer.get(0).remaining()).as("PLAIN's empty final challenge, bare").isZero();

        connection.send(metadata());
        assertThat(handler.lastCall().context().principal())
            .isEqualTo(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice"));
    }

    @Test
    void aWrongBareTokenClosesWithoutAnAnswerAfterTheDelay() {
        connection.send(handshake("PLAIN", 0));
        connection.responses();

        connection.write(EmbeddedConnection.sizePrefixed(ByteBuffer.wrap(plainToken("alice", "guess"))));
        assertThat(connection.isOpen()).isTrue();
        passTheFailedAuthenticationDelay();

        assertThat(connection.isOpen()).isFalse();
        assertThat(connection.frames()).isEmpty();
        assertThat(handler.calls()).isEmpty();
    }

    @Test
    void anotherRequestBeforeAuthenticationClosesWithoutAnAnswerAfterTheDelay() {
        connection.send(metadata());

        assertThat(handler.calls()).isEmpty();
        assertThat(connection.isOpen()).as("the close waits for the failed-authentication delay").isTrue();
        passTheFailedAuthenticationDelay();
        assertThat(connection.isOpen()).isFalse();
        assertThat(connection.frames()).isEmpty();
        assertThat(authentications("failed")).isEqualTo(1);
        connection.channel().checkException();
    }

    @Test
    void saslAuthenticateBeforeTheHandshakeCloses() {
        connection.send(authenticate(plainToken("alice", "alice-secret")));
        passTheFailedAuthenticationDelay();

        assertThat(connection.isOpen()).isFalse();
        assertThat(connection.frames()).isEmpty();
        assertThat(handler.calls()).isEmpty();
    }

    @Test
    void apiVersionsBetweenHandshakeAndAuthenticateCloses() {
        connection.send(handshake("PLAIN", 1));
        connection.responses();

        connection.send(apiVersions());
        passTheFailedAuthenticationDelay();

        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.calls()).isEmpty();
    }

    @Test
    void aWrongPasswordIsAnsweredAuthenticationFailedThenClosed() {
        connection.send(handshake("PLAIN", 1));
        connection.responses();

        connection.send(authenticate(plainToken("alice", "guess")));
        assertThat(connection.frames()).as("nothing before the delay").isEmpty();
        passTheFailedAuthenticationDelay();

        List<EmbeddedConnection.Received> answer = connection.responses();
        assertThat(answer).hasSize(1);
        SaslAuthenticateResponse failed = (SaslAuthenticateResponse) answer.get(0).body();
        assertThat(failed.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(failed.errorMessage()).isNotBlank().doesNotContain("guess");
        assertThat(connection.isOpen()).isFalse();
        assertThat(authentications("failed")).isEqualTo(1);
        assertThat(authentications("successful")).isZero();
    }

    @Test
    void anUnknownMechanismIsAnsweredWithTheEnabledOnesThenClosed() {
        connection.send(handshake("SCRAM-SHA-256", 1));
        passTheFailedAuthenticationDelay();

        List<EmbeddedConnection.Received> answer = connection.responses();
        assertThat(answer).hasSize(1);
        SaslHandshakeResponse refused = (SaslHandshakeResponse) answer.get(0).body();
        assertThat(refused.error()).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM);
        assertThat(refused.enabledMechanisms()).containsExactly("PLAIN");
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void aFramePipelinedBeforeAuthenticationPausesReading() {
        connection.send(apiVersions());
        assertThat(connection.readsFromSocket()).isTrue();

        connection.send(handshake("PLAIN", 1));
        assertThat(connection.readsFromSocket()).as("one frame waits: reading stops").isFalse();

        handler.lastCall().respond();
        assertThat(connection.readsFromSocket()).isTrue();
        assertThat(connection.responseCorrelationIds()).containsExactly(1, 2);
    }

    @Test
    void framesPipelinedInOneReadBeforeAuthenticationAreHandledInOrder() {
        List<Integer> ids = connection.sendPipelined(apiVersions(), handshake("PLAIN", 1),
            authenticate(plainToken("alice", "alice-secret")), metadata());
        assertThat(connection.readsFromSocket()).isFalse();
        assertThat(handler.correlationIds()).containsExactly(1);

        handler.lastCall().respond();

        assertThat(handler.correlationIds()).containsExactly(1, 4);
        assertThat(handler.lastCall().context().principal())
            .isEqualTo(new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice"));
        handler.lastCall().respond();
        assertThat(connection.responseCorrelationIds()).isEqualTo(ids);
        assertThat(connection.readsFromSocket()).isTrue();
    }

    @Test
    void aFrameOverTheSaslReceiveSizeBeforeAuthenticationCloses() {
        ByteBuf frame = connection.frameOfSize(apiVersions(), 1, SASL_MAX_RECEIVE_BYTES + 1);

        connection.write(frame.readRetainedSlice(8));

        assertThat(connection.isOpen()).as("closed at once, no delay").isFalse();
        assertThat(handler.calls()).isEmpty();
        connection.channel().checkException();
        frame.release();
    }

    @Test
    void aFrameOfTheSaslReceiveSizeBeforeAuthenticationIsTaken() {
        connection.write(connection.frameOfSize(apiVersions(), 1, SASL_MAX_RECEIVE_BYTES));

        assertThat(connection.isOpen()).isTrue();
        assertThat(handler.correlationIds()).containsExactly(1);
    }

    @Test
    void afterAuthenticationTheSaslReceiveSizeNoLongerApplies() {
        authenticateAsAlice();

        connection.write(connection.frameOfSize(metadata(), 10, 4 * SASL_MAX_RECEIVE_BYTES));

        assertThat(connection.isOpen()).isTrue();
        assertThat(handler.correlationIds()).containsExactly(10);
    }

    @Test
    void afterAuthenticationSaslRequestsGoToTheRequestHandler() {
        authenticateAsAlice();

        connection.send(handshake("PLAIN", 1));

        assertThat(handler.lastCall().context().apiKey()).isEqualTo(ApiKeys.SASL_HANDSHAKE);
        assertThat(connection.isOpen()).isTrue();
    }
}
