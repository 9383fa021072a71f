package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.HeaderView;
import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.Payload;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Messages page's rows as a file: JSON lines (one object a record: topic, partition, offset,
 * timestamp in ms, key, value, headers as {@code [{"name", "value"}]}; a JSON key or value as JSON,
 * anything else as its display text, hex for bytes that are not UTF-8) or CSV (RFC 4180: a header
 * row, CRLF line ends, fields quoted when they hold a comma, a quote, CR or LF, quotes doubled; a JSON
 * key or value compact, headers as the same JSON array). Stateless and thread-safe.
 */
public final class MessageExport {

    /** The CSV header row's columns, in order. */
    static final List<String> COLUMNS = List.of("topic", "partition", "offset", "timestamp", "key", "value", "headers");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private MessageExport() {
    }

    /** One JSON object a line, each line ended by LF. */
    public static String jsonLines(String topic, List<Message> messages) {
        StringBuilder out = new StringBuilder();
        for (Message m : messages) {
            ObjectNode line = NODES.objectNode().put("topic", topic).put("partition", m.partition())
                .put("offset", m.offset()).put("timestamp", m.timestamp());
            line.set("key", node(m.key()));
            line.set("value", node(m.value()));
            line.set("headers", headers(m.headers()));
            out.append(JSON.writeValueAsString(line)).append('\n');
        }
        return out.toString();
    }

    /** A header row and one row a record. */
    public static String csv(String topic, List<Message> messages) {
        StringBuilder out = new StringBuilder();
        row(out, COLUMNS);
        for (Message m : messages) {
            row(out, List.of(topic, Integer.toString(m.partition()), Long.toString(m.offset()),
                Long.toString(m.timestamp()), cell(m.key()), cell(m.value()),
                JSON.writeValueAsString(headers(m.headers()))));
        }
        return out.toString();
    }

    /** {@code field} quoted when CSV needs it. */
    static String quote(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    private static void row(StringBuilder out, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(quote(fields.get(i)));
        }
        out.append("\r\n");
    }

    private static ArrayNode headers(List<HeaderView> headers) {
        ArrayNode list = NODES.arrayNode();
        for (HeaderView h : headers == null ? List.<HeaderView>of() : headers) {
            list.addObject().put("name", h.name()).set("value", node(h.value()));
        }
        return list;
    }

    /** A payload as JSON: parsed when it is JSON, else its display text; null when absent. */
    private static JsonNode node(Payload p) {
        if (p == null || p.text() == null || "null".equals(p.kind())) {
            return NODES.nullNode();
        }
        if ("json".equals(p.kind())) {
            try {
                return JSON.readTree(p.text());
            } catch (JacksonException cut) {
                // a display form cut short is no longer JSON: its text
            }
        }
        return NODES.stringNode(p.text());
    }

    /** A payload as a CSV field: JSON compact, text as it is, empty when absent. */
    private static String cell(Payload p) {
        JsonNode node = node(p);
        if (node.isNull()) {
            return "";
        }
        return node.isString() ? node.asString() : JSON.writeValueAsString(node);
    }
}
