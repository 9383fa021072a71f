package io.tributary.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One configuration to measure: a producer run, or a consumer run over records produced first.
 *
 * @param name          short name used in topic names and on the command line
 * @param producerProps producer settings given to ProducerPerformance ({@code linger.ms} in ms); for a
 *                      consumer scenario, those of the unmeasured run that fills the topic
 * @param consume       whether ConsumerPerformance is measured (after filling the topic) rather than the producer
 * @param topicConfigs  configs of the scenario's topic (e.g. {@code segment.bytes}), on both brokers
 * @param transactionDurationMs for a transactional producer ({@code --transaction-duration-ms}: one
 *                      transaction per this many ms, committed), else 0
 * @param consumerProps consumer settings given to ConsumerPerformance ({@code isolation.level})
 * @param share         whether the consumer run is Kafka's ShareConsumerPerformance (a share group, KIP-932)
 *                      rather than ConsumerPerformance
 */
record Scenario(String name, Map<String, String> producerProps, boolean consume, Map<String, String> topicConfigs,
                long transactionDurationMs, Map<String, String> consumerProps, boolean share) {

    /** Share consumers of a {@code shareconsume} run ({@code --threads}). */
    static final int SHARE_CONSUMERS = 3;

    /**
     * The scenarios by name: {@code acks1}, {@code acksall}, {@code lz4} (acks=all, lz4, linger 5 ms),
     * {@code consume} (a consumer group member reading what acks=1 wrote), and {@code roll} (acks=1 to a
     * topic with {@code segment.bytes=1048576}, the smallest Kafka allows: a segment roll every 1 MiB per
     * partition, so the produce latency includes the rolls), {@code txn} (a transactional producer
     * committing every 100 ms, as {@code --transactional-id} and {@code --transaction-duration-ms 100}),
     * {@code consumecommitted} (a read_committed group member reading what {@code txn} wrote), and
     * {@code consume848} ({@code consume} with {@code group.protocol=consumer}: the member joins through
     * KIP-848's ConsumerGroupHeartbeat and the broker assigns the partitions), and {@code shareconsume}
     * (Kafka's ShareConsumerPerformance: {@value #SHARE_CONSUMERS} share consumers of one share group,
     * KIP-932, reading what acks=1 wrote, each record acquired, delivered and accepted).
     */
    static Scenario named(String name) {
        Map<String, String> props = new LinkedHashMap<>();
        boolean consume = false;
        Map<String, String> topicConfigs = Map.of();
        long transactionDurationMs = 0;
        Map<String, String> consumerProps = Map.of();
        boolean share = false;
        switch (name) {
            case "acks1" -> props.put("acks", "1");
            case "acksall" -> props.put("acks", "all");
            case "lz4" -> {
                props.put("acks", "all");
                props.put("compression.type", "lz4");
                props.put("linger.ms", "5");
            }
            case "consume" -> {
                props.put("acks", "1");
                consume = true;
            }
            case "roll" -> {
                props.put("acks", "1");
                topicConfigs = Map.of("segment.bytes", "1048576");
            }
            case "txn" -> transactionDurationMs = 100;
            case "consumecommitted" -> {
                transactionDurationMs = 100;
                consume = true;
                consumerProps = Map.of("isolation.level", "read_committed");
            }
            case "consume848" -> {
                props.put("acks", "1");
                consume = true;
                consumerProps = Map.of("group.protocol", "consumer");
            }
            case "shareconsume" -> {
                props.put("acks", "1");
                consume = true;
                share = true;
            }
            default -> throw new IllegalArgumentException("unknown scenario '" + name
                    + "', expected acks1, acksall, lz4, consume, roll, txn, consumecommitted, consume848 or shareconsume");
        }
        return new Scenario(name, Map.copyOf(props), consume, topicConfigs, transactionDurationMs, consumerProps, share);
    }

    /** The settings as {@code key=value} words, in a stable order. */
    String describe() {
        String producer = String.join(" ", producerProps.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).toList());
        String topic = topicConfigs.isEmpty() ? "" : ", topic " + String.join(" ", topicConfigs.entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).toList());
        String txn = transactionDurationMs > 0 ? (producer.isEmpty() ? "" : " ") + "transactional, one commit per "
                + transactionDurationMs + " ms" : "";
        String consumer = consumerProps.isEmpty() ? "" : " " + String.join(" ", consumerProps.entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).toList());
        String reader = share ? "ShareConsumerPerformance, " + SHARE_CONSUMERS + " share consumers"
                : "ConsumerPerformance, one group member";
        return (consume ? reader + consumer + ", topic filled with " + producer + txn
                : producer + txn) + topic;
    }
}
