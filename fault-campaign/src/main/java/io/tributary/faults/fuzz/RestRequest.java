package io.tributary.faults.fuzz;

/**
 * One HTTP request of the REST fuzzer.
 *
 * @param attack      what kind of bad request it is
 * @param method      HTTP method
 * @param path        path and query, from the proxy's root
 * @param contentType the Content-Type header, or null for none
 * @param body        the body (empty for none)
 * @param chunked     true to send the body chunked (no Content-Length)
 */
public record RestRequest(RestAttack attack, String method, String path, String contentType, byte[] body,
                          boolean chunked) {

    @Override
    public String toString() {
        String shown = new String(body, 0, Math.min(body.length, 120), java.nio.charset.StandardCharsets.ISO_8859_1);
        return attack + " " + method + " " + path + " [" + contentType + "] " + body.length + " bytes"
                + (chunked ? " chunked" : "") + ": " + shown.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
