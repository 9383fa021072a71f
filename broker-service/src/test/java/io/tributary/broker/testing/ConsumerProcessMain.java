package io.tributary.broker.testing;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer application in its own JVM for {@link ConsumerProcess}: joins a group, prints
 * every record value on its own line of stdout, after {@link #VALUE_PREFIX} (log lines may share
 * stdout), and commits after each poll, until killed.
 *
 * <p>Arguments: bootstrap servers, group id, topic, session timeout ms, and optionally the group
 * protocol ({@code classic}, the default, or {@code consumer}), or {@code share-hold}: a member of
 * share group (KIP-932) that prints the records of its first non-empty poll and then never polls
 * again, so it holds them acquired (unacknowledged) until it is killed.
 */
public final class ConsumerProcessMain {

    /** Marks a line of stdout as a record value. */
    static final String VALUE_PREFIX = "value|";
    /** Printed by a {@code share-hold} member once it holds records. */
    static final String HELD_MARK = "held";

    private ConsumerProcessMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 4 && "share-hold".equals(args[4])) {
            holdShareRecords(args[0], args[1], args[2]);
            return;
        }
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, args[1]);
        if (args.length > 4 && "consumer".equals(args[4])) {
            p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"); // KIP-848: the broker sets the session timeout
        } else {
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, args[3]);
            p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
        }
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "20000");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "100");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(args[2]));
            while (true) {
                var records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<String, String> r : records) {
                    out.println(VALUE_PREFIX + r.value());
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
            }
        }
    }

    private static void holdShareRecords(String bootstrap, String group, String topic) throws InterruptedException {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put("share.acknowledgement.mode", "explicit");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(p);
        consumer.subscribe(List.of(topic));
        while (true) {
            var records = consumer.poll(Duration.ofMillis(100));
            if (!records.isEmpty()) {
                for (ConsumerRecord<String, String> r : records) {
                    out.println(VALUE_PREFIX + r.value());
                }
                out.println(HELD_MARK);
                Thread.currentThread().join(); // holds the acquired records (heartbeats go on) until killed
            }
        }
    }
}
