package io.tributary.adminui.error;

import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.proxy.RestProxyLocator;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;

/**
 * The one place where failures of the {@code /api} controllers become {@link ApiError} bodies:
 * the proxy's status and message passed on, our own 400s, and a 500 that names the exception but
 * carries no stack trace. An unreachable proxy's error says where the UI looks for it ({@link ApiError#proxy()}).
 */
@RestControllerAdvice(basePackages = "io.tributary.adminui")
public class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    private final RestProxyLocator locator;

    /** Without a locator: an unreachable proxy's error names no URL ({@code proxy} is "unknown"). */
    public ApiExceptionHandler() {
        this(null);
    }

    /** @param locator where the proxy is looked for, named in the error when it does not answer */
    @Autowired
    public ApiExceptionHandler(RestProxyLocator locator) {
        this.locator = locator;
    }

    @ExceptionHandler(RestProxyException.class)
    ResponseEntity<ApiError> proxy(RestProxyException e, HttpServletRequest request) {
        if (e.status() >= 500) {
            log.warn("{} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        }
        String proxy = !e.unreachable() ? null : locator != null ? locator.describe() : "unknown";
        return ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_JSON)
            .body(new ApiError(e.status(), e.errorCode(), e.getMessage(), proxy));
    }

    @ExceptionHandler(ResponseStatusException.class)
    ResponseEntity<ApiError> status(ResponseStatusException e) {
        return body(e.getStatusCode().value(), null, e.getReason() == null ? e.getMessage() : e.getReason());
    }

    @ExceptionHandler({HttpMessageNotReadableException.class, MethodArgumentTypeMismatchException.class,
        MissingServletRequestParameterException.class})
    ResponseEntity<ApiError> badRequest(Exception e) {
        String message = e instanceof HttpMessageNotReadableException ? "The request body is not valid JSON "
            + "for this endpoint" : e.getMessage();
        return body(HttpStatus.BAD_REQUEST.value(), null, message);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ApiError> unexpected(Exception e, HttpServletRequest request) {
        log.error("{} {} failed", request.getMethod(), request.getRequestURI(), e);
        return body(HttpStatus.INTERNAL_SERVER_ERROR.value(), null, e.getMessage() == null
            ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    private static ResponseEntity<ApiError> body(int status, Integer errorCode, String message) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON)
            .body(new ApiError(status, errorCode, message));
    }
}
