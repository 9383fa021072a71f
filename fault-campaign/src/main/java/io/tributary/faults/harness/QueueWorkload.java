package io.tributary.faults.harness;

import io.tributary.faults.history.ConsumedRecord;
import io.tributary.faults.history.FinalReads;
import io.tributary.faults.history.History;
import io.tributary.faults.history.Operation;
import io.tributary.faults.history.Outcome;
import io.tributary.faults.history.Poll;
import io.tributary.faults.history.Send;
import io.tributary.faults.history.TopicPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Jepsen's queue workload against a real cluster: one idempotent {@code acks=all} producer sending unique values
 * round-robin to the topic's partitions, one consumer assigned to every partition, and two consumer groups of two
 * {@link GroupMember}s each (one group on the classic protocol, one on KIP-848's consumer protocol) committing what they
 * read; each operation recorded with its outcome; {@link #finish()} stops them and reads every partition from the beginning to its end offset. Sends that
 * fail are recorded as indeterminate ({@link Outcome#INFO}): a timed-out write may still have been appended.
 */
public final class QueueWorkload {

    private static final String PRODUCER = "producer-1";
    private static final String CONSUMER = "consumer-1";

    private final String bootstrap;
    private final String topic;
    private final int partitions;
    private final List<Operation> operations = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread producerThread;
    private final Thread consumerThread;
    private final List<Thread> memberThreads = new ArrayList<>();
    private volatile Throwable failure;

    public QueueWorkload(String bootstrap, String topic, int partitions) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.producerThread = new Thread(this::produce, "workload-producer");
        this.consumerThread = new Thread(this::consume, "workload-consumer");
        for (GroupProtocol protocol : List.of(GroupProtocol.CLASSIC, GroupProtocol.CONSUMER)) {
            String group = "group-" + protocol.name().toLowerCase(Locale.ROOT);
            for (int member = 1; member <= 2; member++) {
                String client = group + "-" + member;
                GroupMember groupMember = new GroupMember(bootstrap, topic, group, client, protocol, operations::add,
                        running::get);
                memberThreads.add(new Thread(() -> runMember(groupMember), "workload-" + client));
            }
        }
    }

    private void runMember(GroupMember member) {
        try {
            member.run();
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** Starts the producer and consumer threads. */
    public void start() {
        producerThread.start();
        consumerThread.start();
        memberThreads.forEach(Thread::start);
    }

    private void produce() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20000);
        try (var producer = new KafkaProducer<String, String>(p, new StringSerializer(), new StringSerializer())) {
            long n = 0;
            while (running.get()) {
                int partition = (int) (n % partitions);
                String value = "v" + n++;
                TopicPartition tp = new TopicPartition(topic, partition);
                long invoked = System.nanoTime();
                try {
                    producer.send(new ProducerRecord<>(topic, partition, null, value), (metadata, error) -> {
                        long completed = System.nanoTime();
                        operations.add(error == null
                                ? Send.ok(PRODUCER, tp, value, metadata.offset(), invoked, completed)
                                : Send.unacknowledged(PRODUCER, tp, value, Outcome.INFO, invoked, completed));
                    });
                } catch (RuntimeException e) {
                    operations.add(Send.unacknowledged(PRODUCER, tp, value, Outcome.INFO, invoked, System.nanoTime()));
                }
                Thread.sleep(2);
            }
            producer.flush();
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void consume() {
        try (var consumer = consumer()) {
            consumer.assign(allPartitions());
            consumer.seekToBeginning(allPartitions());
            while (running.get()) {
                long invoked = System.nanoTime();
                try {
                    var records = consumer.poll(Duration.ofMillis(200));
                    List<ConsumedRecord> read = new ArrayList<>();
                    for (ConsumerRecord<String, String> r : records) {
                        read.add(new ConsumedRecord(new TopicPartition(r.topic(), r.partition()), r.offset(), r.value()));
                    }
                    operations.add(Poll.ok(CONSUMER, null, 0, invoked, System.nanoTime(), read));
                } catch (RuntimeException e) {
                    operations.add(new Poll(CONSUMER, Optional.empty(), 0, invoked, System.nanoTime(), Outcome.INFO,
                            List.of()));
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private KafkaConsumer<String, String> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20000);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    private List<org.apache.kafka.common.TopicPartition> allPartitions() {
        List<org.apache.kafka.common.TopicPartition> all = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            all.add(new org.apache.kafka.common.TopicPartition(topic, i));
        }
        return all;
    }

    /** Stops the clients, waits for every send to complete, reads every partition in full; the run's history. */
    public History finish(Duration timeout) throws InterruptedException {
        running.set(false);
        producerThread.join(timeout.toMillis());
        consumerThread.join(timeout.toMillis());
        for (Thread member : memberThreads) {
            member.join(timeout.toMillis());
        }
        if (failure != null) {
            throw new IllegalStateException("workload client failed", failure);
        }
        FinalReads finalReads = finalReads(timeout);
        List<Operation> ordered = new ArrayList<>(operations);
        ordered.sort(Comparator.comparingLong(Operation::invokedNanos));
        return new History(ordered, finalReads);
    }

    private FinalReads finalReads(Duration timeout) {
        try (var consumer = consumer()) {
            var all = allPartitions();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<org.apache.kafka.common.TopicPartition, Long> ends = consumer.endOffsets(all, timeout);
            List<ConsumedRecord> records = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (all.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("final reads did not reach end offsets " + ends + " within "
                            + timeout);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() < ends.get(new org.apache.kafka.common.TopicPartition(r.topic(), r.partition()))) {
                        records.add(new ConsumedRecord(new TopicPartition(r.topic(), r.partition()), r.offset(),
                                r.value()));
                    }
                }
            }
            Map<TopicPartition, Long> endOffsets = new HashMap<>();
            ends.forEach((tp, end) -> endOffsets.put(new TopicPartition(tp.topic(), tp.partition()), end));
            return new FinalReads(endOffsets, records);
        }
    }
}
