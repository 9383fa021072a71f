package io.tributary.restproxy.security;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;

/**
 * One OAuth2 access token an HTTP caller presented, already checked by the proxy (signature,
 * issuer, audience, expiry), in the shape Kafka's OAUTHBEARER client sends: the compact JWT
 * {@link #value()}, the {@code sub} claim as principal name, the scopes, and the issue and expiry
 * instants. The brokers check the token again themselves.
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
public record CallerToken(String value, String subject, Set<String> scope, Instant issuedAt, Instant expiresAt)
        implements OAuthBearerToken {

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

    @Override
    public String principalName() {
        return subject;
    }

    /** The expiry, epoch milliseconds (Kafka's name: when the token's lifetime ends). */
    @Override
    public long lifetimeMs() {
        return expiresAt.toEpochMilli();
    }

    /** The issue time, epoch milliseconds, or null when the token has no {@code iat}. */
    @Override
    public Long startTimeMs() {
        return issuedAt == null ? null : issuedAt.toEpochMilli();
    }

    @Override
    public String toString() {
        return "CallerToken[subject=" + subject + ", scope=" + scope + ", issuedAt=" + issuedAt + ", expiresAt="
            + expiresAt + ", value=<redacted>]";
    }
}
