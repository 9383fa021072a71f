package io.tributary.adminui.throughput;

import static io.tributary.adminui.testing.ProxyJson.CLUSTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.tributary.adminui.error.ApiExceptionHandler;
import io.tributary.adminui.proxy.CallerIdentity;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import io.tributary.adminui.testing.ProxyJson;
import io.tributary.adminui.testing.StubRestProxy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * {@code GET /api/throughput} over a stub REST proxy (the broker list) and stub broker metrics
 * endpoints, with a clock the test moves.
 */
class ThroughputApiTest {

    /** Far above any answer's time, even on a loaded 2-core machine: no test here waits for it. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(15);

    private static final String METRICS = "/actuator/prometheus";

    /** A clock the test sets. */
    static final class FakeClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private static String metrics(long bytesInA, long bytesInB, long bytesOut, long messages) {
        return "# TYPE kafka_server_brokertopicmetrics_bytesin_total counter\n"
            + "kafka_server_brokertopicmetrics_bytesin_total{topic=\"a\"} " + bytesInA + ".0\n"
            + "kafka_server_brokertopicmetrics_bytesin_total{topic=\"b\"} " + bytesInB + ".0\n"
            + "kafka_server_brokertopicmetrics_bytesout_total{topic=\"a\"} " + bytesOut + ".0\n"
            + "kafka_server_brokertopicmetrics_messagesin_total{topic=\"a\"} " + messages + ".0\n"
            + "jvm_threads_live_threads 30.0\n";
    }

    private static ThroughputProperties properties(Map<Integer, URI> urls) {
        return new ThroughputProperties(8090, urls, Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(3));
    }

    private static RestProxyClient client(URI proxy) {
        return new RestProxyConfiguration().restProxyClient(
            RestProxyProperties.of(proxy, Duration.ofSeconds(2), READ_TIMEOUT), RestProxyLocator.fixed(proxy));
    }

