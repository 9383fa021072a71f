package io.tributary.adminui.messages;

import io.tributary.adminui.messages.MessageViews.HeaderView;
import io.tributary.adminui.messages.MessageViews.Message;
import io.tributary.adminui.messages.MessageViews.Payload;
import io.tributary.adminui.messages.MessageViews.ProxyHeader;
import io.tributary.adminui.messages.MessageViews.ProxyRecord;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns exact record bytes into a display form: JSON pretty-printed when the bytes parse as JSON,
 * text when they are valid UTF-8, else hex. Stateless and thread-safe.
 */
public final class PayloadDecoder {

    /** Display forms longer than this many characters are cut, so one huge record cannot swamp a page. */
    static final int MAX_CHARS = 64 * 1024;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    private PayloadDecoder() {
    }

    /** Bytes as base64 (the proxy's binary format), null for an absent key, value or header value. */
    public static Payload decodeBase64(String base64) {
        return decode(base64 == null ? null : Base64.getDecoder().decode(base64));
    }

    /** The display form of {@code bytes}; kind {@code null} for null. */
    public static Payload decode(byte[] bytes) {
        if (bytes == null) {
            return new Payload("null", null, 0);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            int shown = Math.min(bytes.length, MAX_CHARS / 3);
            return new Payload("binary", HEX.formatHex(bytes, 0, shown) + (shown < bytes.length ? " …" : ""),
                bytes.length);
        }
        if (looksLikeJson(text)) {
            try {
                JsonNode tree = JSON.readTree(text);
                if (tree != null && !tree.isMissingNode()) {
                    return new Payload("json", cut(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree)),
                        bytes.length);
                }
            } catch (JacksonException notJson) {
                // text
            }
        }
        return new Payload("text", cut(text), bytes.length);
    }

    /** A proxy record (binary format) for display. */
    public static Message message(ProxyRecord record) {
        List<HeaderView> headers = record.headers() == null ? List.of() : record.headers().stream()
            .map((ProxyHeader h) -> new HeaderView(h.name(), decodeBase64(h.value()))).toList();
        return new Message(record.partition(), record.offset(), record.timestamp(), decodeBase64(record.key()),
            decodeBase64(record.value()), headers);
    }

    /** Objects, arrays and quoted strings only: a bare {@code 42} or {@code true} stays text. */
    private static boolean looksLikeJson(String text) {
        String t = text.strip();
        return t.length() >= 2 && (t.startsWith("{") && t.endsWith("}") || t.startsWith("[") && t.endsWith("]")
            || t.startsWith("\"") && t.endsWith("\""));
    }

    private static String cut(String text) {
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS) + "…";
    }
}
