package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.ConsumerAlreadySubscribedException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations a consumer instance runs on its Kafka consumer, and the state they share: what
 * the consumer is pointed at (a topic list, a pattern or an assignment) and when auto-commit runs
 * next. {@link ConsumerInstance} hands the subscribe, assign, seek and commit operations to its
 * {@link PollLoop}, which runs them between polls and asks here whether there is anything to poll,
 * to auto-commit, and to commit at close. Keeps the buffered records in step: records of
 * partitions no longer assigned, or from before a seek, are dropped.
 *
 * <p>Thread-safety: not thread-safe; confined to the instance's poll thread, the only thread that
 * uses the Kafka consumer. Its fields are plain for that reason. The {@link RecordBuffer} it
 * shares with HTTP readers is thread-safe.
 *
 * <p>Errors: Kafka's exceptions propagate as the consumer throws them ({@link IllegalStateException}
 * for e.g. an assign while subscribed; {@link org.apache.kafka.common.errors.WakeupException} when a
 * wake-up meant for {@code poll} lands on a blocking call); {@link PollLoop} turns them into the
 * proxy's exceptions. Blocking calls are bounded by {@link #OPERATION_TIMEOUT}.
 */
final class ConsumerOperations {

    /** The instance's logger: its log lines keep the name they had when this was part of {@link ConsumerInstance}. */
    private static final Logger log = LoggerFactory.getLogger(ConsumerInstance.class);
    /** Bound of every blocking Kafka consumer call an operation makes. */
    static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);

    private final String group;
    private final String id;
    private final ConsumerInstanceConfig config;
    private final Consumer<byte[], byte[]> consumer;
    private final Clock clock;
    private final RecordBuffer buffer;
    private final RebalanceListener rebalanceListener;

    private boolean hasTarget;
    private boolean patternSubscription;
    private long nextAutoCommitMs;

    /**
     * @param group             the instance's group, for log lines
     * @param id                the instance's id, for log lines
     * @param consumer          the instance's Kafka consumer, used on the poll thread only
     * @param clock             times auto-commit
     * @param buffer            the instance's buffer of fetched records
     * @param rebalanceListener given to the consumer with each subscription; also commits on unsubscribe and close
     */
    ConsumerOperations(String group, String id, ConsumerInstanceConfig config, Consumer<byte[], byte[]> consumer,
            Clock clock, RecordBuffer buffer, RebalanceListener rebalanceListener) {
        this.group = group;
        this.id = id;
        this.config = config;
        this.consumer = consumer;
        this.clock = clock;
        this.buffer = buffer;
        this.rebalanceListener = rebalanceListener;
    }

    /** Whether the consumer is subscribed or has partitions assigned, so that there is something to poll. */
    boolean hasTarget() {
        return hasTarget;
    }

    /**
     * Subscribes to {@code topics} (replacing an earlier topic list).
     *
     * @throws ConsumerAlreadySubscribedException when subscribed by pattern
     * @throws IllegalStateException when partitions are assigned (from Kafka's consumer)
     */
    void subscribe(List<String> topics) {
        if (hasTarget && patternSubscription) {
            throw new ConsumerAlreadySubscribedException("Consumer is subscribed by topic pattern; "
                + "delete the subscription before subscribing to a list of topics.");
        }
        consumer.subscribe(topics, rebalanceListener);
        hasTarget = true;
        patternSubscription = false;
    }

    /**
     * Subscribes to every topic matching {@code pattern}, now and later.
     *
     * @throws ConsumerAlreadySubscribedException when subscribed to a topic list
     * @throws IllegalStateException when partitions are assigned (from Kafka's consumer)
     */
    void subscribe(Pattern pattern) {
        if (hasTarget && !patternSubscription && !consumer.subscription().isEmpty()) {
            throw new ConsumerAlreadySubscribedException("Consumer is subscribed to a list of topics; "
                + "delete the subscription before subscribing by pattern.");
        }
        consumer.subscribe(pattern, rebalanceListener);
        hasTarget = true;
        patternSubscription = true;
    }

    /** The subscribed topics (for a pattern, those it matched so far). */
    Set<String> subscription() {
        return consumer.subscription();
    }

    /** Leaves the subscription or assignment; buffered records are dropped. */
    void unsubscribe() {
        rebalanceListener.commitOnRevoke(consumer.assignment());
        consumer.unsubscribe();
        buffer.retain(Set.of());
        hasTarget = false;
        patternSubscription = false;
    }

    /**
     * Assigns {@code partitions} manually (no group rebalancing).
     *
     * @throws IllegalStateException when subscribed (from Kafka's consumer)
     */
    void assign(Collection<TopicPartition> partitions) {
        consumer.assign(partitions);
        buffer.retain(partitions);
        hasTarget = !partitions.isEmpty();
        patternSubscription = false;
    }

    /** The partitions assigned, by the group or manually. */
    Set<TopicPartition> assignment() {
        return consumer.assignment();
    }

    /**
     * Moves the fetch position of each partition to the given offset; records buffered from the
     * old position are dropped.
     *
     * @throws IllegalStateException for a partition not assigned (from Kafka's consumer)
     */
    void seek(Map<TopicPartition, Long> offsets) {
        offsets.forEach(consumer::seek);
        buffer.seeked(offsets);
    }

    /** Moves each partition to the offset of its first record with a timestamp at or after the given one, or to its end. */
    void seekToTimestamps(Map<TopicPartition, Long> timestamps) {
        var found = consumer.offsetsForTimes(timestamps, OPERATION_TIMEOUT);
        for (TopicPartition tp : timestamps.keySet()) {
            var offset = found.get(tp);
            if (offset != null) {
                consumer.seek(tp, offset.offset());
            } else {
                consumer.seekToEnd(List.of(tp));
            }
        }
        buffer.seeked(positions(timestamps.keySet()));
    }

    /** Moves each partition to its log start offset, looked up now. */
    void seekToBeginning(Collection<TopicPartition> partitions) {
        consumer.seekToBeginning(partitions);
        buffer.seeked(positions(partitions));
    }

    /** Moves each partition to its log end offset, looked up now. */
    void seekToEnd(Collection<TopicPartition> partitions) {
        consumer.seekToEnd(partitions);
        buffer.seeked(positions(partitions));
    }

    /** Commits what readers consumed so far (the offset after the last record read of each partition). */
    Map<TopicPartition, OffsetAndMetadata> commitConsumed() {
        Map<TopicPartition, OffsetAndMetadata> offsets = toCommit(buffer.consumedPositions());
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets, OPERATION_TIMEOUT);
        }
        return offsets;
    }

    /** Commits the given offsets as they are (the offset of the next record to read). */
    void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        consumer.commitSync(offsets, OPERATION_TIMEOUT);
    }

    /** The group's committed offsets of {@code partitions}; partitions without one are left out. */
    Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
        consumer.committed(partitions, OPERATION_TIMEOUT).forEach((tp, offset) -> {
            if (offset != null) {
                result.put(tp, offset);
            }
        });
        return result;
    }

    /**
     * With auto-commit on, and its interval passed since the last one, commits what readers
     * consumed, asynchronously; a failure is logged at debug level. Called after each poll.
     */
    void maybeAutoCommit() {
        if (!config.autoCommitEnable()) {
            return;
        }
        long now = clock.millis();
        if (now < nextAutoCommitMs) {
            return;
        }
        nextAutoCommitMs = now + config.autoCommitIntervalMs();
        Map<TopicPartition, OffsetAndMetadata> offsets = toCommit(buffer.consumedPositions());
        if (!offsets.isEmpty()) {
            consumer.commitAsync(offsets, (committed, e) -> {
                if (e != null) {
                    log.debug("Auto-commit of {} in group {} failed: {}", id, group, e.toString());
                }
            });
        }
    }

    /** Before the consumer closes: as when its partitions are revoked, if it has any target. */
    void commitAtClose() {
        if (hasTarget) {
            rebalanceListener.commitOnRevoke(consumer.assignment());
        }
    }

    /** The fetch positions of {@code partitions}, looked up now if a seek left them to be resolved. */
    private Map<TopicPartition, Long> positions(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            positions.put(tp, consumer.position(tp, OPERATION_TIMEOUT));
        }
        return positions;
    }

    /** The offsets to commit for consumed positions (each the offset of the next record to read). */
    static Map<TopicPartition, OffsetAndMetadata> toCommit(Map<TopicPartition, Long> positions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((tp, offset) -> offsets.put(tp, new OffsetAndMetadata(offset)));
        return offsets;
    }
}
