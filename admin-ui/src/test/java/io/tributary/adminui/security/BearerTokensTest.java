package io.tributary.adminui.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.user.DefaultOAuth2User;

/**
 * {@link BearerTokens} without a provider: a stored access token is handed out until the clock
 * reaches its expiry; past it, with no refresh token, the sign-in is over (and its tokens dropped);
 * a user's display name is {@code preferred_username}, else {@code sub}; nothing printable carries
 * a token.
 */
class BearerTokensTest {

    private static final Instant LOGIN = Instant.parse("2026-01-01T10:00:00Z");
    private static final ClientRegistration IDP = ClientRegistration.withRegistrationId("idp")
        .clientId("ui").clientSecret("s").authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
        .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}").authorizationUri("http://idp.invalid/authorize")
        .tokenUri("http://idp.invalid/token").userNameAttributeName("sub").build();

    @Test
    void accessTokenIsHandedOutUntilItExpiresThenTheSignInIsOver() {
        MutableClock clock = new MutableClock(LOGIN);
        BearerTokens tokens = new BearerTokens(new InMemoryClientRegistrationRepository(IDP), clock);
        BearerUser alice = signIn(tokens, "alice-access-token", Duration.ofMinutes(5));

        assertThat(alice.proxyAuthorization()).isEqualTo("Bearer alice-access-token");
        clock.now = LOGIN.plus(Duration.ofMinutes(4));
        assertThat(alice.stillSignedIn()).isTrue();

        clock.now = LOGIN.plus(Duration.ofMinutes(5));
        assertThatThrownBy(alice::proxyAuthorization).isInstanceOf(SignInExpiredException.class)
            .hasMessageNotContaining("alice-access-token")
            .satisfies(e -> assertThat(((SignInExpiredException) e).status()).isEqualTo(401));
        clock.now = LOGIN;
        assertThat(alice.stillSignedIn()).as("its tokens were dropped").isFalse();
    }

    @Test
    void signedOutSessionHasNoTokenAndPrintsNone() {
        BearerTokens tokens = new BearerTokens(new InMemoryClientRegistrationRepository(IDP),
            Clock.fixed(LOGIN, ZoneOffset.UTC));
        BearerUser alice = signIn(tokens, "alice-access-token", Duration.ofMinutes(5));

        alice.signedOut();

        assertThat(alice.stillSignedIn()).isFalse();
        assertThat(alice.toString()).doesNotContain("alice-access-token");
        assertThat(String.valueOf(alice.getCredentials())).doesNotContain("alice-access-token");
    }

    @Test
    void displayNameIsPreferredUsernameElseSub() {
        assertThat(BearerUser.displayName(user(Map.of("sub", "f81d4fae", "preferred_username", "alice"))))
            .isEqualTo("alice");
        assertThat(BearerUser.displayName(user(Map.of("sub", "f81d4fae")))).isEqualTo("f81d4fae");
    }

    private static BearerUser signIn(BearerTokens tokens, String accessToken, Duration lifetime) {
        BearerUser user = new BearerUser(user(Map.of("sub", "alice")), "idp", tokens);
        OAuth2AccessToken token = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, accessToken, LOGIN,
            LOGIN.plus(lifetime));
        tokens.repository().saveAuthorizedClient(new OAuth2AuthorizedClient(IDP, "alice", token), user, null, null);
        return user;
    }

    private static DefaultOAuth2User user(Map<String, Object> attributes) {
        return new DefaultOAuth2User(AuthorityUtils.createAuthorityList("OAUTH2_USER"), attributes, "sub");
    }

    /** A clock a test moves by hand. */
    private static final class MutableClock extends Clock {

        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
