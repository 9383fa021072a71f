package io.tributary.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ClientFinalMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ClientFirstMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ServerFinalMessage;
import org.apache.kafka.common.security.scram.internals.ScramMessages.ServerFirstMessage;

/**
 * kafka-clients' SCRAM server, plus one client it refuses: librdkafka before 2.6.1 (Debian's kcat
 * 1.7.1 among them) sends a client-final nonce of its own nonce followed by the server's combined
 * nonce, {@code r=<client nonce><client nonce><server nonce>}, and computes its proof over that.
 * Kafka 3.x accepted it (it checked that the nonce ends with the combined nonce, since the fix of
 * CVE-2024-56128); Kafka 4 demands equality and refuses it (librdkafka PR #4895 fixed the client).
 *
 * <p>Everything else goes to the wrapped {@link org.apache.kafka.common.security.scram.internals.ScramSaslServer}.
 * Only the legacy form's final step is checked here, with kafka-clients' {@link ScramFormatter}: the
 * nonce must be exactly the client nonce plus the combined nonce (stricter than 3.x, which took
 * any prefix), the channel binding must repeat the client-first GS2 header, and the proof must
 * match the user's stored key. The server nonce still binds the exchange to this session, so the
 * replay CVE-2024-56128 was about stays closed.
 *
 * <p>Not thread-safe: one exchange on one connection.
 */
final class LegacyNonceScramSaslServer implements SaslServer {

    private final SaslServer delegate;
    private final ScramFormatter formatter;
    private final CredentialCache.Cache<ScramCredential> credentials;
    private ClientFirstMessage clientFirst;
    private ServerFirstMessage serverFirst;
    private String legacyUser;

    LegacyNonceScramSaslServer(SaslServer delegate, ScramMechanism mechanism,
                               CredentialCache.Cache<ScramCredential> credentials) throws NoSuchAlgorithmException {
        this.delegate = delegate;
        this.formatter = new ScramFormatter(mechanism);
        this.credentials = credentials;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        if (clientFirst == null) {
            ClientFirstMessage first = new ClientFirstMessage(response);
            byte[] challenge = delegate.evaluateResponse(response);
            clientFirst = first;
            serverFirst = new ServerFirstMessage(challenge);
            return challenge;
        }
        if (serverFirst != null && legacyUser == null) {
            ClientFinalMessage clientFinal = new ClientFinalMessage(response);
            if (clientFinal.nonce().equals(clientFirst.nonce() + serverFirst.nonce())) {
                return verifyLegacyFinal(clientFinal);
            }
        }
        return delegate.evaluateResponse(response);
    }

    private byte[] verifyLegacyFinal(ClientFinalMessage clientFinal) throws SaslException {
        String user = ScramFormatter.username(clientFirst.saslName());
        ScramCredential credential = credentials.get(user);
        String authorizationId = clientFirst.authorizationId();
        if (credential == null || !Arrays.equals(clientFinal.channelBinding(),
                clientFirst.gs2Header().getBytes(StandardCharsets.UTF_8))
                || (authorizationId != null && !authorizationId.isEmpty() && !authorizationId.equals(user))) {
            throw new SaslAuthenticationException("Authentication failed: Invalid user credentials");
        }
        try {
            byte[] signature = formatter.clientSignature(credential.storedKey(), clientFirst, serverFirst, clientFinal);
            byte[] clientKey = ScramFormatter.xor(signature, clientFinal.proof());
            if (!MessageDigest.isEqual(formatter.storedKey(clientKey), credential.storedKey())) {
                throw new SaslException("Invalid client credentials");
            }
            byte[] serverSignature = formatter.serverSignature(credential.serverKey(), clientFirst, serverFirst,
                clientFinal);
            legacyUser = user;
            return new ServerFinalMessage(null, serverSignature).toBytes();
        } catch (InvalidKeyException | IllegalArgumentException e) {
            throw new SaslException("Invalid client credentials", e);
        }
    }

    @Override
    public String getMechanismName() {
        return delegate.getMechanismName();
    }

    @Override
    public boolean isComplete() {
        return legacyUser != null || delegate.isComplete();
    }

    @Override
    public String getAuthorizationID() {
        return legacyUser != null ? legacyUser : delegate.getAuthorizationID();
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
        return legacyUser != null ? null : delegate.getNegotiatedProperty(propName);
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
        return delegate.unwrap(incoming, offset, len);
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
        return delegate.wrap(outgoing, offset, len);
    }

    @Override
    public void dispose() throws SaslException {
        delegate.dispose();
    }
}
