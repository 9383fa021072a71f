package io.tributary.broker.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A real kafka-clients consumer polling on its own thread, as an application would: it records
 * every record it receives, its current assignment and every rebalance callback. Commits
 * follow {@link CommitMode}.
 */
public final class ConsumerLoop implements AutoCloseable {

    /** How the loop commits. */
    public enum CommitMode {
        /** {@code enable.auto.commit=true}: the client commits on its own. */
        AUTO,
        /** {@code commitSync()} after every poll that returned records, and before partitions are revoked. */
        SYNC,
        /** No commits. */
        NONE
    }

    /** One consumed record. */
    public record Consumed(String member, TopicPartition partition, long offset, String value) {
    }

    /** A rebalance callback: partitions assigned or revoked (or lost). */
    public record Rebalance(String kind, Set<TopicPartition> partitions) {
    }

    private final String name;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final CommitMode commitMode;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Consumed> consumed = new ConcurrentLinkedQueue<>();
    private final List<Rebalance> rebalances = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Set<TopicPartition> assignment = Set.of();
    private volatile int generation = -1;
    private volatile double heartbeats;
    private volatile long polls;
    private volatile boolean stopping;
    private volatile CloseOptions closeOptions;

    /**
     * Subscribes and starts polling.
     *
     * @param consumer a fresh consumer; its settings must match {@code commitMode}
     */
    public ConsumerLoop(String name, KafkaConsumer<byte[], byte[]> consumer, Collection<String> topics,
                        CommitMode commitMode) {
        this.name = name;
        this.consumer = consumer;
        this.commitMode = commitMode;
        this.thread = new Thread(() -> run(topics), "consumer-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(Collection<String> topics) {
        try {
            consumer.subscribe(topics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    if (commitMode == CommitMode.SYNC && !partitions.isEmpty()) {
                        consumer.commitSync();
                    }
                    rebalances.add(new Rebalance("revoked", Set.copyOf(partitions)));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    rebalances.add(new Rebalance("assigned", Set.copyOf(partitions)));
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    rebalances.add(new Rebalance("lost", Set.copyOf(partitions)));
                }
            });
            while (!stopping) {
                var records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    consumed.add(new Consumed(name, new TopicPartition(r.topic(), r.partition()), r.offset(),
                        r.value() == null ? null : new String(r.value())));
                }
                if (commitMode == CommitMode.SYNC && !records.isEmpty()) {
                    consumer.commitSync();
                }
                assignment = Set.copyOf(consumer.assignment());
                generation = consumer.groupMetadata().generationId();
                heartbeats = heartbeatsAnswered();
                polls++;
            }
        } catch (WakeupException e) {
            // stopping
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            try {
                consumer.close(closeOptions == null ? CloseOptions.timeout(Duration.ofSeconds(30)) : closeOptions);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }
    }

    /** The client's {@code heartbeat-total}: heartbeat responses received, errors included. */
    private double heartbeatsAnswered() {
        return consumer.metrics().entrySet().stream()
            .filter(e -> e.getKey().name().equals("heartbeat-total")
                && e.getKey().group().equals("consumer-coordinator-metrics"))
            .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    public String name() {
        return name;
    }

    /** The assignment seen after the last poll. */
    public Set<TopicPartition> assignment() {
        return assignment;
    }

    /** The group generation seen after the last poll (-1 before the first join). */
    public int generation() {
        return generation;
    }

    /**
     * Heartbeat responses the client had received at the end of the last poll. A response asking
     * it to rejoin is acted on in the next poll, so two polls after one the rebalance has begun.
     */
    public double heartbeats() {
        return heartbeats;
    }

    /** Polls completed; each publishes the assignment, generation and heartbeats seen after it. */
    public long polls() {
        return polls;
    }

    public List<Consumed> consumed() {
        return new ArrayList<>(consumed);
    }

    public List<Rebalance> rebalances() {
        return List.copyOf(rebalances);
    }

    /** What the poll thread threw, if anything. */
    public Throwable failure() {
        return failure.get();
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    /** Stops polling and closes the consumer, leaving the group (LeaveGroup). */
    @Override
    public void close() throws InterruptedException {
        stop(CloseOptions.timeout(Duration.ofSeconds(30)));
    }

    /** Stops polling and closes the consumer without sending LeaveGroup, like a member that vanished. */
    public void closeWithoutLeaving() throws InterruptedException {
        stop(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
            .withTimeout(Duration.ofSeconds(30)));
    }

    private void stop(CloseOptions options) throws InterruptedException {
        if (!thread.isAlive()) {
            return;
        }
        closeOptions = options;
        stopping = true;
        consumer.wakeup();
        thread.join(60_000);
    }
}
