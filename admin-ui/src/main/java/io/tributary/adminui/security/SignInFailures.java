package io.tributary.adminui.security;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;

/**
 * Where a refused sign-in goes: back to the sign-in page ({@code failureUrl}), the refusal kept in
 * the session for {@link LoginPageController} to show, as Spring Security's default does, but
 * without the sign-in request it failed for. Spring Security attaches that request (the user name
 * and the password as typed) to the exception; kept in the session it would outlive the attempt in
 * memory and be written by whatever stores sessions. A password typed wrong is often nearly the
 * right one, and one the proxy could not check (it was down) is the right one. Stateless.
 */
final class SignInFailures extends SimpleUrlAuthenticationFailureHandler {

    SignInFailures(String failureUrl) {
        super(failureUrl);
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
            AuthenticationException exception) throws IOException, ServletException {
        // The request cannot be taken off the exception, so a copy with its message alone is kept.
        super.onAuthenticationFailure(request, response, new Refused(exception.getMessage()));
    }

    /** A refused sign-in's message, without the request (nor the cause) it was refused for. */
    static final class Refused extends AuthenticationException {

        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }
}
