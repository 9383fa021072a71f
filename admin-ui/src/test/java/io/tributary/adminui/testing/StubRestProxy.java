package io.tributary.adminui.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A tiny HTTP server standing in for the REST proxy: canned answers by {@code "METHOD /path"}
 * (path decoded, no query), 404 with a proxy-style error body for anything else, and a record of
 * every request received. With {@link #users} set it signs callers in as the proxy's
 * {@code authentication.method=basic} does: 401 without a known user name and password, and
 * answers set {@link #onFor for one user} win over those for all. With {@link #bearer} set it also
 * takes {@code Authorization: Bearer <token>}, as the proxy's {@code authentication.method=bearer}
 * does. Close it.
 */
public final class StubRestProxy implements AutoCloseable {

    /** A request the stub received, with its {@code Authorization} header (null when none). */
    public record Received(String method, String path, String body, String authorization) {
    }

    private record Answer(int status, String body) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<String> queries = new CopyOnWriteArrayList<>();
    private final Map<String, String> users = new ConcurrentHashMap<>();
    private volatile Function<String, String> bearerUsers;

    /** Starts on a free loopback port. */
    public StubRestProxy() throws IOException {
        this(0);
    }

    /** Starts on loopback port {@code port} (0: a free one), e.g. where a UI already waits for its proxy. */
    public StubRestProxy(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String key = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body,
                authorization));
            queries.add(key + "?" + exchange.getRequestURI().getRawQuery());
            String user = user(authorization);
            Answer answer;
            if ((!users.isEmpty() || bearerUsers != null) && user == null) {
                answer = new Answer(401, "{\"error_code\":40101,\"message\":\"Unauthorized\"}");
            } else {
                answer = answers.getOrDefault(user + " " + key, answers.getOrDefault(key,
                    new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found: " + key + "\"}")));
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
            exchange.close();
        });
        server.start();
    }

    /** Answers {@code method path} with {@code status} and JSON {@code body} (empty for none). */
    public StubRestProxy on(String method, String path, int status, String body) {
        answers.put(method + " " + path, new Answer(status, body));
        return this;
    }

    /** Answers {@code method path} so for {@code user} only (signed in with {@link #users}). */
    public StubRestProxy onFor(String user, String method, String path, int status, String body) {
        answers.put(user + " " + method + " " + path, new Answer(status, body));
        return this;
    }

    /** Signs callers in: HTTP Basic with one of these user names and passwords, else 401. */
    public StubRestProxy users(Map<String, String> passwords) {
        users.putAll(passwords);
        return this;
    }

    /**
     * Signs callers in with Bearer tokens too: {@code userOf} tells the user a token was issued to
     * (null: not a valid token, 401).
     */
    public StubRestProxy bearer(Function<String, String> userOf) {
        bearerUsers = userOf;
        return this;
    }

    /** The user an {@code Authorization} header signs in, or null. */
    private String user(String authorization) {
        Function<String, String> bearer = bearerUsers;
        if (bearer != null && authorization != null && authorization.startsWith("Bearer ")) {
            return bearer.apply(authorization.substring(7));
        }
        if (authorization == null || !authorization.startsWith("Basic ")) {
            return null;
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = pair.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String name = pair.substring(0, colon);
        return pair.substring(colon + 1).equals(users.get(name)) ? name : null;
    }

    /** The stub's base URL. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every request so far, in arrival order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** How many requests had this method and path. */
    public long count(String method, String path) {
        return received.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).count();
    }

    /** The query strings of the requests with this method and path, in arrival order. */
    public List<String> queries(String method, String path) {
        String prefix = method + " " + path + "?";
        return queries.stream().filter(q -> q.startsWith(prefix)).map(q -> q.substring(prefix.length())).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
