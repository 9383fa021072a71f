package io.tributary.restproxy.security;

import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestExceptionHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a request that did not sign in (or whose password the brokers refused, or whose token
 * is invalid) with 401 and a Confluent error body, code 40101, and the challenge of the sign-in
 * method: HTTP Basic's {@code WWW-Authenticate: Basic realm="tributary"}, or RFC 6750's
 * {@code Bearer realm="tributary"}, with {@code error="invalid_token"} and a description when a
 * token was sent and refused. A sign-in that could not be checked because the brokers (or the
 * issuer's key set) did not answer gets 503 instead, so clients retry rather than drop good
 * credentials. Messages never contain the credentials. Thread-safe.
 */
public final class RestAuthenticationEntryPoint implements AuthenticationEntryPoint, AccessDeniedHandler {

    public static final String REALM = "tributary";

    private final JsonMapper mapper;
    private final AuthenticationProperties.Method method;

    /** For HTTP Basic. */
    public RestAuthenticationEntryPoint(JsonMapper mapper) {
        this(mapper, AuthenticationProperties.Method.BASIC);
    }

    /** For {@code method}, {@link AuthenticationProperties.Method#BASIC} or {@link AuthenticationProperties.Method#BEARER}. */
    public RestAuthenticationEntryPoint(JsonMapper mapper, AuthenticationProperties.Method method) {
        this.mapper = mapper;
        this.method = method;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        if (e instanceof AuthenticationServiceException) {
            RestExceptionHandler.write(RestError.SERVICE_UNAVAILABLE.exception(e.getMessage()), request, response,
                mapper);
            return;
        }
        boolean sent = request.getHeader(HttpHeaders.AUTHORIZATION) != null;
        if (method == AuthenticationProperties.Method.BEARER) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, bearerChallenge(sent, e));
        } else {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\"");
        }
        String message = !sent
            ? "Authentication required: " + (method == AuthenticationProperties.Method.BEARER
                ? "send an OAuth2 access token (Authorization: Bearer <token>)" : "sign in with HTTP Basic")
            : "Authentication failed: " + e.getMessage();
        RestExceptionHandler.write(RestError.KAFKA_AUTHENTICATION.exception(message), request, response, mapper);
    }

    /**
     * RFC 6750 section 3: the realm alone when no token came; with the error code and description
     * (Spring Security's, e.g. {@code invalid_token}, "Jwt expired at ...") when one was refused.
     */
    private static String bearerChallenge(boolean sent, AuthenticationException e) {
        StringBuilder challenge = new StringBuilder("Bearer realm=\"").append(REALM).append('"');
        if (sent) {
            String code = OAuth2ErrorCodes.INVALID_TOKEN;
            String description = e.getMessage();
            if (e instanceof OAuth2AuthenticationException oauth && oauth.getError() != null) {
                code = oauth.getError().getErrorCode();
                if (oauth.getError().getDescription() != null) {
                    description = oauth.getError().getDescription();
                }
            }
            challenge.append(", error=\"").append(quotable(code)).append('"');
            if (description != null) {
                challenge.append(", error_description=\"").append(quotable(description)).append('"');
            }
        }
        return challenge.toString();
    }

    /** Keeps what may stand in a quoted-string of a header: printable ASCII without quote and backslash. */
    private static String quotable(String text) {
        return text.replaceAll("[^\\x20-\\x7E]|[\"\\\\]", "");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        RestExceptionHandler.write(RestError.KAFKA_AUTHORIZATION.exception("Access denied"), request, response,
            mapper);
    }
}
