package io.tributary.faults.harness;

import io.tributary.faults.history.ConsumedRecord;
import io.tributary.faults.history.FinalReads;
import io.tributary.faults.history.History;
import io.tributary.faults.history.Operation;
import io.tributary.faults.history.Outcome;
import io.tributary.faults.history.Poll;
import io.tributary.faults.history.Send;
import io.tributary.faults.history.TopicPartition;
import io.tributary.faults.history.Transaction;
import io.tributary.faults.history.TransactionalWrite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
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
 * round-robin to the topic's partitions, one transactional producer writing one to three values per transaction to
 * random partitions and committing three transactions in four (aborting the rest), one consumer assigned to every
 * partition, and two consumer groups of two {@link GroupMember}s each (one group on the classic protocol reading
 * uncommitted, one on KIP-848's consumer protocol reading committed) committing what they read; each operation
 * recorded with its outcome. {@link #finish} stops them, waits until no transaction is open (the last stable offset
 * reaches the high watermark) and reads every partition read_committed from the beginning to that offset. Sends that
 * fail are recorded as indeterminate ({@link Outcome#INFO}): a timed-out write may still have been appended; so are
 * transactions that fail on the way, which commit or abort as a whole.
 */
public final class QueueWorkload {

    private static final String PRODUCER = "producer-1";
    private static final String CONSUMER = "consumer-1";
    private static final String TRANSACTIONAL_PRODUCER = "transactional-producer-1";

    private final String bootstrap;
    private final String topic;
    private final int partitions;
    private final List<Operation> operations = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread producerThread;
    private final Thread consumerThread;
    private final Thread transactionalThread;
    private final Set<String> readCommittedClients = new HashSet<>();
    private final List<Thread> memberThreads = new ArrayList<>();
    private volatile Throwable failure;

    public QueueWorkload(String bootstrap, String topic, int partitions) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.partitions = partitions;
        this.producerThread = new Thread(this::produce, "workload-producer");
        this.consumerThread = new Thread(this::consume, "workload-consumer");
        this.transactionalThread = new Thread(this::produceTransactions, "workload-transactional-producer");
        for (GroupProtocol protocol : List.of(GroupProtocol.CLASSIC, GroupProtocol.CONSUMER)) {
            String group = "group-" + protocol.name().toLowerCase(Locale.ROOT);
            boolean readCommitted = protocol == GroupProtocol.CONSUMER;
            for (int member = 1; member <= 2; member++) {
                String client = group + "-" + member;
                if (readCommitted) {
                    readCommittedClients.add(client);
                }
                GroupMember groupMember = new GroupMember(bootstrap, topic, group, client, protocol, readCommitted,
                        operations::add, running::get);
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
        transactionalThread.start();
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

    /**
     * Transactions until stopped; one that fails on the way is recorded {@link Outcome#INFO} and its producer replaced:
     * the new one's {@code initTransactions} fences the old and ends its transaction, commit or abort, as a whole.
     */
    private void produceTransactions() {
        Random random = new Random(topic.hashCode());
        long n = 0;
        KafkaProducer<String, String> producer = null;
        try {
            while (running.get()) {
                if (producer == null) {
                    producer = transactionalProducer();
                    if (producer == null) {
                        Thread.sleep(500);
                        continue;
                    }
                }
                boolean commit = random.nextInt(4) != 0;
                int count = 1 + random.nextInt(3);
                List<TransactionalWrite> writes = new ArrayList<>();
                long invoked = System.nanoTime();
                Outcome outcome;
                try {
                    producer.beginTransaction();
                    for (int i = 0; i < count; i++) {
                        TransactionalWrite write = new TransactionalWrite(
                                new TopicPartition(topic, random.nextInt(partitions)), "t" + n++);
                        writes.add(write);
                        producer.send(new ProducerRecord<>(topic, write.partition().partition(), null, write.value()));
                    }
                    if (commit) {
                        producer.commitTransaction();
                        outcome = Outcome.OK;
                    } else {
                        producer.abortTransaction();
                        outcome = Outcome.FAIL;
                    }
                } catch (RuntimeException e) {
                    outcome = Outcome.INFO;
                    producer.close(Duration.ZERO);
                    producer = null;
                }
                operations.add(new Transaction(TRANSACTIONAL_PRODUCER, writes, invoked, System.nanoTime(), outcome));
                Thread.sleep(10);
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (producer != null) {
                producer.close(Duration.ofSeconds(10));
            }
        }
    }

    /** A transactional producer with its transactions initialized, or null if the cluster cannot do that now. */
    private KafkaProducer<String, String> transactionalProducer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-transactions");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 10000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20000);
        var producer = new KafkaProducer<String, String>(p, new StringSerializer(), new StringSerializer());
        try {
            producer.initTransactions();
            return producer;
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            return null;
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
        return consumer("read_uncommitted");
    }

    private KafkaConsumer<String, String> consumer(String isolationLevel) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
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
        transactionalThread.join(timeout.toMillis());
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
        return new History(ordered, finalReads, readCommittedClients);
    }

    /**
     * The last stable offsets (the read_committed {@code consumer}'s end offsets) once they equal the high watermarks
     * (the {@code uncommitted} consumer's): no transaction is open any more. A transaction left open by a failed
     * producer ends at the latest after the transaction timeout, 10 s.
     */
    private Map<org.apache.kafka.common.TopicPartition, Long> lastStableOffsets(KafkaConsumer<String, String> consumer,
            KafkaConsumer<String, String> uncommitted, Duration timeout) throws InterruptedException {
        var all = allPartitions();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<org.apache.kafka.common.TopicPartition, Long> stable = consumer.endOffsets(all, timeout);
            Map<org.apache.kafka.common.TopicPartition, Long> highWatermarks = uncommitted.endOffsets(all, timeout);
            if (stable.equals(highWatermarks)) {
                return stable;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("a transaction is still open after " + timeout + ": last stable offsets "
                        + stable + ", high watermarks " + highWatermarks);
            }
            Thread.sleep(200);
        }
    }

    private FinalReads finalReads(Duration timeout) throws InterruptedException {
        try (var consumer = consumer("read_committed"); var uncommitted = consumer()) {
            var all = allPartitions();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<org.apache.kafka.common.TopicPartition, Long> ends = lastStableOffsets(consumer, uncommitted, timeout);
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
