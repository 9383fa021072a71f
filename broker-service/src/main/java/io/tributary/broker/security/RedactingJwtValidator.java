package io.tributary.broker.security;

import org.apache.kafka.common.security.oauthbearer.BrokerJwtValidator;
import org.apache.kafka.common.security.oauthbearer.JwtValidatorException;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;

/**
 * Kafka's broker-side JWT validator (signature against the issuer's JWKS, expiry, issuer,
 * audience), minus one leak: when a token is refused, jose4j's message carries the whole token,
 * and kafka-clients' validator callback logs that message and its causes at WARN. A token for
 * another audience is still a live credential elsewhere, so the refusal here names what was wrong
 * but never the token, and drops the causes that quote it. Plugged in as
 * {@code sasl.oauthbearer.jwt.validator.class}.
 *
 * <p>Thread-safe as {@link BrokerJwtValidator} is.
 */
public class RedactingJwtValidator extends BrokerJwtValidator {

    @Override
    public OAuthBearerToken validate(String accessToken) throws JwtValidatorException {
        try {
            return super.validate(accessToken);
        } catch (JwtValidatorException e) {
            throw new JwtValidatorException(redact(e.getMessage(), accessToken));
        }
    }

    /** {@code message} without the token or any of its three parts. */
    static String redact(String message, String accessToken) {
        if (message == null) {
            return "The access token was refused";
        }
        String redacted = accessToken == null || accessToken.isEmpty() ? message : message.replace(accessToken, "[token]");
        if (accessToken != null) {
            for (String part : accessToken.split("\\.")) {
                if (part.length() >= 8) {
                    redacted = redacted.replace(part, "[token]");
                }
            }
        }
        return redacted;
    }
}
