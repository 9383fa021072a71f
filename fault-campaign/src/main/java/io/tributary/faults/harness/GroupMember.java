package io.tributary.faults.harness;

import io.tributary.faults.history.Commit;
import io.tributary.faults.history.ConsumedRecord;
import io.tributary.faults.history.Operation;
import io.tributary.faults.history.Outcome;
import io.tributary.faults.history.Poll;
import io.tributary.faults.history.TopicPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One member of a consumer group in the queue workload: subscribes to the topic with the given group protocol
 * (classic or KIP-848's consumer protocol) and isolation level, polls, and after every poll that returned records
 * commits the positions it reached with {@code commitSync}, recording each poll and each partition's commit with its
 * outcome.
 *
 * <p>A commit the group refused (a rebalance, an unknown or fenced member: Kafka's CommitFailedException and its
 * relatives) is recorded {@link Outcome#FAIL}; a timeout or any other error {@link Outcome#INFO}. The member's
 * assignment epoch, carried by its polls, moves on every rebalance callback: its position may then legitimately go
 * back to the group's committed offset. Runs on the thread that calls {@link #run()}; not thread-safe otherwise.
 */
final class GroupMember implements Runnable {

    private final String bootstrap;
    private final String topic;
    private final String group;
    private final String client;
    private final GroupProtocol protocol;
    private final boolean readCommitted;
    private final Consumer<Operation> history;
    private final BooleanSupplier running;
    private long assignmentEpoch;

    GroupMember(String bootstrap, String topic, String group, String client, GroupProtocol protocol,
                boolean readCommitted, Consumer<Operation> history, BooleanSupplier running) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.group = group;
        this.client = client;
        this.protocol = protocol;
        this.readCommitted = readCommitted;
        this.history = history;
        this.running = running;
    }

    @Override
    public void run() {
        try (var consumer = new KafkaConsumer<>(config(), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<org.apache.kafka.common.TopicPartition> partitions) {
                    assignmentEpoch++;
                }

                @Override
                public void onPartitionsAssigned(Collection<org.apache.kafka.common.TopicPartition> partitions) {
                    assignmentEpoch++;
                }

                @Override
                public void onPartitionsLost(Collection<org.apache.kafka.common.TopicPartition> partitions) {
                    assignmentEpoch++;
                }
            });
            while (running.getAsBoolean()) {
                Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> positions = poll(consumer);
                if (!positions.isEmpty()) {
                    commit(consumer, positions);
                }
            }
        }
    }

    /** One poll, recorded; the next offset to read of each partition it returned records of. */
    private Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> poll(KafkaConsumer<String, String> consumer) {
        long invoked = System.nanoTime();
        Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        try {
            var records = consumer.poll(Duration.ofMillis(200));
            List<ConsumedRecord> read = new ArrayList<>(records.count());
            for (ConsumerRecord<String, String> r : records) {
                read.add(new ConsumedRecord(new TopicPartition(r.topic(), r.partition()), r.offset(), r.value()));
                positions.put(new org.apache.kafka.common.TopicPartition(r.topic(), r.partition()),
                        new OffsetAndMetadata(r.offset() + 1));
            }
            history.accept(Poll.ok(client, group, assignmentEpoch, invoked, System.nanoTime(), read));
        } catch (RuntimeException e) {
            history.accept(new Poll(client, Optional.of(group), assignmentEpoch, invoked, System.nanoTime(),
                    Outcome.INFO, List.of()));
            assignmentEpoch++;
        }
        return positions;
    }

    private void commit(KafkaConsumer<String, String> consumer,
                        Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> positions) {
        long invoked = System.nanoTime();
        Outcome outcome;
        try {
            consumer.commitSync(positions, Duration.ofSeconds(10));
            outcome = Outcome.OK;
        } catch (CommitFailedException | RebalanceInProgressException | UnknownMemberIdException
                 | FencedInstanceIdException e) {
            outcome = Outcome.FAIL;
        } catch (RuntimeException e) {
            outcome = Outcome.INFO;
        }
        long completed = System.nanoTime();
        for (var position : positions.entrySet()) {
            history.accept(new Commit(client, group, new TopicPartition(topic, position.getKey().partition()),
                    position.getValue().offset(), invoked, completed, outcome));
        }
    }

    private Properties config() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, client);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol.name());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20000);
        if (protocol == GroupProtocol.CLASSIC) {
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10000);
            p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1000);
        }
        return p;
    }
}
