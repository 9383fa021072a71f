package io.tributary.restproxy.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.stereotype.Component;

/**
 * Counters of records through the proxy, scraped as {@code restproxy_records_produced_total}
 * and {@code restproxy_records_consumed_total} with their key and value bytes
 * ({@code restproxy_produced_bytes_total}, {@code restproxy_consumed_bytes_total}), tag {@code api}: {@code v2}, {@code v3},
 * {@code consumer}, {@code partition-read}, {@code stream}.
 * Per-endpoint request rates and latency histograms are Spring's {@code http_server_requests_seconds}.
 * Thread-safe.
 */
@Component
public class RecordMetrics {

    /** The record and byte counters of one direction and API. */
    private record Counters(Counter records, Counter bytes) {
    }

    private final MeterRegistry registry;
    /** Counters by direction and API, built once: the per-record path only increments. */
    private final Map<String, Counters> produced = new ConcurrentHashMap<>();
    private final Map<String, Counters> consumed = new ConcurrentHashMap<>();

    public RecordMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Counts a record the producer acknowledged. */
    public void produced(String api, int bytes) {
        Counters counters = produced.computeIfAbsent(api, a -> new Counters(
            Counter.builder("restproxy.records.produced").description("Records the proxy's producer acknowledged")
                .tag("api", a).register(registry),
            Counter.builder("restproxy.produced").baseUnit("bytes").description("Key and value bytes produced")
                .tag("api", a).register(registry)));
        counters.records().increment();
        counters.bytes().increment(bytes);
    }

    /** Counts records returned to a reader. */
    public void consumed(String api, int records, long bytes) {
        Counters counters = consumed.computeIfAbsent(api, a -> new Counters(
            Counter.builder("restproxy.records.consumed").description("Records returned to HTTP readers")
                .tag("api", a).register(registry),
            Counter.builder("restproxy.consumed").baseUnit("bytes").description("Key and value bytes returned")
                .tag("api", a).register(registry)));
        counters.records().increment(records);
        counters.bytes().increment(bytes);
    }

    /** Key plus value bytes of a record. */
    public static long size(ConsumerRecord<byte[], byte[]> record) {
        return (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
    }
}
