package io.tributary.adminui.security;

import io.tributary.adminui.proxy.RestProxyException;

/**
 * The signed-in user's sign-in can no longer be used toward the REST proxy: their OAuth2 access token
 * expired and could not be refreshed (none given, or the provider refused it). A 401 for the API (the
 * page's script then goes to the sign-in page), like a 401 from the proxy itself.
 */
public class SignInExpiredException extends RestProxyException {

    private static final long serialVersionUID = 1L;

    /** @param message why, for the user; never a token */
    public SignInExpiredException(String message) {
        super(401, null, message);
    }
}
