package io.tributary.restproxy.security;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * Who the proxy is toward the brokers for one piece of work: a caller's SASL login, or the
 * proxy's own ({@link #SERVICE}: the {@code kafka.*} settings as given, used when authentication
 * is off and for the health check).
 *
 * <p>Equality is by {@link #key()}, the user name and a salted fingerprint of the password, so a
 * caller who changes password gets new clients; the password itself is only ever put into the
 * JAAS settings of that caller's Kafka clients, never into {@link #toString()}, a key or a log
 * line. Immutable and thread-safe.
 */
public final class KafkaLogin {

    /** The proxy's own login: {@code kafka.*} as configured. */
    public static final KafkaLogin SERVICE = new KafkaLogin(null, null, "<service>");

    private final String username;
    private final String password;
    private final String key;

    private KafkaLogin(String username, String password, String key) {
        this.username = username;
        this.password = password;
        this.key = key;
    }

    /**
     * A caller's login.
     *
     * @param fingerprint a salted one-way hash of the password ({@link PasswordFingerprints})
     */
    public static KafkaLogin of(String username, String password, String fingerprint) {
        return new KafkaLogin(Objects.requireNonNull(username), Objects.requireNonNull(password),
            "User:" + username + "/" + fingerprint);
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

    /** The SASL settings that make a Kafka client log in as this user; none for {@link #SERVICE}. */
    public Map<String, Object> saslSettings(String mechanism) {
        if (username == null) {
            return Map.of();
        }
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
            : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return Map.of(SaslConfigs.SASL_MECHANISM, mechanism,
            SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + quote(username) + "\" password=\""
                + quote(password) + "\";");
    }

    /** Escapes for a double-quoted JAAS option value (Kafka parses it with Java's StreamTokenizer). */
    private static String quote(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
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
