package io.tributary.restproxy.security;

import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Turns a JWT that Spring Security's resource server has accepted (signature against the issuer's
 * keys, {@code iss}, {@code aud}, {@code exp} and {@code nbf}, as
 * {@code spring.security.oauth2.resourceserver.jwt.*} configure) into the caller's
 * {@link KafkaLogin}: the principal {@code User:<sub>}, as the brokers' OAUTHBEARER validator names
 * it. The token is offered to {@link BearerTokens} on the way, so the caller's Kafka clients use it
 * (or a fresher one) from now on. The resulting authentication holds no token: its principal is the
 * {@link KafkaLogin}, as for Basic, so owners of consumer instances, rate limits and the caller-bound
 * clients work alike for both.
 *
 * <p>Refused ({@code invalid_token}, 401): a token without {@code sub} (the brokers could name no
 * principal for it) or {@code exp}, and one past its expiry by the injected clock. Spring Security
 * allows 60 s of clock skew on {@code exp}; the proxy allows none, since the caller's clients could
 * not log in with that token (and the brokers allow their own skew, 30 s by default, no more).
 * Thread-safe.
 */
public final class BearerTokenLogins implements Converter<Jwt, AbstractAuthenticationToken> {

    private final BearerTokens tokens;
    private final Clock clock;

    public BearerTokenLogins(BearerTokens tokens, Clock clock) {
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        String subject = jwt.getSubject();
        if (subject == null || subject.isBlank()) {
            throw new OAuth2AuthenticationException(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
                "The token has no sub claim: the brokers could name no principal for it", null));
        }
        if (jwt.getExpiresAt() == null) {
            throw new OAuth2AuthenticationException(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
                "The token has no exp claim: the brokers refuse tokens without expiry", null));
        }
        if (!jwt.getExpiresAt().isAfter(clock.instant())) {
            throw new OAuth2AuthenticationException(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN,
                "Jwt expired at " + jwt.getExpiresAt(), null));
        }
        KafkaLogin login = tokens.offer(new CallerToken(jwt.getTokenValue(), subject, scope(jwt), jwt.getIssuedAt(),
            jwt.getExpiresAt()));
        return UsernamePasswordAuthenticationToken.authenticated(login, null, AuthorityUtils.NO_AUTHORITIES);
    }

    /** The {@code scope} claim (space-separated, RFC 8693) or {@code scp} (a list, as some issuers send it). */
    private static Set<String> scope(Jwt jwt) {
        Set<String> scope = new LinkedHashSet<>();
        for (String claim : new String[] {"scope", "scp"}) {
            Object value = jwt.getClaims().get(claim);
            if (value instanceof String text) {
                for (String s : text.trim().split("\\s+")) {
                    if (!s.isEmpty()) {
                        scope.add(s);
                    }
                }
            } else if (value instanceof Collection<?> values) {
                values.forEach(v -> scope.add(String.valueOf(v)));
            }
        }
        return scope;
    }
}
