package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.AuthorizationCodeOAuth2AuthorizedClientProvider;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.DelegatingOAuth2AuthorizedClientProvider;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.RefreshTokenOAuth2AuthorizedClientProvider;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.authentication.OAuth2LoginAuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;

/**
 * The OAuth2 tokens of the signed-in users ({@code admin-ui.authentication.method=oauth2}), kept
 * server-side in memory, one entry per sign-in ({@link BearerUser#clientKey()}), and handed out
 * through Spring's {@link OAuth2AuthorizedClientManager}: an access token that has expired, or
 * expires within a minute, is first refreshed with the refresh token when the provider gave one.
 * Works on any thread (no request needed), so pool threads, the live tail and the throughput
 * chart's scrapes get tokens too. Refreshes of one sign-in are serialized (a provider that rotates
 * refresh tokens is not asked twice with the same one). Tokens never reach a log line: only user
 * names and OAuth2 error codes are logged. Thread-safe.
 */
public class BearerTokens {

    private static final Logger log = LoggerFactory.getLogger(BearerTokens.class);

    private final OAuth2AuthorizedClientService store;
    private final OAuth2AuthorizedClientManager manager;
    private final Clock clock;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    /**
     * @param registrations the providers of {@code spring.security.oauth2.client.registration.*}
     * @param clock         what "expired" is measured against
     */
    public BearerTokens(ClientRegistrationRepository registrations, Clock clock) {
        this.clock = clock;
        this.store = new InMemoryOAuth2AuthorizedClientService(registrations);
        RefreshTokenOAuth2AuthorizedClientProvider refresh = new RefreshTokenOAuth2AuthorizedClientProvider();
        refresh.setClock(clock);
        AuthorizedClientServiceOAuth2AuthorizedClientManager clients =
            new AuthorizedClientServiceOAuth2AuthorizedClientManager(registrations, store);
        clients.setAuthorizedClientProvider(new DelegatingOAuth2AuthorizedClientProvider(
            new AuthorizationCodeOAuth2AuthorizedClientProvider(), refresh));
        this.manager = clients;
    }

    /** The authentication a successful OAuth2 sign-in becomes (the login filter's result converter). */
    public OAuth2AuthenticationToken signedIn(OAuth2LoginAuthenticationToken login) {
        BearerUser user = new BearerUser(login.getPrincipal(), login.getClientRegistration().getRegistrationId(), this);
        log.info("{} signed in with OAuth2 ({})", user.username(), user.getAuthorizedClientRegistrationId());
        return user;
    }

    /**
     * Where the login filter keeps the tokens a sign-in obtained: this store, under the sign-in's
     * {@link BearerUser#clientKey()} (other principals are not kept).
     */
    public OAuth2AuthorizedClientRepository repository() {
        return new OAuth2AuthorizedClientRepository() {
            @Override
            @SuppressWarnings("unchecked")
            public <T extends OAuth2AuthorizedClient> T loadAuthorizedClient(String registrationId,
                    Authentication principal, HttpServletRequest request) {
                return principal instanceof BearerUser user
                    ? (T) store.loadAuthorizedClient(registrationId, user.clientKey()) : null;
            }

            @Override
            public void saveAuthorizedClient(OAuth2AuthorizedClient client, Authentication principal,
                    HttpServletRequest request, HttpServletResponse response) {
                if (principal instanceof BearerUser user) {
                    store.saveAuthorizedClient(client, keyed(user));
                }
            }

            @Override
            public void removeAuthorizedClient(String registrationId, Authentication principal,
                    HttpServletRequest request, HttpServletResponse response) {
                if (principal instanceof BearerUser user) {
                    forget(user);
                }
            }
        };
    }

    /**
     * The user's access token, refreshed first when it has expired or is about to.
     *
     * @throws SignInExpiredException when there is none usable: not stored (signed out, or the UI
     *                                restarted), expired without a refresh token, or refresh refused
     */
    String accessToken(BearerUser user) {
        OAuth2AuthorizedClient client;
        synchronized (locks.computeIfAbsent(user.clientKey(), key -> new Object())) {
            try {
                client = manager.authorize(OAuth2AuthorizeRequest.withClientRegistrationId(
                    user.getAuthorizedClientRegistrationId()).principal(user.clientKey()).build());
            } catch (OAuth2AuthorizationException e) {
                log.info("OAuth2 sign-in of {} is no longer usable ({}): they sign in again", user.username(),
                    e.getError().getErrorCode());
                forget(user);
                throw new SignInExpiredException("Your sign-in has expired: sign in again");
            }
        }
        if (client == null || expired(client.getAccessToken())) {
            log.info("OAuth2 access token of {} expired and cannot be refreshed: they sign in again", user.username());
            forget(user);
            throw new SignInExpiredException("Your sign-in has expired: sign in again");
        }
        return client.getAccessToken().getTokenValue();
    }

    /** Whether the user still has a usable access token (refreshing it when needed). */
    boolean usable(BearerUser user) {
        try {
            accessToken(user);
            return true;
        } catch (SignInExpiredException e) {
            return false;
        }
    }

    /** Drops the tokens of one sign-in (sign-out, end of session, no longer usable). */
    void forget(BearerUser user) {
        store.removeAuthorizedClient(user.getAuthorizedClientRegistrationId(), user.clientKey());
        locks.remove(user.clientKey());
    }

    private boolean expired(OAuth2AccessToken token) {
        return token.getExpiresAt() != null && !clock.instant().isBefore(token.getExpiresAt());
    }

    private static Authentication keyed(BearerUser user) {
        return UsernamePasswordAuthenticationToken.unauthenticated(user.clientKey(), null);
    }
}
