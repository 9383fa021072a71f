package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.RestError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The {@code {"entries": [{"id": ..., ...record}]}} body of batched and atomic v3 produce:
 * 1 to {@value #MAX_ENTRIES} records, each with an id unique in the request. Checked whole before
 * anything is sent, so a 400 means nothing was written.
 */
final class V3BatchEntries {

    static final int MAX_ENTRIES = 1000;

    private V3BatchEntries() {
    }

    /**
     * The entries array of {@code body}.
     *
     * @throws io.tributary.restproxy.error.RestErrorException 400 when it is missing, empty or too long
     */
    static JsonNode entries(JsonNode body) {
        JsonNode entries = body == null ? null : body.get("entries");
        if (entries == null || !entries.isArray() || entries.isEmpty() || entries.size() > MAX_ENTRIES) {
            throw RestError.BAD_REQUEST.exception("entries must be an array of 1 to " + MAX_ENTRIES + " records");
        }
        return entries;
    }

    /**
     * The entries' ids, in order.
     *
     * @throws io.tributary.restproxy.error.RestErrorException 400 when an entry is not an object with a unique id
     */
    static List<String> ids(JsonNode entries) {
        List<String> ids = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode entry : entries) {
            JsonNode id = entry.isObject() ? entry.get("id") : null;
            if (id == null || !id.isValueNode() || id.isNull() || !seen.add(id.asString())) {
                throw RestError.BAD_REQUEST.exception("every entry must be an object with a unique \"id\"");
            }
            ids.add(id.asString());
        }
        return ids;
    }
}
