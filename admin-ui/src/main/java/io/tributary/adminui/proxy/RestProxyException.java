package io.tributary.adminui.proxy;

/**
 * The REST proxy answered with an error, or could not be reached. Carries the HTTP status to pass
 * on to the browser and the proxy's own message (Kafka's error text, e.g. "Topic 'x' already exists.").
 */
public class RestProxyException extends RuntimeException {

    private final int status;
    private final Integer errorCode;

    /**
     * @param status    HTTP status for our answer: the proxy's, or 502 when it could not be reached
     * @param errorCode the proxy's {@code error_code}, null when it gave none
     * @param message   the proxy's {@code message}, or what went wrong reaching it
     */
    public RestProxyException(int status, Integer errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** HTTP status to answer with. */
    public int status() {
        return status;
    }

    /** The proxy's {@code error_code} (e.g. 40401), or null. */
    public Integer errorCode() {
        return errorCode;
    }
}
