package io.tributary.restproxy.format;

import io.tributary.restproxy.error.InvalidConsumerConfigException;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestErrorException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * How keys and values are embedded in JSON request and response bodies (Confluent API v2):
 * {@code json} carries any JSON value, stored in Kafka as its JSON text; {@code binary} carries
 * base64 strings, stored as the decoded bytes. Stateless and thread-safe.
 */
public enum EmbeddedFormat {
    BINARY("binary", MediaType.parseMediaType("application/vnd.kafka.binary.v2+json")),
    JSON("json", MediaType.parseMediaType("application/vnd.kafka.json.v2+json"));

    /** Content types a produce request may carry, most specific first. */
    public static final String BINARY_V2 = "application/vnd.kafka.binary.v2+json";
    public static final String JSON_V2 = "application/vnd.kafka.json.v2+json";
    public static final String KAFKA_V2 = "application/vnd.kafka.v2+json";

    private final String formatName;
    private final MediaType mediaType;

    EmbeddedFormat(String formatName, MediaType mediaType) {
        this.formatName = formatName;
        this.mediaType = mediaType;
    }

    /** The name used in a consumer's {@code format} field: {@code json} or {@code binary}. */
    public String formatName() {
        return formatName;
    }

    /** The embedded content type, e.g. {@code application/vnd.kafka.binary.v2+json}. */
    public MediaType mediaType() {
        return mediaType;
    }

    /**
     * The format named by a consumer's {@code format} field (case-insensitive; absent means binary, as in Confluent's).
     *
     * @throws InvalidConsumerConfigException for a name not served here (avro, protobuf and jsonschema need a
     *         schema registry)
     */
    public static EmbeddedFormat forName(String name) {
        if (name == null || name.isBlank()) {
            return BINARY;
        }
        for (EmbeddedFormat format : values()) {
            if (format.formatName.equals(name.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        throw new InvalidConsumerConfigException("format '" + name + "' is not one of json, binary");
    }

    /**
     * The format of a produce request's body from its {@code Content-Type}: the binary and json
     * embedded types, and {@code application/json} or {@code application/vnd.kafka.v2+json} as json.
     *
     * @throws RestErrorException 415 for any other type (avro, protobuf and jsonschema need a schema registry)
     */
    public static EmbeddedFormat forContentType(MediaType contentType) {
        if (contentType == null) {
            return JSON;
        }
        String subtype = contentType.getSubtype().toLowerCase(Locale.ROOT);
        if (subtype.equals("vnd.kafka.binary.v2+json")) {
            return BINARY;
        }
        if (subtype.equals("vnd.kafka.json.v2+json") || subtype.equals("vnd.kafka.v2+json")
                || subtype.equals("json")) {
            return JSON;
        }
        throw RestError.UNSUPPORTED_MEDIA_TYPE.exception("Unsupported Content-Type " + contentType
            + "; supported: " + BINARY_V2 + ", " + JSON_V2 + ", application/json");
    }

    /**
     * The bytes a key or value of a request stands for; null for JSON null or an absent field.
     *
     * @param field names the field in error messages, e.g. {@code records[3].value}
     * @throws RestErrorException 422 when a binary field is not a base64 string
     */
    public byte[] toBytes(JsonNode node, JsonMapper mapper, String field) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (this == JSON) {
            return mapper.writeValueAsBytes(node);
        }
        if (!node.isString()) {
            throw RestError.UNPROCESSABLE_ENTITY.exception(field + " must be a base64 string in the binary format");
        }
        try {
            return Base64.getDecoder().decode(node.asString());
        } catch (IllegalArgumentException e) {
            throw RestError.UNPROCESSABLE_ENTITY.exception(field + " is not valid base64: " + e.getMessage());
        }
    }

    /**
     * The JSON a stored key or value is shown as: base64 text for binary; for json the parsed
     * JSON, or, for bytes that are not JSON, a JSON string of their UTF-8 text (so one bad record
     * does not block a json consumer). Null bytes give JSON null.
     */
    public JsonNode toJson(byte[] bytes, JsonMapper mapper) {
        if (bytes == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        if (this == BINARY) {
            return JsonNodeFactory.instance.stringNode(Base64.getEncoder().encodeToString(bytes));
        }
        try {
            return mapper.readTree(bytes);
        } catch (JacksonException e) {
            return JsonNodeFactory.instance.stringNode(new String(bytes, StandardCharsets.UTF_8));
        }
    }

    /** A header value as JSON: base64 text in binary, UTF-8 text in json (as produce takes them); null stays null. */
    public JsonNode headerToJson(byte[] bytes) {
        if (bytes == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        return JsonNodeFactory.instance.stringNode(this == BINARY ? Base64.getEncoder().encodeToString(bytes)
            : new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * The format a read asks for: the {@code format} query parameter if given, else an embedded
     * type named in {@code Accept}, else {@code fallback}.
     */
    public static EmbeddedFormat forRead(String formatParameter, String accept, EmbeddedFormat fallback) {
        if (formatParameter != null && !formatParameter.isBlank()) {
            return forName(formatParameter);
        }
        if (accept != null) {
            if (accept.contains("vnd.kafka.json.v2+json")) {
                return JSON;
            }
            if (accept.contains("vnd.kafka.binary.v2+json")) {
                return BINARY;
            }
        }
        return fallback;
    }
}
