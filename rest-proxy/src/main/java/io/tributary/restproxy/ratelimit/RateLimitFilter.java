package io.tributary.restproxy.ratelimit;

import io.github.bucket4j.TimeMeter;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestExceptionHandler;
import io.tributary.restproxy.security.KafkaLogin;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.OptionalLong;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Limits each caller to {@code rest-proxy.rate-limit.requests-per-second} (bursts up to
 * {@code burst}); over the limit the answer is 429 with {@code Retry-After} in seconds and error
 * code 42901. The caller is the signed-in principal, or the client address when authentication is
 * off. Runs after Spring Security (whose filters run at order -100), so the principal is known,
 * and leaves out probes, metrics, API docs and the replicas' internal calls.
 */
@Component
@Order(0)
public class RateLimitFilter extends OncePerRequestFilter {

    private final RateLimiter limiter;
    private final JsonMapper mapper;

    public RateLimitFilter(RateLimitProperties properties, JsonMapper mapper) {
        this.limiter = properties.enabled() ? new RateLimiter(properties, TimeMeter.SYSTEM_NANOTIME) : null;
        this.mapper = mapper;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return limiter == null || path.startsWith("/actuator/") || path.startsWith("/internal/")
            || path.startsWith("/swagger-ui") || path.startsWith("/v3/api-docs");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        OptionalLong retryAfterSeconds = limiter.tryAcquire(caller(request));
        if (retryAfterSeconds.isPresent()) {
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds.getAsLong()));
            RestExceptionHandler.write(RestError.TOO_MANY_REQUESTS.exception("Too many requests: over "
                + "rest-proxy.rate-limit; retry after " + retryAfterSeconds.getAsLong() + " s"), request, response,
                mapper);
            return;
        }
        chain.doFilter(request, response);
    }

    private static String caller(HttpServletRequest request) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof KafkaLogin login) {
            return login.principal();
        }
        return "address:" + request.getRemoteAddr();
    }
}
