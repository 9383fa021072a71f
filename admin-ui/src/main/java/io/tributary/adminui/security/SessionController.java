package io.tributary.adminui.security;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/session}: who is signed in, the CSRF token the page's script sends with every
 * state-changing call, and what the user may do on the cluster (to offer topic creation). Never
 * the password. With sign-in off: no user, no token, operations not known.
 */
@RestController
public class SessionController {

    /**
     * The page's view of its session.
     *
     * @param signInRequired    whether the UI signs users in ({@code admin-ui.authentication.method})
     * @param username          who is signed in; null without sign-in
     * @param csrf              the token for {@code POST}/{@code PUT}/{@code PATCH}/{@code DELETE}; null without sign-in
     * @param clusterOperations the user's cluster operations (CREATE, ...), null when not known
     */
    public record SessionView(boolean signInRequired, String username, Csrf csrf, List<String> clusterOperations) {
    }

    /** A CSRF token and the header that carries it. */
    public record Csrf(String headerName, String token) {
    }

    private final AuthenticationProperties properties;
    private final RestProxyClient proxy;

    public SessionController(AuthenticationProperties properties, RestProxyClient proxy) {
        this.properties = properties;
        this.proxy = proxy;
    }

    /** The session of the caller. */
    @GetMapping("/api/session")
    public SessionView session(HttpServletRequest request) {
        if (!properties.signInRequired()) {
            return new SessionView(false, null, null, null);
        }
        Authentication user = SecurityContextHolder.getContext().getAuthentication();
        CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        List<String> operations;
        try {
            operations = proxy.clusterOperations(proxy.cluster().clusterId());
        } catch (RestProxyException e) {
            operations = null; // not known: the page offers, the API still checks
        }
        return new SessionView(true, user == null ? null : user.getName(),
            token == null ? null : new Csrf(token.getHeaderName(), token.getToken()), operations);
    }
}
