package io.tributary.adminui.security;

import io.tributary.adminui.proxy.ProxyIdentity;
import java.util.UUID;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.user.OAuth2User;

/**
 * A user signed in to the admin UI with OAuth2 ({@code admin-ui.authentication.method=oauth2}): the
 * proxy calls made for them carry {@code Authorization: Bearer <access token>}, the token their
 * sign-in obtained, refreshed by {@link BearerTokens} when it expires. The tokens are not in this
 * object: they stay in {@link BearerTokens}' store under {@link #clientKey()}, one entry per sign-in
 * (so two sessions of the same user, and their sign-outs, do not share or drop each other's tokens).
 * The {@link BearerTokens} reference is {@code transient}: a session written to disk and restored has
 * no way to tokens, its proxy calls are refused, and the user signs in again. {@link #toString} and
 * {@link #getCredentials()} carry no token. Immutable, thread-safe.
 */
public final class BearerUser extends OAuth2AuthenticationToken implements ProxyIdentity {

    private static final long serialVersionUID = 1L;

    private final String username;
    private final String clientKey;
    private final transient BearerTokens tokens;

    /**
     * @param user           who the provider says signed in
     * @param registrationId the {@code spring.security.oauth2.client.registration} they signed in with
     * @param tokens         where this sign-in's tokens are kept and refreshed
     */
    BearerUser(OAuth2User user, String registrationId, BearerTokens tokens) {
        super(user, user.getAuthorities(), registrationId);
        this.username = displayName(user);
        this.clientKey = username + "#" + UUID.randomUUID();
        this.tokens = tokens;
    }

    /** The user name to show: the {@code preferred_username} claim or attribute, else {@code sub}, else the name. */
    static String displayName(OAuth2User user) {
        for (String attribute : new String[] {"preferred_username", "sub"}) {
            Object value = user.getAttribute(attribute);
            if (value != null && !value.toString().isBlank()) {
                return value.toString();
            }
        }
        return user.getName();
    }

    /** The key of this sign-in's tokens in {@link BearerTokens}' store: the user name and a random id. */
    String clientKey() {
        return clientKey;
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String getName() {
        return username;
    }

    /**
     * {@code Bearer <access token>}, refreshed first when it has expired (or is about to).
     *
     * @throws SignInExpiredException when there is no usable token any more (not refreshable, refused by
     *                                the provider, or this session was restored without its tokens)
     */
    @Override
    public String proxyAuthorization() {
        if (tokens == null) {
            throw new SignInExpiredException("This session was restored without its tokens: sign in again");
        }
        return "Bearer " + tokens.accessToken(this);
    }

    /** Whether this sign-in still has a usable access token (refreshing it when needed). */
    boolean stillSignedIn() {
        return tokens != null && tokens.usable(this);
    }

    /** Drops this sign-in's tokens: its session ended (sign-out or expiry). */
    void signedOut() {
        if (tokens != null) {
            tokens.forget(this);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BearerUser user && user.clientKey.equals(clientKey);
    }

    @Override
    public int hashCode() {
        return clientKey.hashCode();
    }

    @Override
    public String toString() {
        return "BearerUser[" + username + "]";
    }
}
