package io.tributary.restproxy.error;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one place where failures become HTTP error bodies {@code {"error_code", "message"}}: the
 * proxy's exceptions, which name what failed and know nothing of HTTP, get their status and
 * Confluent error code from {@link #errorFor}, and so do Spring MVC's own failures here. The
 * content type is set here rather than negotiated, so an error can always be written, even to a
 * request whose {@code Accept} names nothing we produce.
 */
@RestControllerAdvice
public class RestExceptionHandler {

    /** Content type of Confluent's v2 error bodies. */
    public static final MediaType KAFKA_V2_JSON = MediaType.parseMediaType("application/vnd.kafka.v2+json");

    private static final Logger log = LoggerFactory.getLogger(RestExceptionHandler.class);

    /** The answer to each of the proxy's exceptions but those whose answer depends on a cause. */
    private static final Map<Class<? extends RestException>, RestError> ERRORS = Map.ofEntries(
        Map.entry(TopicNotFoundException.class, RestError.TOPIC_NOT_FOUND),
        Map.entry(PartitionNotFoundException.class, RestError.PARTITION_NOT_FOUND),
        Map.entry(ConsumerInstanceNotFoundException.class, RestError.CONSUMER_INSTANCE_NOT_FOUND),
        Map.entry(ClusterNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(ConsumerGroupNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(ShareGroupNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(SearchNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(TransactionNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(ReassignmentNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(ScramUserNotFoundException.class, RestError.NOT_FOUND),
        Map.entry(ConsumerInstanceAccessDeniedException.class, RestError.KAFKA_AUTHORIZATION),
        Map.entry(ConsumerAlreadySubscribedException.class, RestError.CONSUMER_ALREADY_SUBSCRIBED),
        Map.entry(ConsumerInstanceExistsException.class, RestError.CONSUMER_ALREADY_EXISTS),
        Map.entry(IllegalConsumerStateException.class, RestError.ILLEGAL_STATE),
        Map.entry(ShareBatchNotAcknowledgedException.class, RestError.SHARE_BATCH_NOT_ACKNOWLEDGED),
        Map.entry(ShareRecordNotAcquiredException.class, RestError.SHARE_RECORD_NOT_ACQUIRED),
        Map.entry(TopicAlreadyExistsException.class, RestError.CONFLICT),
        Map.entry(ConsumerGroupNotEmptyException.class, RestError.CONFLICT),
        Map.entry(ShareGroupNotEmptyException.class, RestError.CONFLICT),
        Map.entry(InvalidArgumentException.class, RestError.BAD_REQUEST),
        Map.entry(InvalidConsumerConfigException.class, RestError.INVALID_CONSUMER_CONFIG),
        Map.entry(IdempotencyKeyReusedException.class, RestError.UNPROCESSABLE_ENTITY),
        Map.entry(OperationTimeoutException.class, RestError.KAFKA_RETRIABLE_ERROR),
        Map.entry(CapacityExceededException.class, RestError.SERVICE_UNAVAILABLE));

    /**
     * The error the API answers for a failure: the entry of the proxy's exception, or, for a
     * Kafka client's exception (a {@link KafkaOperationException}'s cause, or a failed record of
     * a produce request), the code the Confluent proxy gives it: unknown topic or partition 40401,
     * authentication 40101, authorization 40301, retriable errors 50003, others 50002.
     */
    public static RestError errorFor(Throwable failure) {
        Throwable cause = KafkaErrors.unwrap(failure);
        if (cause instanceof RestErrorException withError) {
            return withError.error();
        }
        if (cause instanceof KafkaOperationException) {
            cause = cause.getCause();
        }
        RestError error = ERRORS.get(cause.getClass());
        if (error != null) {
            return error;
        }
        if (cause instanceof UnknownTopicOrPartitionException) {
            return RestError.TOPIC_NOT_FOUND;
        }
        if (cause instanceof AuthenticationException) {
            return RestError.KAFKA_AUTHENTICATION;
        }
        if (cause instanceof AuthorizationException) {
            return RestError.KAFKA_AUTHORIZATION;
        }
        if (cause instanceof RetriableException) {
            return RestError.KAFKA_RETRIABLE_ERROR;
        }
        return RestError.KAFKA_ERROR;
    }

    /** Whether {@code type} has an entry of its own in the table (the rest are answered by a cause). */
    static boolean hasEntry(Class<? extends RestException> type) {
        return ERRORS.containsKey(type);
    }

    @ExceptionHandler(RestException.class)
    ResponseEntity<ErrorResponse> rest(RestException e, HttpServletRequest request) {
        if (errorFor(e).status().is5xxServerError()) {
            log.warn("{} {} failed: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
        }
        return body(e, request);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorResponse> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RestException rest) {
                return body(rest, request);
            }
        }
        if (e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")) {
            return body(RestError.UNPROCESSABLE_ENTITY.exception("The request needs a JSON body"), request);
        }
        String detail = e.getMostSpecificCause().getMessage();
        return body(RestError.UNPROCESSABLE_ENTITY.exception("Malformed request body: "
            + (detail == null ? "unreadable" : firstLine(detail))), request);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorResponse> unsupportedMediaType(HttpMediaTypeNotSupportedException e,
            HttpServletRequest request) {
        return body(RestError.UNSUPPORTED_MEDIA_TYPE.exception("Unsupported Content-Type "
            + e.getContentType() + "; supported: " + e.getSupportedMediaTypes()), request);
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ErrorResponse> notAcceptable(HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
        return body(RestError.NOT_ACCEPTABLE.exception("Cannot produce any type named in Accept; supported: "
            + e.getSupportedMediaTypes()), request);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorResponse> methodNotAllowed(HttpRequestMethodNotSupportedException e,
            HttpServletRequest request) {
        return body(RestError.METHOD_NOT_ALLOWED.exception(e.getMessage()), request);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ErrorResponse> notFound(NoResourceFoundException e, HttpServletRequest request) {
        return body(RestError.NOT_FOUND.exception("HTTP 404 Not Found: " + request.getRequestURI()), request);
    }

    @ExceptionHandler({MethodArgumentTypeMismatchException.class, MissingServletRequestParameterException.class})
    ResponseEntity<ErrorResponse> badParameter(Exception e, HttpServletRequest request) {
        return body(RestError.BAD_REQUEST.exception(e.getMessage()), request);
    }

    @ExceptionHandler(AsyncRequestTimeoutException.class)
    ResponseEntity<ErrorResponse> asyncTimeout(AsyncRequestTimeoutException e, HttpServletRequest request) {
        return body(RestError.SERVICE_UNAVAILABLE.exception("The request did not complete within the server's "
            + "async timeout (spring.mvc.async.request-timeout)"), request);
    }

    /**
     * The client went away (closed a stream, gave up on a long poll): there is nobody to answer,
     * and it is no failure of ours.
     */
    @ExceptionHandler({AsyncRequestNotUsableException.class, IOException.class})
    void clientGone(Exception e, HttpServletRequest request) {
        log.debug("{} {}: the client went away ({})", request.getMethod(), request.getRequestURI(), e.toString());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorResponse> unexpected(Exception e, HttpServletRequest request) {
        log.error("{} {} failed", request.getMethod(), request.getRequestURI(), e);
        return body(RestError.INTERNAL_SERVER_ERROR.exception(e.getClass().getSimpleName() + ": " + e.getMessage()),
            request);
    }

    /** The error response for {@code e}: the status and code of its {@link RestError}. */
    public static ResponseEntity<ErrorResponse> body(RestException e, HttpServletRequest request) {
        return ResponseEntity.status(errorFor(e).status()).contentType(errorContentType(request))
            .body(ErrorResponse.of(e));
    }

    /** Writes the error response for {@code e} directly, for filters that run outside Spring MVC. */
    public static void write(RestException e, HttpServletRequest request, HttpServletResponse response,
            JsonMapper mapper) throws IOException {
        response.setStatus(errorFor(e).status().value());
        response.setContentType(errorContentType(request).toString());
        response.getOutputStream().write(mapper.writeValueAsBytes(ErrorResponse.of(e)));
    }

    /** Confluent's v2 type for clients that speak it, plain JSON for everyone else (curl, browsers). */
    static MediaType errorContentType(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        String contentType = request.getContentType();
        boolean kafkaClient = (accept != null && accept.contains("vnd.kafka"))
            || (contentType != null && contentType.contains("vnd.kafka"));
        return kafkaClient ? KAFKA_V2_JSON : MediaType.APPLICATION_JSON;
    }

    private static String firstLine(String s) {
        int newline = s.indexOf('\n');
        return newline < 0 ? s : s.substring(0, newline);
    }
}
