package io.tributary.adminui.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A tiny HTTP server standing in for the REST proxy: canned answers by {@code "METHOD /path"}
 * (path decoded, no query), 404 with a proxy-style error body for anything else, and a record of
 * every request received. Close it.
 */
public final class StubRestProxy implements AutoCloseable {

    /** A request the stub received. */
    public record Received(String method, String path, String body) {
    }

    private record Answer(int status, String body) {
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<String> queries = new CopyOnWriteArrayList<>();

    /** Starts on a free loopback port. */
    public StubRestProxy() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String key = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body));
            queries.add(key + "?" + exchange.getRequestURI().getRawQuery());
            Answer answer = answers.getOrDefault(key,
                new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found: " + key + "\"}"));
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
