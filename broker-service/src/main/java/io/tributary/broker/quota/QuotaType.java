package io.tributary.broker.quota;

/**
 * The client quotas Kafka enforces per user and client id, with the config key of each: bytes per
 * second produced (KIP-13), bytes per second fetched by consumers (KIP-13), percentage of one
 * request-handler or network thread's time (KIP-124), and topic partition mutations per second
 * (KIP-599).
 */
public enum QuotaType {
    PRODUCE("producer_byte_rate", "Produce"),
    FETCH("consumer_byte_rate", "Fetch"),
    REQUEST("request_percentage", "Request"),
    CONTROLLER_MUTATION("controller_mutation_rate", "ControllerMutation");

    private final String key;
    private final String metricType;

    QuotaType(String key, String metricType) {
        this.key = key;
        this.metricType = metricType;
    }

    /** The config key ({@code producer_byte_rate}, ...). */
    public String key() {
        return key;
    }

    /** Kafka's JMX type of its metrics ({@code kafka.server:type=Produce,...}). */
    public String metricType() {
        return metricType;
    }
}
