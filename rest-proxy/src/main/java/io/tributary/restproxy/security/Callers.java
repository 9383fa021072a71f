package io.tributary.restproxy.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The Kafka login of the HTTP caller being served on the current thread. With authentication off
 * every caller is {@link KafkaLogin#SERVICE}; with it on, the login comes from Spring Security's
 * context of the request thread, and a thread without one (a pool thread, a timer) gets an
 * exception, never a fallback identity: work that leaves the request thread captures the login
 * with {@link #current()} first and passes it on. Thread-safe.
 */
public final class Callers {

    private final boolean enabled;

    public Callers(AuthenticationProperties properties) {
        this.enabled = properties.enabled();
    }

    /** Authentication off: everyone is {@link KafkaLogin#SERVICE}. */
    public static Callers anonymous() {
        return new Callers(AuthenticationProperties.none());
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The current caller's login.
     *
     * @throws IllegalStateException with authentication on, when this thread serves no signed-in caller
     */
    public KafkaLogin current() {
        if (!enabled) {
            return KafkaLogin.SERVICE;
        }
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof KafkaLogin login) {
            return login;
        }
        throw new IllegalStateException("No signed-in caller on thread " + Thread.currentThread().getName()
            + ": work off the request thread must carry the caller's login");
    }
}
