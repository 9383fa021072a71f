package io.tributary.faults.fuzz;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The heap in use of a Spring Boot process: a full collection first ({@code jcmd <pid> GC.run}), then the sum of
 * the {@code jvm_memory_used_bytes{area="heap"}} series of its {@code /actuator/prometheus}, so the figure is what
 * stays reachable, not garbage awaiting collection. Thread-safe.
 */
public final class HeapProbe {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * @param pid         the process
     * @param actuatorUrl its management base URL, e.g. {@code http://127.0.0.1:8080}
     * @return bytes of heap in use after a full GC
     */
    public long heapUsedAfterGc(long pid, String actuatorUrl) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
            throw new IOException("jcmd " + pid + " GC.run did not finish within 60 s");
        }
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(actuatorUrl + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("prometheus endpoint answered " + response.statusCode());
        }
        return heapUsed(response.body());
    }

    /**
     * The first {@code lines} lines of {@code jcmd <pid> GC.class_histogram} (a full GC first): what fills the heap,
     * by class, largest first.
     */
    public String classHistogram(long pid, int lines) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
        }
        return String.join("\n", out.lines().limit(lines).toList());
    }

    /** The sum of the {@code jvm_memory_used_bytes} series with {@code area="heap"} in a Prometheus text page. */
    static long heapUsed(String prometheusText) {
        double sum = 0;
        boolean found = false;
        for (String line : prometheusText.lines().toList()) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                String value = line.substring(line.lastIndexOf('}') + 1).trim().split("\\s+")[0];
                sum += Double.parseDouble(value);
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException("no jvm_memory_used_bytes{area=\"heap\"} series in the page");
        }
        return (long) sum;
    }
}
