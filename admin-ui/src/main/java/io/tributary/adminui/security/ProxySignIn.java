package io.tributary.adminui.security;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Checks a sign-in with the REST proxy: one cheap authenticated call ({@code GET /v3/clusters}) with
 * the user name and password as HTTP Basic. The proxy checks them against the brokers' SCRAM
 * credentials, so the UI keeps no user list of its own. 401 from the proxy is a wrong user name or
 * password; any other failure says the proxy could not check them. A proxy that also answers a call
 * without credentials ({@code rest-proxy.authentication.method=none}) checked nothing, and signs
 * nobody in. Logs the user name, never the password. Thread-safe.
 */
public class ProxySignIn implements AuthenticationProvider {

    private static final Logger log = LoggerFactory.getLogger(ProxySignIn.class);

    private final RestProxyClient proxy;

    /** @param proxy the REST proxy that checks the credentials */
    public ProxySignIn(RestProxyClient proxy) {
        this.proxy = proxy;
    }

    @Override
    public Authentication authenticate(Authentication authentication) throws AuthenticationException {
        String username = authentication.getName() == null ? "" : authentication.getName().strip();
        Object credentials = authentication.getCredentials();
        String password = credentials == null ? "" : credentials.toString();
        if (username.isEmpty() || password.isEmpty()) {
            throw new BadCredentialsException("Enter a user name and a password.");
        }
        if (username.indexOf(':') >= 0 || username.chars().anyMatch(Character::isISOControl)) {
            // HTTP Basic ends the user name at the first colon: the proxy would sign in someone else than
            // the session (and the logs) would name.
            throw new BadCredentialsException("A user name cannot contain a colon or control characters.");
        }
        try {
            proxy.signIn(ProxyUser.basicAuthorization(username, password));
        } catch (RestProxyException e) {
            if (e.status() == 401) {
                log.info("Sign-in of {} refused by the REST proxy", username);
                throw new BadCredentialsException("Wrong user name or password.");
            }
            log.warn("Sign-in of {} could not be checked: REST proxy answered {}: {}", username, e.status(),
                e.getMessage());
            throw new AuthenticationServiceException("The REST proxy could not check the sign-in (HTTP "
                + e.status() + "): " + e.getMessage());
        }
        if (answersAnyone()) {
            log.warn("Sign-in of {} refused: the REST proxy answers callers without credentials too, so it checked "
                + "no password (set rest-proxy.authentication.method=basic on the proxy)", username);
            throw new AuthenticationServiceException("The REST proxy checks no passwords (its "
                + "rest-proxy.authentication.method is not basic): nobody can sign in until it does.");
        }
        log.info("{} signed in", username);
        return ProxyUser.basic(username, password);
    }

    /**
     * Whether the proxy answers a call without credentials: then it signs nobody in, and answered the
     * sign-in's whatever its password. Asked with no caller on the thread, so no identity is sent.
     */
    private boolean answersAnyone() {
        SecurityContext caller = SecurityContextHolder.getContext();
        SecurityContextHolder.clearContext();
        try {
            proxy.cluster();
            return true;
        } catch (RestProxyException e) {
            return false;
        } finally {
            SecurityContextHolder.setContext(caller);
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
