package io.tributary.benchmarks;

import static io.tributary.benchmarks.BenchmarkSettings.prop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * How long a consumer group takes to consume again when a member joins, with the classic protocol
 * (kafka-clients' default assignors, eager range first) and with KIP-848's consumer protocol
 * (server-side assignment, incremental): Apache Kafka (one KRaft node) and Tributary (one node,
 * embedded ZooKeeper) taking turns, each with its default group settings.
 *
 * <p>Each measurement: a topic of {@code benchmark.rejoin-partitions} (20) partitions written at
 * {@code benchmark.rejoin-rate} (1,000) records per second round-robin; {@code benchmark.rejoin-members}
 * (10) members of one group consume it until the group is stable (every partition assigned and
 * consumed within the last second); then one more member joins. Reported:
 * <ul>
 *   <li><b>join</b>: from the new member's {@code subscribe} to the moment it has consumed its first
 *       record and the members' assignments again cover every partition, ms;</li>
 *   <li><b>stall</b>: the longest time any partition went without a record consumed, from the join
 *       until then, ms (a stop-the-world rebalance stalls every partition; an incremental one only
 *       those that move).</li>
 * </ul>
 * Medians over {@code benchmark.rounds} (3) rounds; the ratio is Tributary / Kafka.
 */
public final class RejoinBenchmark {

    private record Result(String broker, String protocol, long joinMs, long stallMs) {
    }

    private static final List<String> PROTOCOLS = List.of("classic", "consumer");

    private final int members = Integer.parseInt(prop("benchmark.rejoin-members", "10"));
    private final int partitions = Integer.parseInt(prop("benchmark.rejoin-partitions", "20"));
    private final int rate = Integer.parseInt(prop("benchmark.rejoin-rate", "1000"));
    private final int rounds = Integer.parseInt(prop("benchmark.rounds", "3"));
    private final String heap = prop("benchmark.broker-heap", "1g");
    private final Path jar = BenchmarkSettings.tributaryJarFromProperties();
    private final List<BrokerUnderTest> brokers = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();
    private Path workDir;

    public static void main(String[] args) {
        BenchmarkSettings.runAndExit(() -> new RejoinBenchmark().run());
    }

    private int run() throws Exception {
        if (members <= 0 || partitions < members + 1 || rate <= 0 || rounds <= 0) {
            throw new IllegalArgumentException("benchmark.rejoin-members, rejoin-rate and rounds must be positive, and"
                    + " rejoin-partitions above rejoin-members");
        }
        TributaryBroker.requireJar(jar);
        workDir = WorkDirs.create("tributary-rejoin-bench-", this::cleanUp);
        System.out.printf("Rejoin benchmark: %d members on %d partitions at %d records/s, one more member joins;"
                + " protocols %s; %d round(s)%n", members, partitions, rate, PROTOCOLS, rounds);
        BrokerPair.start(workDir, jar, heap, brokers);
        List<Result> results = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (BrokerUnderTest broker : BrokerPair.inTurn(brokers, round)) {
                    for (String protocol : PROTOCOLS) {
                        Result r = measure(broker, protocol, round);
                        System.out.printf(Locale.ROOT, "  round %d %-9s %-8s join %,6d ms, longest partition stall %,6d ms%n",
                                round, broker.name(), protocol, r.joinMs(), r.stallMs());
                        results.add(r);
                    }
                }
            }
        } finally {
            cleanUp();
        }
        report(results);
        return 0;
    }

    private Result measure(BrokerUnderTest broker, String protocol, int round) throws Exception {
        String topic = "rejoin-" + protocol + "-" + round;
        broker.createTopic(topic, partitions);
        AtomicBoolean stop = new AtomicBoolean();
        Thread producer = new Thread(() -> produce(broker.bootstrap(), topic, stop), "rejoin-producer");
        producer.start();
        // Per partition: when a record was last consumed, and the longest gap since the join (ns).
        AtomicLongArray lastConsumed = new AtomicLongArray(partitions);
        AtomicLongArray longestGap = new AtomicLongArray(partitions);
        List<Member> group = new ArrayList<>();
        try {
            for (int i = 0; i < members; i++) {
                group.add(new Member(broker.bootstrap(), topic, protocol, lastConsumed, longestGap));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
            while (!covered(group) || !allConsumedWithin(lastConsumed, Duration.ofSeconds(1))) {
                check(deadline, broker.name() + " " + protocol + ": the group of " + members + " did not become stable");
                Thread.sleep(50);
            }
            long joined = System.nanoTime();
            for (int p = 0; p < partitions; p++) {
                longestGap.set(p, 0);
            }
            Member newcomer = new Member(broker.bootstrap(), topic, protocol, lastConsumed, longestGap);
            group.add(newcomer);
            deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
            while (newcomer.firstRecordNanos == 0 || !covered(group)) {
                check(deadline, broker.name() + " " + protocol + ": the group did not consume again after a join");
                Thread.sleep(5);
            }
            long done = System.nanoTime();
            long stall = 0;
            for (int p = 0; p < partitions; p++) {
                // A partition not consumed since before the join has stalled until now.
                stall = Math.max(stall, Math.max(longestGap.get(p), done - Math.max(lastConsumed.get(p), joined)));
            }
            return new Result(broker.name(), protocol, (done - joined) / 1_000_000, stall / 1_000_000);
        } finally {
            stop.set(true);
            group.forEach(Member::close);
            producer.join();
        }
    }

    private boolean covered(List<Member> group) {
        Set<TopicPartition> assigned = new HashSet<>();
        for (Member m : group) {
            Set<TopicPartition> owned = m.assignment;
            if (owned.isEmpty()) {
                return false;
            }
            assigned.addAll(owned);
        }
        return assigned.size() == partitions;
    }

    private boolean allConsumedWithin(AtomicLongArray lastConsumed, Duration within) {
        long since = System.nanoTime() - within.toNanos();
        for (int p = 0; p < partitions; p++) {
            if (lastConsumed.get(p) < since) {
                return false;
            }
        }
        return true;
    }

    private static void check(long deadlineNanos, String failure) {
        if (System.nanoTime() > deadlineNanos) {
            throw new IllegalStateException(failure + " within 180 s");
        }
    }

    /** A group member polling on its own thread (kafka-clients consumers are not thread-safe). */
    private static final class Member {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        private volatile Set<TopicPartition> assignment = Set.of();
        private volatile long firstRecordNanos;

        Member(String bootstrap, String topic, String protocol, AtomicLongArray lastConsumed, AtomicLongArray longestGap) {
            Properties props = new Properties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
            props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            thread = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
                    consumer.subscribe(List.of(topic));
                    while (running.get()) {
                        var records = consumer.poll(Duration.ofMillis(100));
                        long now = System.nanoTime();
                        for (ConsumerRecord<byte[], byte[]> r : records) {
                            long previous = lastConsumed.getAndSet(r.partition(), now);
                            if (previous > 0) {
                                longestGap.accumulateAndGet(r.partition(), now - previous, Math::max);
                            }
                            if (firstRecordNanos == 0) {
                                firstRecordNanos = now;
                            }
                        }
                        assignment = Set.copyOf(consumer.assignment());
                    }
                }
            }, "rejoin-member");
            thread.start();
        }

        void close() {
            running.set(false);
            try {
                thread.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void produce(String bootstrap, String topic, AtomicBoolean stop) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        byte[] value = new byte[100];
        long intervalNanos = 1_000_000_000L / rate;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            long start = System.nanoTime();
            for (long i = 0; !stop.get(); i++) {
                long wait = start + i * intervalNanos - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait); // paces the load at the rate
                }
                producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, value));
            }
        }
    }

    private void report(List<Result> results) {
        System.out.printf("%nMedians over %d round(s); %d members + 1 joining, %d partitions; ratio = Tributary / Kafka"
                + " (lower is better)%n", rounds, members, partitions);
        System.out.println("| protocol | measure | Kafka | Tributary | ratio |");
        System.out.println("|---|---|---|---|---|");
        for (String protocol : PROTOCOLS) {
            row(protocol, "join to consuming again (ms)", median(results, "kafka", protocol, Result::joinMs),
                    median(results, "tributary", protocol, Result::joinMs));
            row(protocol, "longest partition stall (ms)", median(results, "kafka", protocol, Result::stallMs),
                    median(results, "tributary", protocol, Result::stallMs));
        }
    }

    private static void row(String protocol, String measure, double kafka, double tributary) {
        System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.2f |%n", protocol, measure, kafka, tributary,
                kafka > 0 ? tributary / kafka : Double.NaN);
    }

    private static double median(List<Result> results, String broker, String protocol,
                                 java.util.function.ToLongFunction<Result> f) {
        long[] values = results.stream().filter(r -> r.broker().equals(broker) && r.protocol().equals(protocol))
                .mapToLong(f).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        brokers.forEach(b -> b.stop(Duration.ofSeconds(30)));
        WorkDirs.delete(workDir);
    }

}
