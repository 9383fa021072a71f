package io.tributary.restproxy.security;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;

/**
 * One OAuth2 access token an HTTP caller presented, already checked by the proxy (signature,
 * issuer, audience, expiry): the compact JWT {@link #value()}, the {@code sub} claim, the scopes,
 * and the issue and expiry instants. The brokers check the token again themselves.
 *
 * <p>Not itself Kafka's {@link OAuthBearerToken}: Kafka keeps tokens in a JAAS Subject's credential
 * set and, on a refresh, removes the previous login's token from it; with a record's value
 * equality a refresh that got the same token again would remove the new one too.
 * {@link #asKafkaToken()} gives a distinct object each time.
 *
 * <p>{@link #toString()} never shows the token's value: a record's generated one would, and a
 * token is as good as a password until it expires. Immutable and thread-safe.
 *
 * @param value     the compact serialization ({@code header.payload.signature}) as the caller sent it
 * @param subject   the {@code sub} claim: the principal name the brokers' validator derives, {@code User:<subject>}
 * @param scope     the {@code scope} (or {@code scp}) claim's values, empty when absent
 * @param issuedAt  the {@code iat} claim, or null when absent
 * @param expiresAt the {@code exp} claim
 */
public record CallerToken(String value, String subject, Set<String> scope, Instant issuedAt, Instant expiresAt) {

    public CallerToken {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(expiresAt, "expiresAt");
        scope = Set.copyOf(scope);
    }

    /** Whether the token is past its expiry at {@code nowMs} (epoch milliseconds). */
    public boolean expiredAt(long nowMs) {
        return expiresAt.toEpochMilli() <= nowMs;
    }

    /**
     * This token as Kafka's OAUTHBEARER client takes it: a new object on every call, equal only to
     * itself; its {@code lifetimeMs} is the expiry in epoch milliseconds, its {@code principalName}
     * the subject.
     */
    public OAuthBearerToken asKafkaToken() {
        CallerToken token = this;
        return new OAuthBearerToken() {
            @Override
            public String value() {
                return token.value;
            }

            @Override
            public Set<String> scope() {
                return token.scope;
            }

            @Override
            public long lifetimeMs() {
                return token.expiresAt.toEpochMilli();
            }

            @Override
            public String principalName() {
                return token.subject;
            }

            @Override
            public Long startTimeMs() {
                return token.issuedAt == null ? null : token.issuedAt.toEpochMilli();
            }

            @Override
            public String toString() {
                return token.toString();
            }
        };
    }

    @Override
    public String toString() {
        return "CallerToken[subject=" + subject + ", scope=" + scope + ", issuedAt=" + issuedAt + ", expiresAt="
            + expiresAt + ", value=<redacted>]";
    }
}
