package io.tributary.broker.cluster;

import java.nio.charset.StandardCharsets;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The JSON codec of ZooKeeper node data (Jackson 3). Thread-safe. */
final class ZkJson {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private ZkJson() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static byte[] bytes(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }

    /**
     * Parses node data.
     *
     * @throws IllegalArgumentException when the data is not JSON
     */
    static JsonNode parse(byte[] data, String path) {
        try {
            return MAPPER.readTree(data);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("Malformed JSON at " + path + ": "
                + new String(data, StandardCharsets.UTF_8), e);
        }
    }
}
