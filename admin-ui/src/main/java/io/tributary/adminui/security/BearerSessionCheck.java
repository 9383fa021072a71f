package io.tributary.adminui.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Before a request of an OAuth2-signed-in user is authorized, makes sure their access token is
 * still usable (refreshing it when it has expired); when it is not, the session ends and the request
 * goes on unauthenticated, so {@code /api} answers 401 JSON and pages redirect to the sign-in page.
 * Part of the security filter chain only (not a servlet filter of its own). Thread-safe.
 */
final class BearerSessionCheck extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication instanceof BearerUser user && !user.stillSignedIn()) {
            SecurityContextHolder.clearContext();
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
        }
        chain.doFilter(request, response);
    }
}