    @Test
    void ratesSumOverBrokersAndABrokerThatDoesNotAnswerIsListedAsMissing() throws Exception {
        FakeClock clock = new FakeClock();
        try (StubRestProxy proxy = new StubRestProxy(); StubRestProxy broker1 = new StubRestProxy();
             StubRestProxy broker2 = new StubRestProxy()) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(1))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200,
                    ProxyJson.list(List.of(ProxyJson.broker(1, null), ProxyJson.broker(2, null))));
            ThroughputProperties props = properties(Map.of(1, broker1.url().resolve(METRICS),
                2, broker2.url().resolve(METRICS)));
            ThroughputService service = new ThroughputService(ThroughputConfiguration.targets(client(proxy.url()), props),
                props, clock, null);
            MockMvc mvc = MockMvcBuilders.standaloneSetup(new ThroughputController(service, new CallerIdentity.LastCaller()))
                .setControllerAdvice(new ApiExceptionHandler()).build();

            mvc.perform(get("/api/throughput")).andExpect(status().isOk())
                .andExpect(jsonPath("$.intervalSeconds").value(5))
                .andExpect(jsonPath("$.points.length()").value(0))
                .andExpect(jsonPath("$.missingBrokers.length()").value(0));

            broker1.on("GET", METRICS, 200, metrics(100, 100, 0, 2));
            broker2.on("GET", METRICS, 200, metrics(0, 0, 0, 0));
            service.scrapeOnce();
            clock.advance(Duration.ofSeconds(5));
            broker1.on("GET", METRICS, 200, metrics(600, 200, 50, 12));
            broker2.on("GET", METRICS, 200, metrics(400, 0, 0, 8));
            service.scrapeOnce();

            mvc.perform(get("/api/throughput")).andExpect(status().isOk())
                .andExpect(jsonPath("$.points.length()").value(1))
                .andExpect(jsonPath("$.points[0].time").value(clock.instant().toEpochMilli()))
                .andExpect(jsonPath("$.points[0].bytesIn").value(200.0))
                .andExpect(jsonPath("$.points[0].bytesOut").value(10.0))
                .andExpect(jsonPath("$.points[0].messagesIn").value(3.6))
                .andExpect(jsonPath("$.missingBrokers.length()").value(0));

            // Broker 2 fails (500): listed as missing, broker 1's rate still counts.
            clock.advance(Duration.ofSeconds(5));
            broker1.on("GET", METRICS, 200, metrics(600, 200, 50, 22));
            broker2.on("GET", METRICS, 500, "");
            service.scrapeOnce();
            mvc.perform(get("/api/throughput")).andExpect(status().isOk())
                .andExpect(jsonPath("$.points.length()").value(2))
                .andExpect(jsonPath("$.points[1].bytesIn").value(0.0))
                .andExpect(jsonPath("$.points[1].messagesIn").value(2.0))
                .andExpect(jsonPath("$.missingBrokers[0]").value(2))
                .andExpect(jsonPath("$.missingBrokers.length()").value(1));

            // Broker 2 gone entirely (nothing listening): missing as well.
            broker2.close();
            clock.advance(Duration.ofSeconds(5));
            service.scrapeOnce();
            mvc.perform(get("/api/throughput"))
                .andExpect(jsonPath("$.missingBrokers[0]").value(2))
                .andExpect(jsonPath("$.points.length()").value(3));
        }
    }

    @Test
    void theDefaultMetricsUrlIsTheBrokerHostAtTheMetricsPort() {
        ThroughputProperties props = properties(Map.of(3, URI.create("http://localhost:8093/actuator/prometheus")));
        assertThat(props.metricsUrl(1, "broker-1.brokers")).hasToString("http://broker-1.brokers:8090/actuator/prometheus");
        assertThat(props.metricsUrl(3, "localhost")).hasToString("http://localhost:8093/actuator/prometheus");
        assertThat(new ThroughputProperties(8090, null, Duration.ofSeconds(5), Duration.ofSeconds(1),
            Duration.ofMinutes(3)).brokerMetricsUrls()).isEmpty();
    }

    @Test
    void scrapingStartsWithTheFirstCallAndStopsWhenNobodyAsks() throws Exception {
        FakeClock clock = new FakeClock();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (StubRestProxy proxy = new StubRestProxy(); StubRestProxy broker = new StubRestProxy()) {
            proxy.on("GET", "/v3/clusters", 200, ProxyJson.clusters(1))
                .on("GET", "/v3/clusters/" + CLUSTER + "/brokers", 200, ProxyJson.list(List.of(ProxyJson.broker(1, null))));
            broker.on("GET", METRICS, 200, metrics(0, 0, 0, 0));
            // An interval of an hour: only the first run (at once) happens by itself; the test runs the others.
            ThroughputProperties props = new ThroughputProperties(8090, Map.of(1, broker.url().resolve(METRICS)),
                Duration.ofHours(1), Duration.ofSeconds(1), Duration.ofMinutes(3));
            ThroughputService service = new ThroughputService(ThroughputConfiguration.targets(client(proxy.url()), props),
                props, clock, scheduler);

            assertThat(service.scraping()).isFalse();
            assertThat(broker.count("GET", METRICS)).as("nothing before the first call").isZero();
            service.snapshot();
            assertThat(service.scraping()).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (broker.count("GET", METRICS) == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(broker.count("GET", METRICS)).as("the first call starts a scrape at once").isEqualTo(1);

            clock.advance(Duration.ofMinutes(2));
            service.tick();
            assertThat(service.scraping()).isTrue();
            assertThat(broker.count("GET", METRICS)).isEqualTo(2);

            clock.advance(Duration.ofMinutes(2));
            service.tick();
            assertThat(service.scraping()).as("stopped 3 minutes after the last call").isFalse();
            assertThat(broker.count("GET", METRICS)).isEqualTo(2);

            service.snapshot();
            assertThat(service.scraping()).as("a new call starts it again").isTrue();
        } finally {
            scheduler.shutdownNow();
        }
    }
}
