package io.tributary.broker.network;

import io.netty.channel.ChannelHandlerContext;
import io.tributary.broker.security.ListenerSecurity;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.network.ByteBufferSend;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.authenticator.SaslInternalConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SASL exchange of one connection on a SASL_PLAINTEXT or SASL_SSL listener, as Kafka's
 * {@code SaslServerAuthenticator} runs it (KIP-43, KIP-152):
 * <ol>
 *   <li>ApiVersions (any number) and then SaslHandshake naming a mechanism; a mechanism not
 *       enabled is answered UNSUPPORTED_SASL_MECHANISM with the enabled list;</li>
 *   <li>after SaslHandshake v1, SaslAuthenticate requests carry the mechanism's tokens; after v0
 *       the tokens come as bare size-prefixed frames;</li>
 *   <li>when the mechanism's server completes, the connection's principal is
 *       {@code User:<authorization id>} and every later request goes to the request handler.</li>
 * </ol>
 * Any other request before that closes the connection. A failed exchange is answered
 * SASL_AUTHENTICATION_FAILED (the mechanism's message when it is an
 * {@link SaslAuthenticationException}, a generic one otherwise), after
 * {@code connection.failed.authentication.delay.ms}, and the connection is then closed. As in
 * Kafka, SCRAM refuses an unknown user at the first message and a wrong password at the last, so
 * the step of a refusal tells whether a user exists; the delay slows guessing either way.
 * Unexpected requests before authentication count and wait as failures too.
 *
 * <p>Re-authentication (KIP-368): a session lasts {@code connections.max.reauth.ms}, or until an
 * OAUTHBEARER token expires if that is sooner, and SaslAuthenticate (v1+) tells the client so in
 * {@code session_lifetime_ms} (0: no limit). The client re-authenticates in band before then with
 * SaslHandshake and SaslAuthenticate on the same connection, at most once a second, with the same
 * mechanism and as the same principal (else the connection is refused and closed, with Kafka's
 * messages); a request after the session expired closes the connection
 * ({@link #sessionExpired}, checked by the connection).
 *
 * <p>Not thread-safe: confined to the connection's event loop.
 */
final class SaslAuthenticator {

    private static final Logger log = LoggerFactory.getLogger(SaslAuthenticator.class);

    private enum State { HANDSHAKE, AUTHENTICATE, RAW_TOKENS, COMPLETE, FAILED }

    private static final long MIN_REAUTH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ListenerSecurity security;
    private final String connectionId;
    private State state = State.HANDSHAKE;
    private SaslServer server;
    private KafkaPrincipal principal;
    private String mechanism;
    /** The session's lifetime sent to the client, ms; 0 when it does not expire. */
    private long sessionLifetimeMs;
    /** When the session expires (time's nanoseconds), or null when it does not. */
    private Long sessionExpirationNanos;
    /** The session being re-authenticated: its principal and mechanism; null otherwise. */
    private KafkaPrincipal reauthenticatingPrincipal;
    private String reauthenticatingMechanism;
    private String badReauthenticationMechanism;
    private boolean reauthenticatedBefore;
    private long lastReauthenticationStartNanos;

    SaslAuthenticator(ListenerSecurity security, String connectionId) {
        this.security = security;
        this.connectionId = connectionId;
    }

    /**
     * A SaslHandshake arrived on the authenticated connection: starts re-authenticating if the session
     * has a lifetime and the last re-authentication began at least a second ago, as Kafka's
     * {@code KafkaChannel.maybeBeginServerReauthentication}. Otherwise the handshake is an ordinary
     * request (answered ILLEGAL_SASL_STATE).
     *
     * @return whether the authenticator takes the handshake
     */
    boolean maybeBeginReauthentication(long nowNanos) {
        if (state != State.COMPLETE || sessionExpirationNanos == null) {
            return false;
        }
        if (reauthenticatedBefore && nowNanos - lastReauthenticationStartNanos < MIN_REAUTH_INTERVAL_NANOS) {
            return false;
        }
        reauthenticatedBefore = true;
        lastReauthenticationStartNanos = nowNanos;
        reauthenticatingPrincipal = principal;
        reauthenticatingMechanism = mechanism;
        badReauthenticationMechanism = null;
        state = State.HANDSHAKE;
        log.debug("Connection {} re-authenticating {}", connectionId, principal);
        return true;
    }

    /** Whether the authenticated session has expired at {@code nowNanos} (a request then closes the connection). */
    boolean sessionExpired(long nowNanos) {
        return state == State.COMPLETE && sessionExpirationNanos != null && nowNanos - sessionExpirationNanos > 0;
    }

    private boolean reauthenticating() {
        return reauthenticatingPrincipal != null;
    }

    /** Whether the exchange is over and requests go to the request handler. */
    boolean complete() {
        return state == State.COMPLETE;
    }

    /** Whether the next frame is a bare SASL token (after SaslHandshake v0). */
    boolean expectsRawToken() {
        return state == State.RAW_TOKENS;
    }

    /** The authenticated principal; null until {@link #complete()}. */
    KafkaPrincipal principal() {
        return principal;
    }

    /**
     * A request before the exchange completed.
     *
     * @return the answer, or null when the request is for the request handler (ApiVersions)
     */
    CompletableFuture<Response> onRequest(ChannelHandlerContext ctx, RequestContext context, ByteBuffer body,
                                          SSLSession session) {
        ApiKeys api = context.apiKey();
        if (state == State.HANDSHAKE && api == ApiKeys.API_VERSIONS) {
            return null;
        }
        if (state == State.HANDSHAKE && api == ApiKeys.SASL_HANDSHAKE) {
            return handshake(ctx, context, body);
        }
        if (state == State.AUTHENTICATE && api == ApiKeys.SASL_AUTHENTICATE) {
            return authenticate(ctx, context, body, session);
        }
        return fail(ctx, "unexpected " + api + " request during SASL authentication", null);
    }

    private CompletableFuture<Response> handshake(ChannelHandlerContext ctx, RequestContext context, ByteBuffer body) {
        String mechanism = new SaslHandshakeRequestData(new ByteBufferAccessor(body), context.apiVersion()).mechanism();
        SaslHandshakeResponseData answer = new SaslHandshakeResponseData()
            .setMechanisms(security.saslServers().mechanisms());
        if (!security.saslServers().mechanisms().contains(mechanism)) {
            return fail(ctx, "unsupported SASL mechanism " + printable(mechanism),
                send(context, new SaslHandshakeResponse(answer.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()))));
        }
        if (reauthenticating() && !mechanism.equals(reauthenticatingMechanism)) {
            // As Kafka: the handshake is answered, the SaslAuthenticate that follows is refused.
            badReauthenticationMechanism = String.format("SASL mechanism '%s' requested by client is not supported "
                + "for re-authentication of mechanism '%s'", mechanism, reauthenticatingMechanism);
        }
        try {
            server = security.saslServers().create(mechanism);
        } catch (SaslException e) {
            return fail(ctx, e.getMessage(), send(context, new SaslHandshakeResponse(
                answer.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()))));
        }
        state = context.apiVersion() == 0 ? State.RAW_TOKENS : State.AUTHENTICATE;
        return CompletableFuture.completedFuture(Response.send(send(context,
            new SaslHandshakeResponse(answer.setErrorCode(Errors.NONE.code())))));
    }

    private CompletableFuture<Response> authenticate(ChannelHandlerContext ctx, RequestContext context, ByteBuffer body,
                                                     SSLSession session) {
        byte[] token = new SaslAuthenticateRequestData(new ByteBufferAccessor(body), context.apiVersion()).authBytes();
        SaslAuthenticateResponseData answer = new SaslAuthenticateResponseData();
        try {
            if (badReauthenticationMechanism != null) {
                throw new SaslAuthenticationException(badReauthenticationMechanism);
            }
            byte[] challenge = evaluate(token, context.clientAddress(), session);
            answer.setErrorCode(Errors.NONE.code()).setAuthBytes(challenge == null ? new byte[0] : challenge)
                .setSessionLifetimeMs(state == State.COMPLETE ? sessionLifetimeMs : 0);
            return CompletableFuture.completedFuture(Response.send(send(context, new SaslAuthenticateResponse(answer))));
        } catch (SaslException | RuntimeException e) {
            answer.setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code()).setErrorMessage(clientMessage(e))
                .setAuthBytes(new byte[0]);
            return fail(ctx, e.getMessage(), send(context, new SaslAuthenticateResponse(answer)));
        }
    }

    /** A bare token after SaslHandshake v0; a failure closes the connection without an answer, as in Kafka. */
    CompletableFuture<Response> onRawToken(ChannelHandlerContext ctx, ByteBuffer token, InetAddress client,
                                           SSLSession session) {
        byte[] bytes = new byte[token.remaining()];
        token.get(bytes);
        try {
            byte[] challenge = evaluate(bytes, client, session);
            return CompletableFuture.completedFuture(Response.send(
                ByteBufferSend.sizePrefixed(ByteBuffer.wrap(challenge == null ? new byte[0] : challenge))));
        } catch (SaslException | RuntimeException e) {
            return fail(ctx, e.getMessage(), null);
        }
    }

    private byte[] evaluate(byte[] token, InetAddress client, SSLSession session) throws SaslException {
        byte[] challenge = server.evaluateResponse(token);
        if (server.isComplete()) {
            KafkaPrincipal authenticated = security.saslPrincipal(server, client, session);
            if (reauthenticating() && !reauthenticatingPrincipal.equals(authenticated)) {
                throw new SaslAuthenticationException(String.format(
                    "Cannot change principals during re-authentication from %s.%s: %s.%s",
                    reauthenticatingPrincipal.getPrincipalType(), reauthenticatingPrincipal.getName(),
                    authenticated.getPrincipalType(), authenticated.getName()));
            }
            boolean reauthentication = reauthenticating();
            principal = authenticated;
            mechanism = server.getMechanismName();
            startSession(credentialExpirationMs(server));
            reauthenticatingPrincipal = null;
            reauthenticatingMechanism = null;
            state = State.COMPLETE;
            dispose();
            security.recordSuccess(reauthentication);
            log.debug("Connection {} {} as {} with {}; session lifetime {} ms", connectionId,
                reauthentication ? "re-authenticated" : "authenticated", principal, mechanism, sessionLifetimeMs);
        }
        return challenge;
    }

    /**
     * Sets the session's expiry as Kafka's {@code SaslServerAuthenticator}: the sooner of
     * {@code connections.max.reauth.ms} (when positive) and the credential's expiry (an OAUTHBEARER
     * token's), none when neither applies.
     */
    private void startSession(Long credentialExpirationMs) {
        long nowMs = security.time().milliseconds();
        long nowNanos = security.time().nanoseconds();
        long maxReauthMs = security.connectionsMaxReauthMs();
        if (credentialExpirationMs == null && maxReauthMs <= 0) {
            sessionLifetimeMs = 0;
            sessionExpirationNanos = null;
            return;
        }
        long lifetimeMs = credentialExpirationMs == null ? maxReauthMs
            : maxReauthMs <= 0 ? credentialExpirationMs - nowMs
            : Math.min(credentialExpirationMs - nowMs, maxReauthMs);
        sessionLifetimeMs = Math.max(0, lifetimeMs);
        sessionExpirationNanos = nowNanos + TimeUnit.MILLISECONDS.toNanos(sessionLifetimeMs);
    }

    /** When the mechanism says the credential expires (an OAUTHBEARER token), epoch ms, or null. */
    private static Long credentialExpirationMs(SaslServer server) {
        try {
            Object value = server.getNegotiatedProperty(SaslInternalConfigs.CREDENTIAL_LIFETIME_MS_SASL_NEGOTIATED_PROPERTY_KEY);
            return value instanceof Long ms ? ms : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private String clientMessage(Exception e) {
        if (e instanceof SaslAuthenticationException && e.getMessage() != null) {
            return e.getMessage();
        }
        return "Authentication failed during authentication due to invalid credentials with SASL mechanism "
            + server.getMechanismName();
    }

    /** Releases the mechanism's server (its exchange state and credentials); idempotent. */
    void dispose() {
        if (server != null) {
            try {
                server.dispose();
            } catch (SaslException | RuntimeException e) {
                log.debug("Could not dispose the SASL server of connection {}", connectionId, e);
            }
            server = null;
        }
    }

    /** At most 64 printable ASCII characters of a client-chosen string, for log lines. */
    static String printable(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length() && out.length() < 64; i++) {
            char c = value.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return value.length() > 64 ? out + "..." : out.toString();
    }

    private CompletableFuture<Response> fail(ChannelHandlerContext ctx, String reason,
                                             org.apache.kafka.common.network.Send answer) {
        state = State.FAILED;
        dispose();
        security.recordFailure(reauthenticating());
        log.info("Failed authentication of connection {} on listener {} ({})", connectionId, security.listenerName(),
            reason);
        String closeReason = "failed authentication";
        Response response = answer == null ? Response.close(closeReason) : new Response.SendThenClose(answer, closeReason);
        long delayMs = security.failedAuthenticationDelayMs();
        if (delayMs <= 0) {
            return CompletableFuture.completedFuture(response);
        }
        CompletableFuture<Response> delayed = new CompletableFuture<>();
        ctx.executor().schedule(() -> delayed.complete(response), delayMs, TimeUnit.MILLISECONDS);
        return delayed;
    }

    private static org.apache.kafka.common.network.Send send(RequestContext context, AbstractResponse response) {
        return response.toSend(context.responseHeader(), context.apiVersion());
    }
}
