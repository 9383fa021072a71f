package io.tributary.adminui.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/** {@link CallerIdentity.LastCaller}: background work runs as the last caller, until their session ends. */
class CallerIdentityTest {

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    private static void signIn(String user) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(user,
            null, AuthorityUtils.NO_AUTHORITIES));
    }

    private static String caller() {
        var authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication == null ? null : authentication.getName();
    }

    @Test
    void runsAsTheLastCallerRememberedAndRestoresTheThreadsOwn() {
        CallerIdentity.LastCaller last = new CallerIdentity.LastCaller();
        signIn("alice");
        last.remember();
        SecurityContextHolder.setContext(SecurityContextHolder.createEmptyContext());

        assertThat(last.callAs(CallerIdentityTest::caller)).isEqualTo("alice");
        assertThat(caller()).isNull();
    }

    @Test
    void forgetsACallerWhoseSessionEndedButNotAnother() {
        CallerIdentity.LastCaller last = new CallerIdentity.LastCaller();
        signIn("alice");
        last.remember();
        SecurityContextHolder.clearContext();

        last.forget("bob");
        assertThat(last.callAs(CallerIdentityTest::caller)).isEqualTo("alice");
        last.forget("alice");
        assertThat(last.callAs(CallerIdentityTest::caller)).isNull();
    }
}
