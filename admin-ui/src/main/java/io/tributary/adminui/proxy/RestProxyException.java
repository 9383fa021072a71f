package io.tributary.adminui.proxy;

import java.net.ConnectException;
import java.net.http.HttpTimeoutException;

/**
 * The REST proxy answered with an error, or could not be reached. Carries the HTTP status to pass
 * on to the browser and the proxy's own message (Kafka's error text, e.g. "Topic 'x' already exists.").
 * One that {@link #unreachable()} says the proxy gave no answer at all (not listening, timed out, none
 * registered): pages wait for it and try again.
 */
public class RestProxyException extends RuntimeException {

    private final int status;
    private final Integer errorCode;
    private final boolean unreachable;

    /**
     * @param status    HTTP status for our answer: the proxy's, or 502 when it could not be reached
     * @param errorCode the proxy's {@code error_code}, null when it gave none
     * @param message   the proxy's {@code message}, or what went wrong reaching it
     */
    public RestProxyException(int status, Integer errorCode, String message) {
        this(status, errorCode, message, false, null);
    }

    private RestProxyException(int status, Integer errorCode, String message, boolean unreachable, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
        this.unreachable = unreachable;
    }

    /**
     * The proxy did not answer a call (status 502): the message says why from {@code cause}'s chain,
     * never "null" (a refused connection's exception has no message of its own).
     */
    public static RestProxyException noAnswer(Throwable cause) {
        return new RestProxyException(502, null, "The REST proxy did not answer: " + describe(cause), true, cause);
    }

    /** No proxy to call (status 503), e.g. none registered for discovery; {@code message} says which. */
    public static RestProxyException noProxy(String message) {
        return new RestProxyException(503, null, message, true, null);
    }

    /**
     * What went wrong, for people, from {@code failure}'s cause chain: a refused connection or a
     * timeout anywhere in it by name, else the deepest cause's message and class, e.g. "connection
     * refused (ConnectException)" or "HTTP connect timed out (HttpConnectTimeoutException)". Never
     * null, never "null" (the JDK's client raises a ConnectException without a message).
     */
    public static String describe(Throwable failure) {
        if (failure == null) {
            return "no reason given";
        }
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof HttpTimeoutException) {
                return said(t, t instanceof ConnectException ? "connection refused" : "timed out");
            }
            root = t;
        }
        return said(root, null);
    }

    /** "message (Class)", or "fallback (Class)" / "Class" when it has no message worth showing. */
    private static String said(Throwable t, String fallback) {
        String type = t.getClass().getSimpleName();
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        if (message.isEmpty() || message.equals("null")) {
            return fallback == null ? type : fallback + " (" + type + ")";
        }
        return message + " (" + type + ")";
    }

    /** HTTP status to answer with. */
    public int status() {
        return status;
    }

    /** The proxy's {@code error_code} (e.g. 40401), or null. */
    public Integer errorCode() {
        return errorCode;
    }

    /** Whether no proxy answered at all (rather than answering with an error). */
    public boolean unreachable() {
        return unreachable;
    }
}
