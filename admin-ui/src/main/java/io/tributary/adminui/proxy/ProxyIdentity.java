package io.tributary.adminui.proxy;

/**
 * Who a signed-in UI user is toward the REST proxy: the {@code Authorization} header value every
 * proxy call made for them carries: HTTP Basic ({@code ProxyUser}) or an OAuth2 access token as
 * Bearer ({@code BearerUser}). Implemented by the signed-in user's
 * Spring Security {@code Authentication}, so the proxy clients find it in the security context of
 * the thread doing the call; see {@link CallerIdentity}.
 */
public interface ProxyIdentity {

    /** The user name, for display and logs. */
    String username();

    /**
     * The {@code Authorization} header value for the proxy, e.g. {@code Basic ...}; null when this
     * identity has none any more (a session restored without its secret). Never log it.
     *
     * @throws io.tributary.adminui.proxy.RestProxyException with status 401 when the identity can no
     *         longer be used (an OAuth2 sign-in whose token expired and could not be refreshed)
     */
    String proxyAuthorization();
}
