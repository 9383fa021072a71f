package io.tributary.adminui.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the admin UI signs its users in ({@code admin-ui.authentication.*}).
 *
 * @param method {@code none} (the default: no sign-in, the UI calls the REST proxy as itself) or
 *               {@code basic} (a sign-in page; the user name and password are checked with the REST
 *               proxy, whose {@code rest-proxy.authentication.method} must be {@code basic}, and every
 *               proxy call made for the user carries them as HTTP Basic)
 */
@ConfigurationProperties("admin-ui.authentication")
public record AuthenticationProperties(@DefaultValue("none") Method method) {

    /** The sign-in methods. */
    public enum Method {
        /** No sign-in. */
        NONE,
        /** Form sign-in, checked with and forwarded to the REST proxy as HTTP Basic. */
        BASIC
    }

    /** Whether users sign in. */
    public boolean signInRequired() {
        return method != Method.NONE;
    }
}
