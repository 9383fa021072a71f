package io.tributary.adminui.messages;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.Filter;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.spi.json.JsonSmartJsonProvider;
import com.jayway.jsonpath.spi.mapper.JsonSmartMappingProvider;
import io.tributary.adminui.messages.MessageViews.ProxyHeader;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which records the Messages page shows when filtered: a JSONPath filter condition (Jayway JsonPath's
 * syntax, the part inside {@code [?( )]}) and/or text the key or the value must contain (ignoring case).
 * The condition is evaluated on a JSON document made of the record:
 * <pre>
 * {"partition": 0, "offset": 42, "timestamp": 1700000000000,
 *  "key": "order-42",                        // parsed when it is a JSON object or array, else text
 *  "value": {"id": 42, "qty": 2},            // the same; hex text for bytes that are not UTF-8
 *  "headers": {"source": "admin-ui"}}        // UTF-8 text; the last header of a name wins
 * </pre>
 * for example {@code @.value.qty > 1 && @.headers.source == 'admin-ui'} or {@code @.key =~ /order-.*}{@code /}.
 * A path the record lacks equals nothing ({@code ==}, {@code <}, {@code in} are false for it,
 * {@code !=} and {@code nin} true); a condition that cannot be evaluated on a record (the library
 * throws) does not match it. Immutable and thread-safe.
 */
public final class MessageFilter {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Configuration CONFIG = Configuration.builder().jsonProvider(new JsonSmartJsonProvider())
        .mappingProvider(new JsonSmartMappingProvider()).build();
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    /** A condition the parser refused; the message is the parser's. */
    public static final class InvalidExpressionException extends IllegalArgumentException {
        InvalidExpressionException(String message) {
            super(message);
        }
    }

    private final String expression;
    private final JsonPath condition;
    private final String keyContains;
    private final String valueContains;

    private MessageFilter(String expression, JsonPath condition, String keyContains, String valueContains) {
        this.expression = expression;
        this.condition = condition;
        this.keyContains = keyContains;
        this.valueContains = valueContains;
    }

    /**
     * A filter of the given parts; blank or null parts do not filter.
     *
     * @throws InvalidExpressionException when {@code expression} does not parse as a filter condition
     */
    public static MessageFilter of(String expression, String keyContains, String valueContains) {
        String condition = blankToNull(expression);
        JsonPath path = null;
        if (condition != null) {
            try {
                // Filter.parse takes exactly one "[?(...)]": a condition that closes it early is refused.
                path = JsonPath.compile("$[?]", Filter.parse("[?(" + condition + ")]"));
            } catch (InvalidPathException e) {
                throw new InvalidExpressionException(e.getMessage());
            }
        }
        return new MessageFilter(condition, path, lower(keyContains), lower(valueContains));
    }

    /** Whether this filter lets every record through. */
    public boolean isEmpty() {
        return condition == null && keyContains == null && valueContains == null;
    }

    /** The condition as given (stripped), null when there is none. */
    public String expression() {
        return expression;
    }

    /** Whether {@code record} (binary format, as the proxy gives it) passes every part of this filter. */
    public boolean test(ProxyRecord record) {
        String key = text(record.key());
        String value = text(record.value());
        if (keyContains != null && (key == null || !key.toLowerCase(Locale.ROOT).contains(keyContains))) {
            return false;
        }
        if (valueContains != null && (value == null || !value.toLowerCase(Locale.ROOT).contains(valueContains))) {
            return false;
        }
        if (condition == null) {
            return true;
        }
        try {
            List<?> passed = condition.read(List.of(document(record, key, value)), CONFIG);
            return !passed.isEmpty();
        } catch (RuntimeException cannotEvaluate) {
            // The user's condition cannot be evaluated on this record (e.g. "empty" asked of an object, which
            // the library answers with a ClassCastException): not a match, and the scan goes on.
            return false;
        }
    }

    /** The document the condition sees for {@code record} (see the class comment). */
    static Map<String, Object> document(ProxyRecord record) {
        return document(record, text(record.key()), text(record.value()));
    }

    private static Map<String, Object> document(ProxyRecord record, String key, String value) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("partition", record.partition());
        doc.put("offset", record.offset());
        doc.put("timestamp", record.timestamp());
        doc.put("key", structured(key));
        doc.put("value", structured(value));
        Map<String, Object> headers = new LinkedHashMap<>();
        for (ProxyHeader h : record.headers() == null ? List.<ProxyHeader>of() : record.headers()) {
            headers.put(h.name(), text(h.value()));
        }
        doc.put("headers", headers);
        return doc;
    }

    /** A JSON object or array as maps and lists; anything else as the text it is. */
    private static Object structured(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.startsWith("{") && t.endsWith("}") || t.startsWith("[") && t.endsWith("]")) {
            try {
                return JSON.readValue(t, Object.class);
            } catch (JacksonException notJson) {
                return text;
            }
        }
        return text;
    }

    /** Base64 bytes as UTF-8 text, or hex when they are not UTF-8; null stays null. */
    private static String text(String base64) {
        if (base64 == null) {
            return null;
        }
        byte[] bytes = Base64.getDecoder().decode(base64);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return HEX.formatHex(bytes);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String lower(String s) {
        String t = blankToNull(s);
        return t == null ? null : t.toLowerCase(Locale.ROOT);
    }
}
