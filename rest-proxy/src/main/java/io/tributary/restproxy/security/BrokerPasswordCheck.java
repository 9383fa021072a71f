package io.tributary.restproxy.security;

import io.tributary.restproxy.error.KafkaErrors;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.AuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;

/**
 * Checks an HTTP caller's user name and password by logging in to the brokers as that user
 * (SASL with {@code rest-proxy.authentication.sasl-mechanism}): the brokers' SCRAM credentials
 * or PLAIN users are the only user database. An accepted login is remembered for
 * {@code rest-proxy.authentication.cache-ttl}, keyed by user name and a salted fingerprint of
 * the password ({@link PasswordFingerprints}), so the brokers see one login per user and TTL, not
 * one per request; a refused one is never cached (each try asks the brokers, who delay failed
 * logins).
 *
 * <p>The authenticated principal is the caller's {@link KafkaLogin}; no password goes into a log
 * line or an exception message. Thread-safe.
 */
public final class BrokerPasswordCheck implements AuthenticationProvider {

    private static final Logger log = LoggerFactory.getLogger(BrokerPasswordCheck.class);
    private static final long CHECK_TIMEOUT_MS = 15_000;
    private static final int MAX_CACHED = 10_000;

    private final PasswordCheckClientSettings settings;
    private final PasswordFingerprints fingerprints;
    private final Duration cacheTtl;
    private final Clock clock;
    /** Accepted logins: expiry (epoch ms) by {@link KafkaLogin#key()}. */
    private final Map<String, Long> accepted = new ConcurrentHashMap<>();

    public BrokerPasswordCheck(PasswordCheckClientSettings settings, PasswordFingerprints fingerprints,
            Duration cacheTtl, Clock clock) {
        this.settings = settings;
        this.fingerprints = fingerprints;
        this.cacheTtl = cacheTtl;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String username = authentication.getName();
        Object credentials = authentication.getCredentials();
        if (username == null || username.isEmpty() || !(credentials instanceof String password)) {
            throw new BadCredentialsException("A user name and password are required");
        }
        KafkaLogin login = KafkaLogin.of(username, password, fingerprints.of(username, password));
        long now = clock.millis();
        Long expiresMs = accepted.get(login.key());
        if (expiresMs == null || expiresMs <= now) {
            check(login);
            remember(login, now);
        }
        return UsernamePasswordAuthenticationToken.authenticated(login, null, AuthorityUtils.NO_AUTHORITIES);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }

    /** Logs in to the brokers as {@code login} with a short-lived Admin client and asks for the cluster id. */
    private void check(KafkaLogin login) {
        try (Admin admin = Admin.create(settings.passwordCheck(login))) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) CHECK_TIMEOUT_MS)).clusterId()
                .get(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException) {
                log.info("The brokers refused the login of {}", login);
                throw new BadCredentialsException("The brokers refused the user name or password");
            }
            throw unavailable(login, e.getCause());
        } catch (TimeoutException e) {
            throw unavailable(login, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(login, e);
        } catch (RuntimeException e) {
            // Invalid client settings (e.g. no SASL protocol in kafka.security-protocol).
            throw unavailable(login, e);
        }
    }

    private static AuthenticationServiceException unavailable(KafkaLogin login, Throwable cause) {
        String reason = KafkaErrors.describe(cause);
        log.warn("Could not check the login of {} with the brokers: {}", login, reason);
        return new AuthenticationServiceException("Could not check the credentials with the brokers: " + reason);
    }

    private void remember(KafkaLogin login, long now) {
        if (accepted.size() >= MAX_CACHED) {
            accepted.values().removeIf(expiry -> expiry <= now);
            if (accepted.size() >= MAX_CACHED) {
                accepted.clear();
            }
        }
        accepted.put(login.key(), now + cacheTtl.toMillis());
    }
}
