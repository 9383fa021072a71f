package io.tributary.adminui.throughput;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Scrapes every broker's Prometheus metrics every interval into a {@link ThroughputRecorder}.
 *
 * <p>Lazily: the first {@link #snapshot()} starts the scraping, which stops again after
 * {@code metricsIdleStop} without one. An admin UI nobody looks at then makes no requests to the brokers;
 * the price is that the chart starts empty ("collecting") when someone opens the overview.
 */
public class ThroughputService implements DisposableBean {

    /** How far back the chart goes. */
    public static final Duration WINDOW = Duration.ofMinutes(15);

    /** A broker to scrape. */
    public record Target(int id, URI metricsUrl) {
    }

    /** The answer of {@code GET /api/throughput}. */
    public record Snapshot(long intervalSeconds, List<PointView> points, List<Integer> missingBrokers) {
    }

    /** One chart point: epoch milliseconds and rates per second. */
    public record PointView(long time, double bytesIn, double bytesOut, double messagesIn) {
    }

    private static final Logger log = LoggerFactory.getLogger(ThroughputService.class);

    private final Supplier<List<Target>> targets;
    private final ThroughputProperties properties;
    private final Clock clock;
    private final ThroughputRecorder recorder;
    private final HttpClient http;
    private final ScheduledExecutorService scheduler;
    private ScheduledFuture<?> running;
    private Instant lastAsked = Instant.MIN;

    /**
     * @param targets   the brokers to scrape (asked at every scrape: brokers may come and go)
     * @param scheduler runs the scrapes; null for none (tests call {@link #scrapeOnce()} themselves)
     */
    public ThroughputService(Supplier<List<Target>> targets, ThroughputProperties properties, Clock clock,
            ScheduledExecutorService scheduler) {
        this.targets = targets;
        this.properties = properties;
        this.clock = clock;
        this.scheduler = scheduler;
        this.recorder = new ThroughputRecorder(WINDOW, properties.metricsInterval());
        this.http = HttpClient.newBuilder().connectTimeout(properties.metricsTimeout()).build();
    }

    /** A service scraping on its own daemon thread. */
    public static ThroughputService scheduled(Supplier<List<Target>> targets, ThroughputProperties properties,
            Clock clock) {
        return new ThroughputService(targets, properties, clock, Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "throughput-scraper");
            t.setDaemon(true);
            return t;
        }));
    }

    /** The chart's data; starts the scraping if it is not running. */
    public Snapshot snapshot() {
        Instant now = clock.instant();
        synchronized (this) {
            lastAsked = now;
            if (scheduler != null && running == null) {
                long interval = properties.metricsInterval().toMillis();
                running = scheduler.scheduleWithFixedDelay(this::tick, 0, interval, TimeUnit.MILLISECONDS);
            }
        }
        List<PointView> points = recorder.points(now).stream()
            .map(p -> new PointView(p.time().toEpochMilli(), p.bytesIn(), p.bytesOut(), p.messagesIn())).toList();
        return new Snapshot(Math.max(1, properties.metricsInterval().toSeconds()), points, recorder.missingBrokers());
    }

    /** Whether the scraping is running. */
    public synchronized boolean scraping() {
        return running != null;
    }

    /** One scheduled run: stops the scraping when nobody asked for a while, else scrapes. */
    void tick() {
        synchronized (this) {
            if (Duration.between(lastAsked, clock.instant()).compareTo(properties.metricsIdleStop()) > 0) {
                running.cancel(false);
                running = null;
                recorder.pause();
                log.info("Nobody asked for the throughput for {}: scraping stopped", properties.metricsIdleStop());
                return;
            }
        }
        try {
            scrapeOnce();
        } catch (RuntimeException e) {
            log.warn("Throughput scrape failed: {}", e.toString());
        }
    }

    /** Reads every broker's counters once (concurrently, each within the timeout) and records them. */
    public void scrapeOnce() {
        List<Target> brokers = targets.get();
        Map<Integer, CompletableFuture<String>> answers = new HashMap<>();
        for (Target target : brokers) {
            HttpRequest request = HttpRequest.newBuilder(target.metricsUrl()).timeout(properties.metricsTimeout())
                .header("Accept", "text/plain").GET().build();
            answers.put(target.id(), http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> {
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("HTTP " + r.statusCode());
                    }
                    return r.body();
                }));
        }
        Map<Integer, Counters> scraped = new HashMap<>();
        Set<Integer> failed = new HashSet<>();
        answers.forEach((id, answer) -> {
            try {
                scraped.put(id, PrometheusText.parse(
                    answer.get(properties.metricsTimeout().toMillis() * 2, TimeUnit.MILLISECONDS)));
            } catch (Exception e) {
                answer.cancel(true);
                failed.add(id);
                log.debug("Broker {} metrics not read: {}", id, e.toString());
            }
        });
        recorder.record(clock.instant(), scraped, failed);
    }

    @Override
    public void destroy() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
