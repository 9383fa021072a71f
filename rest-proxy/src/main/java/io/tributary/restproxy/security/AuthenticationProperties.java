package io.tributary.restproxy.security;

import java.time.Duration;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How HTTP callers sign in ({@code rest-proxy.authentication.*}).
 *
 * @param method            {@code none}: no sign-in, every request reaches the brokers as the proxy's own
 *                          Kafka login ({@code kafka.*}); {@code basic}: HTTP Basic, checked against the
 *                          brokers, and each caller acts toward the brokers as itself; {@code bearer}:
 *                          OAuth2 access tokens (JWTs, checked as {@code spring.security.oauth2.resourceserver.jwt.*}
 *                          say), and each caller acts toward the brokers with its own token (OAUTHBEARER).
 *                          One method per proxy: a proxy for both serves neither better than two proxies
 * @param saslMechanism     the SASL mechanism the proxy logs in to the brokers with on a Basic caller's behalf:
 *                          {@code SCRAM-SHA-512}, {@code SCRAM-SHA-256} or {@code PLAIN} (bearer: always OAUTHBEARER)
 * @param cacheTtl          how long a password the brokers accepted is taken as valid without asking them again
 * @param clientIdleTimeout a caller's producer and Admin client are closed after this long unused (a bearer
 *                          caller's also when its latest token expires)
 */
@ConfigurationProperties("rest-proxy.authentication")
public record AuthenticationProperties(
        @DefaultValue("none") Method method,
        @DefaultValue("SCRAM-SHA-512") String saslMechanism,
        @DefaultValue("60s") Duration cacheTtl,
        @DefaultValue("5m") Duration clientIdleTimeout) {

    /** The sign-in methods. */
    public enum Method { NONE, BASIC, BEARER }

    private static final Set<String> MECHANISMS = Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    public AuthenticationProperties {
        if (!MECHANISMS.contains(saslMechanism)) {
            throw new IllegalArgumentException("rest-proxy.authentication.sasl-mechanism '" + saslMechanism
                + "' must be one of " + MECHANISMS);
        }
        if (cacheTtl.isNegative() || clientIdleTimeout.isNegative() || clientIdleTimeout.isZero()) {
            throw new IllegalArgumentException("rest-proxy.authentication.cache-ttl must not be negative and "
                + "client-idle-timeout must be positive");
        }
    }

    /** Authentication off: the defaults. */
    public static AuthenticationProperties none() {
        return new AuthenticationProperties(Method.NONE, "SCRAM-SHA-512", Duration.ofSeconds(60), Duration.ofMinutes(5));
    }

    /** Whether callers must sign in (and act toward the brokers as themselves). */
    public boolean enabled() {
        return method != Method.NONE;
    }
}
