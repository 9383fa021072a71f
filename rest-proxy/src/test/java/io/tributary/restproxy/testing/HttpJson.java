package io.tributary.restproxy.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for tests: sends a body with a content type, parses the JSON answer. */
public final class HttpJson {

    /** An answer: status, content type and the body parsed as JSON (null when empty). */
    public record Response(int status, String contentType, JsonNode body, String text, HttpHeaders headers) {

        /** The first value of a response header, or null. */
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }


        /** The {@code error_code} of an error body. */
        public int errorCode() {
            return body.get("error_code").asInt();
        }
    }

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String baseUrl;
    /** The Authorization header sent with every request, or null. */
    private final String authorization;

    public HttpJson(String baseUrl) {
        this(baseUrl, null);
    }

    private HttpJson(String baseUrl, String authorization) {
        this.baseUrl = baseUrl;
        this.authorization = authorization;
    }

    /** A client that signs every request in with HTTP Basic as {@code user}. */
    public HttpJson as(String user, String password) {
        return new HttpJson(baseUrl, "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
            .getBytes(StandardCharsets.UTF_8)));
    }

    /** A client that sends {@code Authorization: Bearer <token>} with every request. */
    public HttpJson withBearer(String token) {
        return new HttpJson(baseUrl, "Bearer " + token);
    }

    /** A request to {@code path} with this client's Authorization header, for a test that sets more. */
    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path));
        return authorization == null ? builder : builder.header("Authorization", authorization);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public Response get(String path) {
        return send(request(path).GET().build());
    }

    public Response get(String path, String accept) {
        return send(request(path).header("Accept", accept).GET().build());
    }

    public Response post(String path, String contentType, String body) {
        return send(request(path).header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Response post(String path, String contentType, Object body) {
        return post(path, contentType, MAPPER.writeValueAsString(body));
    }

    public Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            JsonNode body = text == null || text.isBlank() ? null : parse(text);
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
                body, text, response.headers());
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    public URI uri(String path) {
        return URI.create(path.startsWith("http") ? path : baseUrl + path);
    }
}
