package io.tributary.restproxy.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

class CallersTest {

    private final Callers basic = new Callers(new AuthenticationProperties(AuthenticationProperties.Method.BASIC,
        "SCRAM-SHA-512", Duration.ofSeconds(60), Duration.ofMinutes(5)));

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void withoutAuthenticationEveryoneIsTheService() {
        assertThat(Callers.anonymous().current()).isSameAs(KafkaLogin.SERVICE);
    }

    @Test
    void theSignedInCallersLogin() {
        KafkaLogin alice = KafkaLogin.of("alice", "pw", "fp");
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(alice,
            null, AuthorityUtils.NO_AUTHORITIES));

        assertThat(basic.current()).isSameAs(alice);
    }

    @Test
    void aThreadServingNoCallerGetsNoIdentityAtAll() {
        assertThatThrownBy(basic::current).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("No signed-in caller");
    }
}
