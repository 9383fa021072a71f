package io.tributary.faults.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Sends {@code requests} bad requests ({@link RestAttacks}) to a REST proxy from {@code concurrency} threads and
 * checks every answer: a 4xx (never a 5xx, never a 2xx to a request that is always bad, never no answer within
 * {@code answerTimeout}) whose body is a Confluent error, {@code {"error_code": <int>, "message": <string>}}.
 * A request that might by chance be valid ({@link RestAttack#alwaysBad()} false) may also get a 2xx. Thread
 * {@code i} draws from {@code new Random(seed + i)}. Not thread-safe: one {@link #run} at a time.
 */
public final class RestFuzzer {

    /** A Confluent error body: an object with an integer error_code and a string message. */
    static final Pattern ERROR_BODY = Pattern.compile(
            "\\s*\\{.*\"error_code\"\\s*:\\s*\\d+.*\"message\"\\s*:\\s*(\"|null).*}\\s*", Pattern.DOTALL);

    /**
     * @param baseUrl       the proxy's root, e.g. {@code http://127.0.0.1:8082}
     * @param seed          seeds the threads' randomness
     * @param requests      bad requests to send in all
     * @param concurrency   threads sending them
     * @param answerTimeout how long one request may wait for its answer
     */
    public record Settings(String baseUrl, long seed, long requests, int concurrency, Duration answerTimeout) {
    }

    private final Settings settings;
    private final RestAttacks attacks;
    private final HttpClient http;

    public RestFuzzer(Settings settings, RestAttacks attacks) {
        this.settings = settings;
        this.attacks = attacks;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** Sends every request and checks every answer. */
    public RestFuzzReport run() throws InterruptedException {
        RestFuzzReport report = new RestFuzzReport();
        AtomicLong remaining = new AtomicLong(settings.requests());
        ExecutorService threads = Executors.newFixedThreadPool(settings.concurrency());
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < settings.concurrency(); i++) {
                Random random = new Random(settings.seed() + i);
                futures.add(threads.submit(() -> {
                    while (remaining.getAndDecrement() > 0) {
                        check(attacks.next(random), report);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a REST fuzz thread failed", e.getCause());
        } finally {
            threads.shutdownNow();
            report.finished(Duration.ofNanos(System.nanoTime() - start));
        }
        return report;
    }

    /** Sends one request and records its answer, and a violation if it breaks the rules. */
    void check(RestRequest request, RestFuzzReport report) throws InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(build(request), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            report.answered(request.attack(), 0);
            report.violation("no answer within " + settings.answerTimeout() + ": " + request);
            return;
        } catch (IOException e) {
            report.answered(request.attack(), 0);
            if (request.attack() != RestAttack.HUGE_BODY) {
                report.violation("connection failed (" + e + "): " + request);
            }
            // A huge body may be cut off once its 413 is written: the client then sees the connection close.
            return;
        }
        int status = response.statusCode();
        report.answered(request.attack(), status);
        String body = response.body();
        if (status >= 500) {
            report.violation(status + " " + abbreviate(body) + " to " + request);
        } else if (status < 400) {
            if (request.attack().alwaysBad()) {
                report.violation(status + " (not an error) " + abbreviate(body) + " to " + request);
            }
        } else if (!ERROR_BODY.matcher(body).matches()) {
            report.violation(status + " without a Confluent error body (" + abbreviate(body) + ") to " + request);
        }
    }

    private HttpRequest build(RestRequest request) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.baseUrl() + request.path()))
                .timeout(settings.answerTimeout());
        if (request.contentType() != null) {
            b.header("Content-Type", request.contentType());
        }
        b.header("Accept", "application/vnd.kafka.v2+json, application/json");
        HttpRequest.BodyPublisher body;
        if (request.body().length == 0) {
            body = HttpRequest.BodyPublishers.noBody();
        } else if (request.chunked()) {
            body = HttpRequest.BodyPublishers.ofInputStream(() -> (InputStream) new ByteArrayInputStream(request.body()));
        } else {
            body = HttpRequest.BodyPublishers.ofByteArray(request.body());
        }
        return b.method(request.method(), body).build();
    }

    static String abbreviate(String s) {
        return s == null ? "" : s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }
}
