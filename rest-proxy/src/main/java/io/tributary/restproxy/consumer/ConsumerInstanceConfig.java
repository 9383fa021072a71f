package io.tributary.restproxy.consumer;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.format.EmbeddedFormat;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The settings of a consumer instance, from the body of {@code POST /consumers/{group}} (Confluent
 * API v2; values may be JSON strings or numbers, as Confluent's clients send strings).
 *
 * @param name              instance name, unique in the group on this proxy; null to generate one
 * @param format            embedded format of keys and values in {@code GET .../records}
 * @param autoOffsetReset   {@code earliest}, {@code latest} (Kafka's default) or {@code none}
 * @param autoCommitEnable  whether consumed positions are committed every {@code autoCommitIntervalMs}
 *                          and when partitions are revoked or the instance closes (default true, as Kafka's)
 * @param autoCommitIntervalMs how often auto-commit runs, ms
 * @param fetchMinBytes     bytes a {@code GET .../records} waits for before answering (0: any record)
 * @param requestTimeoutMs  how long a {@code GET .../records} without {@code timeout} waits, ms; null for
 *                          the proxy's default
 * @param isolationLevel    {@code read_committed} (only committed transactions' records, up to the last
 *                          stable offset) or {@code read_uncommitted}; null for the proxy's {@code kafka.*}
 *                          consumer settings, else Kafka's default, read_uncommitted (as Confluent's proxy)
 */
public record ConsumerInstanceConfig(
        String name,
        EmbeddedFormat format,
        String autoOffsetReset,
        boolean autoCommitEnable,
        long autoCommitIntervalMs,
        long fetchMinBytes,
        Long requestTimeoutMs,
        String isolationLevel) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Set<String> OFFSET_RESETS = Set.of("earliest", "latest", "none");

    /**
     * Reads and validates a create request body (null or empty for all defaults).
     *
     * @throws InvalidConsumerConfigException for a value that is not valid
     */
    public static ConsumerInstanceConfig parse(JsonNode body) {
        String name = text(body, "name");
        if (name != null && (!NAME.matcher(name).matches() || name.equals(".") || name.equals(".."))) {
            throw invalid("name '" + name + "' may only use letters, digits, '.', '_' and '-' (up to 200)");
        }
        EmbeddedFormat format = EmbeddedFormat.forName(text(body, "format"));
        String reset = text(body, "auto.offset.reset");
        if (reset == null) {
            reset = "latest";
        }
        reset = reset.toLowerCase(Locale.ROOT);
        if (reset.equals("smallest")) {
            reset = "earliest";
        } else if (reset.equals("largest")) {
            reset = "latest";
        }
        if (!OFFSET_RESETS.contains(reset)) {
            throw invalid("auto.offset.reset '" + reset + "' is not one of earliest, latest, none");
        }
        String autoCommit = text(body, "auto.commit.enable");
        boolean autoCommitEnable = true;
        if (autoCommit != null) {
            if (!autoCommit.equalsIgnoreCase("true") && !autoCommit.equalsIgnoreCase("false")) {
                throw invalid("auto.commit.enable '" + autoCommit + "' is not true or false");
            }
            autoCommitEnable = Boolean.parseBoolean(autoCommit);
        }
        long interval = number(body, "auto.commit.interval.ms", 5000L, 1);
        long minBytes = number(body, "fetch.min.bytes", 0L, -1);
        Long requestTimeout = number(body, "consumer.request.timeout.ms", null, 0);
        String isolation = io.tributary.restproxy.config.KafkaConsumerFactory.isolationLevel(text(body, "isolation.level"));
        return new ConsumerInstanceConfig(name, format, reset, autoCommitEnable, interval, Math.max(0, minBytes),
            requestTimeout, isolation);
    }

    private static String text(JsonNode body, String field) {
        if (body == null || !body.has(field) || body.get(field).isNull()) {
            return null;
        }
        JsonNode node = body.get(field);
        if (!node.isValueNode()) {
            throw invalid(field + " must be a string or a number");
        }
        return node.asString();
    }

    private static Long number(JsonNode body, String field, Long fallback, long min) {
        String text = text(body, field);
        if (text == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.trim());
            if (value < min) {
                throw invalid(field + " " + value + " is below " + min);
            }
            return value;
        } catch (NumberFormatException e) {
            throw invalid(field + " '" + text + "' is not a number");
        }
    }

    private static InvalidConsumerConfigException invalid(String detail) {
        return new InvalidConsumerConfigException(detail);
    }
}
