package io.tributary.restproxy.security;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.auth.SaslExtensionsCallback;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;

/**
 * Hands a Kafka client the latest token its HTTP caller presented to the proxy, so the client
 * acts toward the brokers with the caller's own token, never one of the proxy's. Configured for a
 * bearer caller's clients ({@link KafkaLogin#saslSettings}) both as
 * {@code sasl.login.callback.handler.class} (asked when the client logs in, and when Kafka's
 * refresh thread logs in again) and as {@code sasl.client.callback.handler.class} (asked for every
 * new connection): the second is what makes a fresher token serve the caller's very next
 * connection, where Kafka's own client handler would keep the token of the last login until its
 * refresh.
 *
 * <p>The JAAS options {@value #STORE_OPTION} (a {@link BearerTokens#id()}) and
 * {@value #SUBJECT_OPTION} (the caller's {@code sub}) say whose token to give. When that caller has
 * no unexpired token, {@link #handle} throws an {@link IOException}: the login or the connection
 * fails, and the client cannot go on with an expired token. Messages name the subject, never the
 * token. Created by Kafka per client; {@link #handle} is thread-safe.
 */
public final class CallerTokenCallbackHandler implements AuthenticateCallbackHandler {

    /** The SASL mechanism this handler serves. */
    public static final String MECHANISM = "OAUTHBEARER";
    /** JAAS option: the {@link BearerTokens#id()} to take tokens from. */
    public static final String STORE_OPTION = "tributaryTokenStore";
    /** JAAS option: the subject whose token to take. */
    public static final String SUBJECT_OPTION = "tributarySubject";

    private volatile String store;
    private volatile String subject;

    @Override
    public void configure(Map<String, ?> configs, String saslMechanism, List<AppConfigurationEntry> jaasConfigEntries) {
        if (!MECHANISM.equals(saslMechanism)) {
            throw new IllegalArgumentException("Unexpected SASL mechanism " + saslMechanism + ": only " + MECHANISM);
        }
        if (jaasConfigEntries.size() != 1) {
            throw new IllegalArgumentException("Expected one JAAS login module entry, got " + jaasConfigEntries.size());
        }
        Map<String, ?> options = jaasConfigEntries.get(0).getOptions();
        if (!(options.get(STORE_OPTION) instanceof String storeId) || !(options.get(SUBJECT_OPTION) instanceof String sub)) {
            throw new IllegalArgumentException("The JAAS entry needs the options " + STORE_OPTION + " and "
                + SUBJECT_OPTION);
        }
        this.store = storeId;
        this.subject = sub;
    }

    @Override
    public void handle(Callback[] callbacks) throws IOException, UnsupportedCallbackException {
        if (subject == null) {
            throw new IllegalStateException("Callback handler not configured");
        }
        for (Callback callback : callbacks) {
            if (callback instanceof OAuthBearerTokenCallback tokenCallback) {
                CallerToken token = BearerTokens.registered(store).flatMap(tokens -> tokens.current(subject))
                    .orElseThrow(() -> new IOException("No unexpired bearer token of User:" + subject
                        + " (the caller must send a valid token to the REST proxy again)"));
                tokenCallback.token(token.asKafkaToken());
            } else if (callback instanceof SaslExtensionsCallback) {
                // No SASL extensions: the callback's default, empty, is sent.
                continue;
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    @Override
    public void close() {
        // Nothing held: the tokens belong to BearerTokens.
    }
}
