package io.tributary.adminui.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the admin UI signs its users in ({@code admin-ui.authentication.*}).
 *
 * @param method {@code none} (the default: no sign-in, the UI calls the REST proxy as itself) or
 *               {@code basic} (a sign-in page; the user name and password are checked with the REST
 *               proxy, whose {@code rest-proxy.authentication.method} must be {@code basic}, and every
 *               proxy call made for the user carries them as HTTP Basic), or {@code oauth2} (OAuth2 / OpenID
 *               Connect sign-in with the provider of {@code spring.security.oauth2.client.registration.*};
 *               every proxy call made for the user carries their access token as {@code Bearer}, for a
 *               proxy running {@code rest-proxy.authentication.method=bearer})
 * @param providerSignOut with {@code oauth2}: whether "Sign out" also ends the user's session at the
 *               provider (OpenID Connect RP-initiated logout, to the {@code end_session_endpoint} its
 *               discovery document names, back to the sign-in page); false (the default): the UI's session only
 */
@ConfigurationProperties("admin-ui.authentication")
public record AuthenticationProperties(@DefaultValue("none") Method method,
        @DefaultValue("false") boolean providerSignOut) {

    /** The sign-in methods. */
    public enum Method {
        /** No sign-in. */
        NONE,
        /** Form sign-in, checked with and forwarded to the REST proxy as HTTP Basic. */
        BASIC,
        /** OAuth2 authorization-code sign-in (with PKCE); the access token forwarded as Bearer. */
        OAUTH2
    }

    /** Whether users sign in. */
    public boolean signInRequired() {
        return method != Method.NONE;
    }
}
