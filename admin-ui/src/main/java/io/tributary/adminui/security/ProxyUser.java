package io.tributary.adminui.security;

import io.tributary.adminui.proxy.ProxyIdentity;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

/**
 * A user signed in to the admin UI, with the HTTP Basic header value the REST proxy accepted for
 * them. Lives in the user's server-side session only: the header is never sent to the browser,
 * never logged ({@link #toString} leaves it out), and not serialized ({@code transient}: a session
 * written to disk keeps no password; such a session's proxy calls are refused and the user signs in
 * again). {@link #getCredentials()} is null, so nothing that reads an authentication's credentials
 * gets the password.
 */
public final class ProxyUser extends AbstractAuthenticationToken implements ProxyIdentity {

    private static final long serialVersionUID = 1L;

    private final String username;
    private final transient String authorization;

    private ProxyUser(String username, String authorization) {
        super(AuthorityUtils.createAuthorityList("ROLE_USER"));
        this.username = username;
        this.authorization = authorization;
        setAuthenticated(true);
    }

    /** A user whose name and password the proxy accepted. */
    static ProxyUser basic(String username, String password) {
        return new ProxyUser(username, basicAuthorization(username, password));
    }

    /** The HTTP Basic {@code Authorization} value of a user name and password (RFC 7617, UTF-8). */
    static String basicAuthorization(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
            .getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String proxyAuthorization() {
        return authorization;
    }

    @Override
    public Object getCredentials() {
        return null;
    }

    @Override
    public Object getPrincipal() {
        return username;
    }

    @Override
    public String getName() {
        return username;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProxyUser user && user.username.equals(username) && super.equals(other);
    }

    @Override
    public int hashCode() {
        return username.hashCode();
    }

    @Override
    public String toString() {
        return "ProxyUser[" + username + "]";
    }
}
