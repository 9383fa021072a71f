package io.tributary.restproxy.ratelimit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests per caller ({@code rest-proxy.rate-limit.*}): a token bucket per principal (per client
 * address when authentication is off).
 *
 * @param requestsPerSecond sustained requests per second a caller may make; 0 turns limiting off
 * @param burst             requests a caller may make at once after being idle; 0 means
 *                          {@code requests-per-second}
 */
@ConfigurationProperties("rest-proxy.rate-limit")
public record RateLimitProperties(
        @DefaultValue("0") long requestsPerSecond,
        @DefaultValue("0") long burst) {

    public RateLimitProperties {
        if (requestsPerSecond < 0 || burst < 0) {
            throw new IllegalArgumentException("rest-proxy.rate-limit.requests-per-second and burst must not be "
                + "negative");
        }
    }

    public boolean enabled() {
        return requestsPerSecond > 0;
    }

    /** The bucket's capacity. */
    public long capacity() {
        return burst > 0 ? burst : requestsPerSecond;
    }
}
