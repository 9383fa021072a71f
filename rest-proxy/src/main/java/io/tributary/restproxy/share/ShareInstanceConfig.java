package io.tributary.restproxy.share;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.format.EmbeddedFormat;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The settings of a share consumer instance, from the body of
 * {@code POST /share-groups/{group}/instances} (values may be JSON strings or numbers, as in the v2
 * consumer API).
 *
 * @param name             instance name, unique in the share group across the proxy replicas; null to
 *                         generate one ({@code rest-share-<replica id>-<uuid>})
 * @param format           embedded format of keys, values and header values in {@code GET .../records}
 * @param maxPollRecords   most records one {@code GET .../records} returns; null for Kafka's default (500)
 * @param requestTimeoutMs how long a {@code GET .../records} without {@code timeout} waits, ms; null for the
 *                         proxy's {@code rest-proxy.consumer-request-timeout}
 */
public record ShareInstanceConfig(String name, EmbeddedFormat format, Integer maxPollRecords, Long requestTimeoutMs) {

    /** The one acknowledgement mode served: every record is acknowledged over HTTP (KIP-932 explicit mode). */
    public static final String EXPLICIT = "explicit";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    /**
     * Reads and validates a create request body (null or empty for all defaults). Besides the
     * fields above, {@code share.acknowledgement.mode} may be given and must be {@code explicit}.
     *
     * @throws InvalidConsumerConfigException for a value that is not valid
     */
    public static ShareInstanceConfig parse(JsonNode body) {
        String name = text(body, "name");
        if (name != null && (!NAME.matcher(name).matches() || name.equals(".") || name.equals(".."))) {
            throw new InvalidConsumerConfigException("name '" + name
                + "' may only use letters, digits, '.', '_' and '-' (up to 200)");
        }
        EmbeddedFormat format = EmbeddedFormat.forName(text(body, "format"));
        String mode = text(body, "share.acknowledgement.mode");
        if (mode != null && !mode.trim().toLowerCase(Locale.ROOT).equals(EXPLICIT)) {
            throw new InvalidConsumerConfigException("share.acknowledgement.mode '" + mode + "' is not served: "
                + "share consumer instances acknowledge explicitly (explicit)");
        }
        Long maxPollRecords = number(body, "max.poll.records", 1, Integer.MAX_VALUE);
        Long requestTimeoutMs = number(body, "consumer.request.timeout.ms", 0, Long.MAX_VALUE);
        return new ShareInstanceConfig(name, format, maxPollRecords == null ? null : maxPollRecords.intValue(),
            requestTimeoutMs);
    }

    private static String text(JsonNode body, String field) {
        if (body == null || !body.has(field) || body.get(field).isNull()) {
            return null;
        }
        JsonNode node = body.get(field);
        if (!node.isValueNode()) {
            throw new InvalidConsumerConfigException(field + " must be a string or a number");
        }
        return node.asString();
    }

    private static Long number(JsonNode body, String field, long min, long max) {
        String text = text(body, field);
        if (text == null) {
            return null;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidConsumerConfigException(field + " '" + text + "' is not a number");
        }
        if (value < min || value > max) {
            throw new InvalidConsumerConfigException(field + " " + value + " is not between " + min + " and " + max);
        }
        return value;
    }
}
