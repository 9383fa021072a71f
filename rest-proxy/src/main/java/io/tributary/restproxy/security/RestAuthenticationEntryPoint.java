package io.tributary.restproxy.security;

import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.RestExceptionHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a request that did not sign in (or whose password the brokers refused) with 401, the
 * HTTP Basic challenge {@code WWW-Authenticate: Basic realm="tributary"} and a Confluent error
 * body, code 40101; a sign-in that could not be checked because the brokers did not answer gets
 * 503 instead, so clients retry rather than drop a good password.
 */
public final class RestAuthenticationEntryPoint implements AuthenticationEntryPoint, AccessDeniedHandler {

    public static final String REALM = "tributary";

    private final JsonMapper mapper;

    public RestAuthenticationEntryPoint(JsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        if (e instanceof AuthenticationServiceException) {
            RestExceptionHandler.write(RestError.SERVICE_UNAVAILABLE.exception(e.getMessage()), request, response,
                mapper);
            return;
        }
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\"");
        String message = request.getHeader(HttpHeaders.AUTHORIZATION) == null
            ? "Authentication required: sign in with HTTP Basic"
            : "Authentication failed: " + e.getMessage();
        RestExceptionHandler.write(new RestException(RestError.KAFKA_AUTHENTICATION, message), request, response,
            mapper);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        RestExceptionHandler.write(RestError.KAFKA_AUTHORIZATION.exception("Access denied"), request, response,
            mapper);
    }
}
