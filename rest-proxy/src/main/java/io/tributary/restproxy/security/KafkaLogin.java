package io.tributary.restproxy.security;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Who the proxy is toward the brokers for one piece of work: a caller's SASL login, or the
 * proxy's own ({@link #SERVICE}: the {@code kafka.*} settings as given, used when authentication
 * is off and for the health check).
 *
 * <p>A Basic caller ({@link #of}) logs in with its user name and password; equality is by
 * {@link #key()}, the user name and a salted fingerprint of the password, so a caller who changes
 * password gets new clients; the password itself is only ever put into the JAAS settings of that
 * caller's Kafka clients, never into {@link #toString()}, a key or a log line.
 *
 * <p>A bearer caller ({@link #bearer}) logs in with OAUTHBEARER; its key is the token's subject
 * alone, so one set of clients serves the caller across its tokens, and no token is held here:
 * its clients ask {@link BearerTokens} for the caller's latest token at each login and each new
 * connection ({@link CallerTokenCallbackHandler}). Immutable and thread-safe.
 */
public final class KafkaLogin {

    /** The proxy's own login: {@code kafka.*} as configured. */
    public static final KafkaLogin SERVICE = new KafkaLogin(null, null, "<service>", null);

    private final String username;
    private final String password;
    private final String key;
    /** For a bearer caller, the {@link BearerTokens#id()} its clients take tokens from; else null. */
    private final String tokenStore;

    private KafkaLogin(String username, String password, String key, String tokenStore) {
        this.username = username;
        this.password = password;
        this.key = key;
        this.tokenStore = tokenStore;
    }

    /**
     * A caller's login.
     *
     * @param fingerprint a salted one-way hash of the password ({@link PasswordFingerprints})
     */
    public static KafkaLogin of(String username, String password, String fingerprint) {
        return new KafkaLogin(Objects.requireNonNull(username), Objects.requireNonNull(password),
            "User:" + username + "/" + fingerprint, null);
    }

    /**
     * A bearer-token caller: the principal {@code User:<subject>}, whose Kafka clients log in with
     * OAUTHBEARER and the latest token {@code tokens} holds for {@code subject}.
     *
     * @param subject    the tokens' {@code sub} claim, which the brokers' validator takes as principal name
     * @param tokenStore the {@link BearerTokens#id()} of the store the proxy puts the caller's tokens in
     */
    public static KafkaLogin bearer(String subject, String tokenStore) {
        return new KafkaLogin(Objects.requireNonNull(subject), null, "User:" + subject + "/bearer",
            Objects.requireNonNull(tokenStore));
    }

    /** Whether this login carries bearer tokens ({@link #bearer}) rather than a password or nothing. */
    public boolean isBearer() {
        return tokenStore != null;
    }

    /** For a bearer login, the {@link BearerTokens#id()} its clients take tokens from; else null. */
    public String tokenStore() {
        return tokenStore;
    }

    /** The principal's name as the brokers' ACLs see it ({@code User:<name>}), or {@code <service>}. */
    public String principal() {
        return username == null ? key : "User:" + username;
    }

    /** The user name, or null for {@link #SERVICE}. */
    public String username() {
        return username;
    }

    /** What identifies this login in caches and pools: user name and password fingerprint, no password. */
    public String key() {
        return key;
    }

    /**
     * The SASL settings that make a Kafka client log in as this user; none for {@link #SERVICE}.
     *
     * @param mechanism the SASL mechanism for a password login; a bearer login always uses OAUTHBEARER
     */
    public Map<String, Object> saslSettings(String mechanism) {
        if (username == null) {
            return Map.of();
        }
        if (tokenStore != null) {
            // Kafka shares one login (and its Subject) between clients with the same JAAS text, so the
            // text names the caller; the connections take the token from the client callback handler,
            // not from that Subject, so a fresher token serves the next connection at once.
            return Map.of(SaslConfigs.SASL_MECHANISM, CallerTokenCallbackHandler.MECHANISM,
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
                    + " required " + CallerTokenCallbackHandler.STORE_OPTION + "=\"" + quote(tokenStore) + "\" "
                    + CallerTokenCallbackHandler.SUBJECT_OPTION + "=\"" + quote(username) + "\";",
                SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, CallerTokenCallbackHandler.class,
                SaslConfigs.SASL_CLIENT_CALLBACK_HANDLER_CLASS, CallerTokenCallbackHandler.class);
        }
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
            : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return Map.of(SaslConfigs.SASL_MECHANISM, mechanism,
            SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + quote(username) + "\" password=\""
                + quote(password) + "\";");
    }

    /**
     * Escapes for a double-quoted JAAS option value (Kafka parses it with Java's StreamTokenizer).
     * A line break would end the quoted value there, and the rest of a caller's name (a token's
     * {@code sub} is the issuer's text) be parsed as further options, overriding the subject or the
     * store the clients take tokens from: so CR and LF are written as the tokenizer's escapes too.
     */
    private static String quote(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KafkaLogin other && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return principal();
    }
}
