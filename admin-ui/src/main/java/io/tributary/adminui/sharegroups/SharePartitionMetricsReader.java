package io.tributary.adminui.sharegroups;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.throughput.PrometheusText;
import io.tributary.adminui.throughput.PrometheusText.Sample;
import io.tributary.adminui.throughput.ThroughputConfiguration;
import io.tributary.adminui.throughput.ThroughputProperties;
import io.tributary.adminui.throughput.ThroughputService.Target;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Reads a share group's share-partition meters (KIP-1103 and Tributary's archived-records counter) from
 * every broker's Prometheus metrics, on demand: the brokers of the REST proxy's broker list, at the URLs
 * {@link ThroughputProperties} makes of them (as the throughput chart scrapes them), all at once, each
 * within {@code metricsTimeout}. A share-partition's meters live on its leader and start at 0 when the
 * leader loads it; values of the same partition from several brokers are summed.
 *
 * <p>The meters read, tagged {@code group}, {@code topic}, {@code partition}:
 * {@value #IN_FLIGHT} (gauge), {@value #LOCK_EXPIRIES} (counter) and {@value #ARCHIVED} (counter, tag
 * {@code reason} = {@code rejected} or {@code delivery_limit}). Thread-safe.
 */
@Component
public class SharePartitionMetricsReader {

    static final String IN_FLIGHT = "kafka_server_sharepartitionmetrics_inflightmessagecount";
    static final String LOCK_EXPIRIES = "kafka_server_sharepartitionmetrics_acquisitionlocktimeoutpersec_total";
    static final String ARCHIVED = "tributary_share_partition_archived_records_total";

    /** A topic and partition. */
    public record Partition(String topic, int partition) {
    }

    /**
     * One share-partition's meters, summed over the brokers that report it, in records.
     *
     * @param inFlight              records from the start offset to the last acquired one
     * @param archivedRejected      records archived because a consumer rejected them
     * @param archivedDeliveryLimit records archived on reaching {@code share.delivery.count.limit}
     * @param lockExpiries          records whose acquisition lock expired before they were acknowledged
     */
    public record PartitionMetrics(long inFlight, long archivedRejected, long archivedDeliveryLimit,
            long lockExpiries) {
    }

    /**
     * One read of all brokers.
     *
     * @param partitions  the group's share-partitions some broker reported
     * @param unreachable ids of the brokers whose metrics could not be read (no answer within the timeout,
     *                    not HTTP 200), ascending
     */
    public record Reading(Map<Partition, PartitionMetrics> partitions, List<Integer> unreachable) {
    }

    private static final Logger log = LoggerFactory.getLogger(SharePartitionMetricsReader.class);

    private final Supplier<List<Target>> targets;
    private final Duration timeout;
    private final HttpClient http;

    /**
     * @param targets the brokers to read (asked at every read)
     * @param timeout connect and read timeout of each broker; a read takes at most about twice as long
     */
    public SharePartitionMetricsReader(Supplier<List<Target>> targets, Duration timeout) {
        this.targets = targets;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** Reads the brokers the REST proxy lists (as the calling user), at the throughput chart's metrics URLs. */
    @Autowired
    public SharePartitionMetricsReader(RestProxyClient proxy, ThroughputProperties properties) {
        this(ThroughputConfiguration.targets(proxy, properties), properties.metricsTimeout());
    }

    /**
     * The meters of {@code group}'s share-partitions on every broker. Never fails for a broker: one that
     * cannot be read is listed in {@link Reading#unreachable()}; a failure to list the brokers is the
     * REST proxy client's exception.
     */
    public Reading read(String group) {
        List<Target> brokers = targets.get();
        Map<Integer, CompletableFuture<String>> answers = new LinkedHashMap<>();
        for (Target target : brokers) {
            HttpRequest request = HttpRequest.newBuilder(target.metricsUrl()).timeout(timeout)
                .header("Accept", "text/plain").GET().build();
            answers.put(target.id(), http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("HTTP " + r.statusCode());
                }
                return r.body();
            }));
        }
        Map<Integer, String> texts = new HashMap<>();
        Set<Integer> unreachable = new TreeSet<>();
        answers.forEach((id, answer) -> {
            try {
                texts.put(id, answer.get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS));
            } catch (Exception e) {
                answer.cancel(true);
                unreachable.add(id);
                log.debug("Broker {} metrics not read: {}", id, e.toString());
            }
        });
        return new Reading(metrics(group, texts.values()), List.copyOf(unreachable));
    }

    /** The meters of {@code group}'s share-partitions in the brokers' metrics {@code texts}, summed. */
    static Map<Partition, PartitionMetrics> metrics(String group, Iterable<String> texts) {
        Map<Partition, long[]> sums = new HashMap<>();
        for (String text : texts) {
            for (Sample s : PrometheusText.samples(text, Set.of(IN_FLIGHT, LOCK_EXPIRIES, ARCHIVED))) {
                Partition partition = partition(group, s.labels());
                if (partition == null) {
                    continue;
                }
                long[] sum = sums.computeIfAbsent(partition, p -> new long[4]);
                long value = Math.round(s.value());
                switch (s.name()) {
                    case IN_FLIGHT -> sum[0] += value;
                    case LOCK_EXPIRIES -> sum[3] += value;
                    default -> {
                        String reason = s.labels().get("reason");
                        if ("rejected".equals(reason)) {
                            sum[1] += value;
                        } else if ("delivery_limit".equals(reason)) {
                            sum[2] += value;
                        }
                    }
                }
            }
        }
        Map<Partition, PartitionMetrics> metrics = new HashMap<>();
        sums.forEach((p, s) -> metrics.put(p, new PartitionMetrics(s[0], s[1], s[2], s[3])));
        return metrics;
    }

    /** The series' partition when it is one of {@code group}'s, else null. */
    private static Partition partition(String group, Map<String, String> labels) {
        String topic = labels.get("topic");
        String partition = labels.get("partition");
        if (!group.equals(labels.get("group")) || topic == null || partition == null) {
            return null;
        }
        try {
            return new Partition(topic, Integer.parseInt(partition));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
