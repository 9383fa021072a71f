package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.produce.OutgoingRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The record bodies of v3 produce (Confluent REST Proxy API v3): a record is
 * {@code {"partition_id", "headers": [{"name", "value": base64}], "key": {"type", "data"},
 * "value": {"type", "data"}, "timestamp"}} with types {@code BINARY} (base64 data),
 * {@code JSON} (any JSON, stored as its text) and {@code STRING} (stored as UTF-8); the answer is
 * {@code {"error_code": 200, "cluster_id", "topic_name", "partition_id", "offset", "timestamp",
 * "key": {"type", "size"}, "value": {"type", "size"}}} or {@code {"error_code", "message"}}.
 * Stateless and thread-safe.
 */
final class V3RecordCodec {

    /** A decoded record with what the answer reports about it. */
    record Decoded(OutgoingRecord record, Long timestampMs, String keyType, String valueType) {
    }

    private final JsonMapper mapper;

    V3RecordCodec(JsonMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Decodes one record for {@code topic}, which has {@code partitions} partitions.
     *
     * @throws io.tributary.restproxy.error.RestException 400 for a malformed record, 40402 when it
     *                                                    names a partition the topic lacks
     */
    Decoded decode(JsonNode node, String topic, int partitions) {
        Decoded decoded = decode(node);
        Integer partition = decoded.record().partition();
        if (partition != null && (partition < 0 || partition >= partitions)) {
            throw RestError.PARTITION_NOT_FOUND.exception("Partition " + partition + " of topic " + topic
                + " not found.");
        }
        return decoded;
    }

    /**
     * Decodes one record.
     *
     * @throws io.tributary.restproxy.error.RestException 400 for a malformed record
     */
    Decoded decode(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw RestError.BAD_REQUEST.exception("A record must be a JSON object");
        }
        Integer partition = null;
        JsonNode partitionNode = node.get("partition_id");
        if (partitionNode != null && !partitionNode.isNull()) {
            if (!partitionNode.isIntegralNumber()) {
                throw RestError.BAD_REQUEST.exception("partition_id must be an integer");
            }
            partition = partitionNode.asInt();
        }
        String keyType = type(node.get("key"), "key");
        String valueType = type(node.get("value"), "value");
        byte[] key = data(node.get("key"), keyType, "key");
        byte[] value = data(node.get("value"), valueType, "value");
        return new Decoded(new OutgoingRecord(partition, key, value, headers(node.get("headers"))),
            timestamp(node.get("timestamp")), keyType, valueType);
    }

    /** The answer for a record that was written. */
    ObjectNode success(String clusterId, String topic, Decoded decoded, RecordMetadata metadata) {
        ObjectNode answer = mapper.createObjectNode();
        answer.put("error_code", 200);
        answer.put("cluster_id", clusterId);
        answer.put("topic_name", topic);
        answer.put("partition_id", metadata.partition());
        answer.put("offset", metadata.offset());
        answer.put("timestamp", Instant.ofEpochMilli(metadata.timestamp()).toString());
        putData(answer, "key", decoded.keyType(), decoded.record().key());
        putData(answer, "value", decoded.valueType(), decoded.record().value());
        return answer;
    }

    /** An error answer. */
    ObjectNode failure(int errorCode, String message) {
        ObjectNode answer = mapper.createObjectNode();
        answer.put("error_code", errorCode);
        answer.put("message", message);
        return answer;
    }

    private static void putData(ObjectNode answer, String field, String type, byte[] bytes) {
        if (type == null) {
            answer.putNull(field);
        } else {
            ObjectNode data = answer.putObject(field);
            data.put("type", type);
            data.put("size", bytes == null ? 0 : bytes.length);
        }
    }

    private static String type(JsonNode data, String field) {
        if (data == null || data.isNull()) {
            return null;
        }
        if (!data.isObject()) {
            throw RestError.BAD_REQUEST.exception(field + " must be an object {\"type\", \"data\"}");
        }
        JsonNode type = data.get("type");
        String name = type == null || type.isNull() ? (data.has("schema_id") || data.has("schema")
            ? "SCHEMA" : "BINARY") : type.asString().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "BINARY", "JSON", "STRING" -> name;
            default -> throw RestError.BAD_REQUEST.exception(field + ".type " + name + " is not served here: use "
                + "BINARY, JSON or STRING (schema registry formats are not supported)");
        };
    }

    private byte[] data(JsonNode data, String type, String field) {
        if (type == null) {
            return null;
        }
        JsonNode value = data.get("data");
        if (value == null || value.isNull()) {
            return null;
        }
        return switch (type) {
            case "JSON" -> mapper.writeValueAsBytes(value);
            case "STRING" -> {
                if (!value.isString()) {
                    throw RestError.BAD_REQUEST.exception(field + ".data must be a string for type STRING");
                }
                yield value.asString().getBytes(StandardCharsets.UTF_8);
            }
            default -> base64(value, field + ".data");
        };
    }

    private static List<Header> headers(JsonNode headers) {
        if (headers == null || headers.isNull()) {
            return List.of();
        }
        if (!headers.isArray()) {
            throw RestError.BAD_REQUEST.exception("headers must be an array of {\"name\", \"value\"}");
        }
        List<Header> result = new ArrayList<>();
        for (JsonNode header : headers) {
            JsonNode name = header.get("name");
            if (name == null || !name.isString()) {
                throw RestError.BAD_REQUEST.exception("every header needs a string \"name\"");
            }
            JsonNode value = header.get("value");
            result.add(new RecordHeader(name.asString(), value == null || value.isNull() ? null
                : base64(value, "header " + name.asString())));
        }
        return result;
    }

    private static byte[] base64(JsonNode value, String field) {
        if (!value.isString()) {
            throw RestError.BAD_REQUEST.exception(field + " must be a base64 string");
        }
        try {
            return Base64.getDecoder().decode(value.asString());
        } catch (IllegalArgumentException e) {
            throw RestError.BAD_REQUEST.exception(field + " is not valid base64");
        }
    }

    private static Long timestamp(JsonNode timestamp) {
        if (timestamp == null || timestamp.isNull()) {
            return null;
        }
        long ms;
        if (timestamp.isIntegralNumber()) {
            ms = timestamp.asLong();
        } else {
            try {
                ms = Instant.parse(timestamp.asString()).toEpochMilli();
            } catch (DateTimeParseException e) {
                throw RestError.BAD_REQUEST.exception("timestamp must be ISO-8601 (2026-01-31T12:00:00Z) or ms");
            }
        }
        if (ms < 0) {
            throw RestError.BAD_REQUEST.exception("timestamp must not be before 1970-01-01T00:00:00Z");
        }
        return ms;
    }
}
