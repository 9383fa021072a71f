package io.tributary.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One producer configuration to measure.
 *
 * @param name          short name used in topic names and on the command line
 * @param producerProps producer settings given to ProducerPerformance ({@code linger.ms} in ms)
 */
record Scenario(String name, Map<String, String> producerProps) {

    /** The scenarios by name: {@code acks1}, {@code acksall}, {@code lz4} (acks=all, lz4, linger 5 ms). */
    static Scenario named(String name) {
        Map<String, String> props = new LinkedHashMap<>();
        switch (name) {
            case "acks1" -> props.put("acks", "1");
            case "acksall" -> props.put("acks", "all");
            case "lz4" -> {
                props.put("acks", "all");
                props.put("compression.type", "lz4");
                props.put("linger.ms", "5");
            }
            default -> throw new IllegalArgumentException(
                    "unknown scenario '" + name + "', expected acks1, acksall or lz4");
        }
        return new Scenario(name, Map.copyOf(props));
    }

    /** The producer settings as {@code key=value} words, in a stable order. */
    String describe() {
        return String.join(" ", producerProps.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).toList());
    }
}
