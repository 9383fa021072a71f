package io.tributary.adminui.proxy;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Carries the signed-in caller's identity to the REST proxy: the {@code Authorization} header of
 * the {@link ProxyIdentity} in the current thread's security context, added to every proxy call
 * that has none. Without a signed-in user (sign-in off) calls go as they are. Work handed to other
 * threads carries the context along (Spring Security's {@code DelegatingSecurityContext*}
 * wrappers, or {@link LastCaller} for scheduled work). Stateless and thread-safe.
 */
public final class CallerIdentity implements ClientHttpRequestInterceptor {

    /** The interceptor every proxy {@code RestClient} of the UI has. */
    public static final CallerIdentity INTERCEPTOR = new CallerIdentity();

    private CallerIdentity() {
    }

    /** The current thread's caller's {@code Authorization} value for the proxy, or null. */
    public static String currentAuthorization() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication instanceof ProxyIdentity identity ? identity.proxyAuthorization() : null;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        String authorization = currentAuthorization();
        if (authorization != null && !request.getHeaders().containsHeader(HttpHeaders.AUTHORIZATION)) {
            request.getHeaders().set(HttpHeaders.AUTHORIZATION, authorization);
        }
        return execution.execute(request, body);
    }

    /**
     * The security context of the last caller who asked for some shared background work (the
     * throughput chart's scrapes), so that work's proxy calls go as a signed-in user rather than
     * anonymously. Thread-safe.
     */
    public static final class LastCaller {

        private final AtomicReference<SecurityContext> last = new AtomicReference<>();

        /** Remembers the current thread's caller, when there is one. */
        public void remember() {
            SecurityContext context = SecurityContextHolder.getContext();
            if (context.getAuthentication() != null) {
                last.set(context);
            }
        }

        /**
         * Forgets the remembered caller when it is {@code username}: their session ended (sign-out or
         * expiry), so their password no longer serves the background work.
         */
        public void forget(String username) {
            last.updateAndGet(context -> context != null && context.getAuthentication() != null
                && context.getAuthentication().getName().equals(username) ? null : context);
        }

        /** Runs {@code work} on this thread as the last caller remembered (as it is when none was). */
        public <T> T callAs(Supplier<T> work) {
            SecurityContext context = last.get();
            if (context == null) {
                return work.get();
            }
            SecurityContext previous = SecurityContextHolder.getContext();
            SecurityContextHolder.setContext(context);
            try {
                return work.get();
            } finally {
                SecurityContextHolder.setContext(previous);
            }
        }
    }
}
