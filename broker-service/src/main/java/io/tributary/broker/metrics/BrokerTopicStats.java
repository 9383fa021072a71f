package io.tributary.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Per-topic throughput counters, Kafka's {@code kafka.server:type=BrokerTopicMetrics,name=...,topic=T}
 * under the names the Prometheus JMX exporter gives them, so Kafka dashboards read them as they are:
 * <ul>
 *   <li>{@code kafka_server_brokertopicmetrics_bytesin_total{topic}}: bytes of record batches produced
 *       to leaders here (replication excluded), counted after a successful append;</li>
 *   <li>{@code kafka_server_brokertopicmetrics_messagesin_total{topic}}: records in those batches;</li>
 *   <li>{@code kafka_server_brokertopicmetrics_bytesout_total{topic}}: bytes of records sent to
 *       consumers (followers' fetches excluded);</li>
 *   <li>{@code ..._totalproducerequests_total}, {@code ..._failedproducerequests_total},
 *       {@code ..._totalfetchrequests_total}, {@code ..._failedfetchrequests_total} per topic: one per
 *       partition of a request, as in Kafka;</li>
 *   <li>{@code kafka_server_brokertopicmetrics_replicationbytesin_total} and
 *       {@code ..._replicationbytesout_total}: broker-wide bytes copied by followers, with no topic
 *       label (Kafka keeps these only as broker totals).</li>
 * </ul>
 * Every per-topic series carries the {@code topic} label; cluster and broker totals are sums in
 * PromQL ({@code sum by (instance) (rate(kafka_server_brokertopicmetrics_bytesin_total[1m]))}),
 * since Micrometer cannot register one name with and without a tag.
 *
 * <p>Series exist only for topics that exist: a topic's series are created on first use if the
 * topic filter (the broker's metadata, given to the constructor) knows it, and go when the topic
 * is deleted ({@link #removeTopic}). So clients naming topics that do not exist cannot grow the
 * number of series, and a fetch answered after a topic's deletion does not bring its series back.
 * The filter is asked inside the map's atomic creation, so with {@link #removeTopic} called after
 * the topic left the metadata no series outlives its topic.
 *
 * <p>Thread-safe. The meters of a topic are created once and cached; recording is a map lookup and
 * an add, with no allocation.
 */
public final class BrokerTopicStats {

    /** The counters of one topic. */
    public record TopicMeters(Counter bytesIn, Counter messagesIn, Counter bytesOut, Counter totalProduceRequests,
                              Counter failedProduceRequests, Counter totalFetchRequests, Counter failedFetchRequests) {

        List<Counter> all() {
            return List.of(bytesIn, messagesIn, bytesOut, totalProduceRequests, failedProduceRequests, totalFetchRequests,
                failedFetchRequests);
        }
    }

    private static final String PREFIX = "kafka.server.brokertopicmetrics.";

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, TopicMeters> topics = new ConcurrentHashMap<>();
    private final Counter replicationBytesIn;
    private final Counter replicationBytesOut;
    private final Predicate<String> topicExists;

    /** Stats for every topic named, for code run without the broker's metadata (tests of single parts). */
    public BrokerTopicStats(MeterRegistry registry) {
        this(registry, topic -> true);
    }

    /**
     * @param registry    where the meters are registered
     * @param topicExists which topics may have series: those of the broker's metadata
     */
    public BrokerTopicStats(MeterRegistry registry, Predicate<String> topicExists) {
        this.registry = registry;
        this.topicExists = topicExists;
        this.replicationBytesIn = Counter.builder(PREFIX + "replicationbytesin")
            .description("Bytes appended by this broker's followers, from their leaders").register(registry);
        this.replicationBytesOut = Counter.builder(PREFIX + "replicationbytesout")
            .description("Bytes sent by this broker as leader to followers").register(registry);
    }

    /** Stats that go nowhere, for code run without a registry (tests of single parts). */
    public static BrokerTopicStats noop() {
        return new BrokerTopicStats(new SimpleMeterRegistry());
    }

    /** The counters of {@code topic}, created on first use; null if the topic does not exist. */
    public TopicMeters topic(String topic) {
        TopicMeters meters = topics.get(topic);
        return meters != null ? meters : topics.computeIfAbsent(topic,
            t -> topicExists.test(t) ? create(t) : null);
    }

    private TopicMeters create(String topic) {
        Tags tags = Tags.of("topic", topic);
        return new TopicMeters(
            counter("bytesin", tags, "Bytes produced to this topic's leaders here"),
            counter("messagesin", tags, "Records produced to this topic's leaders here"),
            counter("bytesout", tags, "Bytes of this topic's records sent to consumers"),
            counter("totalproducerequests", tags, "Produce requests (per partition) for this topic"),
            counter("failedproducerequests", tags, "Produce requests (per partition) for this topic that failed"),
            counter("totalfetchrequests", tags, "Consumer fetch requests (per partition) for this topic"),
            counter("failedfetchrequests", tags, "Consumer fetch requests (per partition) for this topic that failed"));
    }

    private Counter counter(String name, Tags tags, String description) {
        return Counter.builder(PREFIX + name).tags(tags).description(description).register(registry);
    }

    /** A successful append of a producer's batches: {@code bytes} of batches holding {@code records} records. */
    public void recordProduced(String topic, long bytes, long records) {
        TopicMeters m = topic(topic);
        if (m == null) {
            return;
        }
        m.totalProduceRequests.increment();
        m.bytesIn.increment(bytes);
        m.messagesIn.increment(records);
    }

    /**
     * An append of a producer's batches to one partition of {@code topic} that did not succeed.
     *
     * @param brokerFault whether it counts as failed; Kafka leaves out the known outcomes (unknown
     *                    partition, not leader, record or batch too large, corrupt record, storage
     *                    error) and counts everything else, invalid records and NOT_ENOUGH_REPLICAS included
     */
    public void recordProduceFailed(String topic, boolean brokerFault) {
        TopicMeters m = topic(topic);
        if (m == null) {
            return;
        }
        m.totalProduceRequests.increment();
        if (brokerFault) {
            m.failedProduceRequests.increment();
        }
    }

    /**
     * One partition of a fetch answered.
     *
     * @param fromFollower whether a follower fetched (counted as replication bytes out, not per topic)
     * @param bytes        bytes of records in the answer
     * @param failed       whether the partition was answered with an error
     */
    public void recordFetched(String topic, boolean fromFollower, long bytes, boolean failed) {
        if (fromFollower) {
            replicationBytesOut.increment(bytes);
            return;
        }
        TopicMeters m = topic(topic);
        if (m == null) {
            return;
        }
        m.totalFetchRequests.increment();
        if (failed) {
            m.failedFetchRequests.increment();
        }
        m.bytesOut.increment(bytes);
    }

    /** Bytes appended by a follower here, from its leader. */
    public void recordReplicationBytesIn(long bytes) {
        replicationBytesIn.increment(bytes);
    }

    /** Removes {@code topic}'s series: the topic was deleted (call once it has left the metadata). */
    public void removeTopic(String topic) {
        TopicMeters meters = topics.remove(topic);
        if (meters != null) {
            meters.all().forEach(registry::remove);
        }
    }
}
