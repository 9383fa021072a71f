package io.tributary.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Request rate and latency per API, in two forms:
 * <ul>
 *   <li>as Kafka's dashboards read them (JMX {@code kafka.network:type=RequestMetrics,name=...,request=R}
 *       through the Prometheus JMX exporter): {@code kafka_network_requestmetrics_requests_total{request,version}}
 *       and the summary {@code kafka_network_requestmetrics_totaltimems{request,quantile}} in
 *       milliseconds, with quantiles 0.5, 0.75, 0.95, 0.98, 0.99 and 0.999 over the last 5 minutes
 *       (Kafka's histograms are biased to the last 5 minutes too; two significant digits) plus
 *       {@code _count} and {@code _sum} since start and {@code _max} over the window;</li>
 *   <li>as a Prometheus histogram in seconds, which aggregates across brokers:
 *       {@code kafka_network_request_duration_seconds_bucket{request,le}}, buckets from 0.5 ms to 30 s.</li>
 * </ul>
 * The {@code request} label is Kafka's API name ({@code Produce}, {@code Metadata}, ...); Fetch is
 * split as in Kafka into {@code FetchConsumer} and {@code FetchFollower}. The time runs from the
 * moment the request is taken off its connection (one request per connection is handled at a
 * time, as in Kafka) until its response is ready to be written; the socket write that follows is
 * asynchronous and not included.
 *
 * <p>Thread-safe; meters are created once per API and version and cached, so recording allocates
 * nothing.
 */
public final class RequestMetrics {

    /** Kafka's request name for a consumer's fetch. */
    public static final String FETCH_CONSUMER = "FetchConsumer";
    /** Kafka's request name for a follower's fetch. */
    public static final String FETCH_FOLLOWER = "FetchFollower";

    private static final int MAX_VERSIONS = 64;
    private static final Duration[] BUCKETS = {
        Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, ApiMeters> byName = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> onNetworkThread = new ConcurrentHashMap<>();

    /** The meters of one request name. */
    private record ApiMeters(DistributionSummary totalTimeMs, Timer duration, AtomicReferenceArray<Counter> requests) {
    }

    /** @param registry where the meters are registered */
    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Metrics that go nowhere, for code run without a registry. */
    public static RequestMetrics noop() {
        return new RequestMetrics(new SimpleMeterRegistry());
    }

    /** Kafka's metric name of a request: the API's name, with Fetch split by who fetches. */
    public static String requestName(ApiKeys apiKey, boolean fetchFromFollower) {
        if (apiKey == ApiKeys.FETCH) {
            return fetchFromFollower ? FETCH_FOLLOWER : FETCH_CONSUMER;
        }
        return apiKey.name;
    }

    /**
     * Records one request.
     *
     * @param requestName  from {@link #requestName}
     * @param version      the request's API version
     * @param elapsedNanos from taking the request off its connection to its response, ns
     */
    public void record(String requestName, short version, long elapsedNanos) {
        ApiMeters meters = byName.get(requestName);
        if (meters == null) {
            meters = byName.computeIfAbsent(requestName, this::create);
        }
        if (version >= 0 && version < MAX_VERSIONS) {
            Counter counter = meters.requests.get(version);
            if (counter == null) {
                counter = Counter.builder("kafka.network.requestmetrics.requests").tag("request", requestName)
                    .tag("version", Short.toString(version)).description("Requests handled, per API and version")
                    .register(registry);
                meters.requests.set(version, counter);
            }
            counter.increment();
        }
        meters.totalTimeMs.record(elapsedNanos / 1_000_000.0);
        meters.duration.record(elapsedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Counts a request served on its network thread, without the two hand-offs to and from a
     * request handler thread ({@code tributary_network_requests_on_network_thread_total{request}}, a
     * Tributary meter: Kafka serves every request on its handler threads). Recorded besides
     * {@link #record}.
     */
    public void recordOnNetworkThread(String requestName) {
        Counter counter = onNetworkThread.get(requestName);
        if (counter == null) {
            counter = onNetworkThread.computeIfAbsent(requestName, name -> Counter.builder(
                    "tributary.network.requests.on.network.thread").tag("request", name)
                .description("Requests served on their network thread, without a request handler thread")
                .register(registry));
        }
        counter.increment();
    }

    private ApiMeters create(String requestName) {
        DistributionSummary totalTimeMs = DistributionSummary.builder("kafka.network.requestmetrics.totaltimems")
            .tag("request", requestName).description("Time to handle a request, ms (Kafka's TotalTimeMs)")
            .publishPercentiles(0.5, 0.75, 0.95, 0.98, 0.99, 0.999).percentilePrecision(2)
            .distributionStatisticExpiry(Duration.ofMinutes(5)).distributionStatisticBufferLength(5).register(registry);
        Timer duration = Timer.builder("kafka.network.request.duration").tag("request", requestName)
            .description("Time to handle a request").serviceLevelObjectives(BUCKETS).register(registry);
        return new ApiMeters(totalTimeMs, duration, new AtomicReferenceArray<>(MAX_VERSIONS));
    }
}
