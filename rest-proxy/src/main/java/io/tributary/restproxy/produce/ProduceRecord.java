package io.tributary.restproxy.produce;

import tools.jackson.databind.JsonNode;

/**
 * One record of a v2 produce request: {@code {"key":..,"value":..,"partition":..,"headers":..}}.
 * Key and value are embedded in the request's format; {@code headers} is a list of
 * {@code {"name": .., "value": ..}} or an object of name to value, values embedded like the key
 * (base64 in binary, a string in json).
 */
public record ProduceRecord(JsonNode key, JsonNode value, Integer partition, JsonNode headers) {
}
