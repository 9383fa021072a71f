package io.tributary.faults.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Draws bad requests for the REST proxy from a {@link Random}: the same seed gives the same requests. Produce
 * requests go to {@code topic} (which exists) in Confluent's v2 API ({@code POST /topics/{topic}} with the JSON or
 * binary embedded format). Stateless apart from its settings; thread-safe with one {@code Random} per thread.
 */
public final class RestAttacks {

    static final String JSON_V2 = "application/vnd.kafka.json.v2+json";
    static final String BINARY_V2 = "application/vnd.kafka.binary.v2+json";
    private static final List<String> UNKNOWN_TYPES = List.of("application/vnd.kafka.avro.v2+json",
            "application/vnd.kafka.protobuf.v2+json", "application/vnd.kafka.json.v9+json",
            "application/vnd.kafka.nonsense.v2+json", "text/plain", "application/xml", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "garbage", "application/octet-stream", "image/png");

    private final String topic;
    private final long hugeBodyBytes;

    /**
     * @param topic         an existing topic to produce to
     * @param hugeBodyBytes size of the HUGE_BODY requests' bodies: above the proxy's limit
     */
    public RestAttacks(String topic, long hugeBodyBytes) {
        this.topic = topic;
        this.hugeBodyBytes = hugeBodyBytes;
    }

    /** A valid JSON-format produce body of one to three records. */
    static String validJsonBody(Random random) {
        StringBuilder s = new StringBuilder("{\"records\":[");
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            s.append(i == 0 ? "" : ",").append("{\"key\":\"k").append(random.nextInt(1000))
                    .append("\",\"value\":{\"n\":").append(random.nextInt()).append(",\"s\":\"text\"}}");
        }
        return s.append("]}").toString();
    }

    /** The next bad request, of a random kind. */
    public RestRequest next(Random random) {
        RestAttack[] all = RestAttack.values();
        return next(all[random.nextInt(all.length)], random);
    }

    /** The next bad request of {@code attack}. */
    public RestRequest next(RestAttack attack, Random random) {
        String produce = "/topics/" + topic;
        return switch (attack) {
            case MALFORMED_JSON -> {
                String valid = validJsonBody(random);
                byte[] body = switch (random.nextInt(5)) {
                    case 0 -> valid.substring(0, 1 + random.nextInt(valid.length() - 2)).getBytes(StandardCharsets.UTF_8);
                    case 1 -> (valid + "}}]").getBytes(StandardCharsets.UTF_8);
                    case 2 -> ("{\"records\":[{\"value\":" + "[".repeat(1 + random.nextInt(5000)))
                            .getBytes(StandardCharsets.UTF_8);
                    case 3 -> new byte[] {(byte) 0xff, (byte) 0xfe, '{', (byte) 0xc3, '}'};
                    default -> "{\"records\":[{\"value\":NaN, 'single':quotes}]}".getBytes(StandardCharsets.UTF_8);
                };
                yield new RestRequest(attack, "POST", produce, random.nextBoolean() ? JSON_V2 : BINARY_V2, body, false);
            }
            case MUTATED_JSON -> {
                byte[] body = validJsonBody(random).getBytes(StandardCharsets.UTF_8);
                int changes = 1 + random.nextInt(4);
                for (int i = 0; i < changes; i++) {
                    int at = random.nextInt(body.length);
                    switch (random.nextInt(3)) {
                        case 0 -> body[at] = (byte) random.nextInt(256);
                        case 1 -> {
                            byte[] shorter = new byte[body.length - 1];
                            System.arraycopy(body, 0, shorter, 0, at);
                            System.arraycopy(body, at + 1, shorter, at, body.length - at - 1);
                            body = shorter.length == 0 ? body : shorter;
                        }
                        default -> {
                            byte[] longer = Arrays.copyOf(body, body.length + 1);
                            System.arraycopy(body, at, longer, at + 1, body.length - at);
                            String inserted = "{}[]\",:0\\";
                            longer[at] = (byte) inserted.charAt(random.nextInt(inserted.length()));
                            body = longer;
                        }
                    }
                }
                yield new RestRequest(attack, "POST", produce, JSON_V2, body, false);
            }
            case HUGE_BODY -> {
                // Valid JSON that is just too long: one record whose value is a long string.
                int size = (int) Math.min(Integer.MAX_VALUE - 64, hugeBodyBytes + random.nextInt(1 << 16));
                byte[] body = new byte[size];
                byte[] head = "{\"records\":[{\"value\":\"".getBytes(StandardCharsets.US_ASCII);
                byte[] tail = "\"}]}".getBytes(StandardCharsets.US_ASCII);
                Arrays.fill(body, (byte) 'x');
                System.arraycopy(head, 0, body, 0, head.length);
                System.arraycopy(tail, 0, body, size - tail.length, tail.length);
                yield new RestRequest(attack, "POST", produce, JSON_V2, body, random.nextBoolean());
            }
            case BAD_BASE64 -> {
                // Not "abc": unpadded base64 is valid for Java's decoder (and for many clients' encoders).
                String bad = List.of("!!!", "a", "a===", "ä€", "AAAA====", "%%%%", "QUJD\\u0000", " ", "QUJD*")
                        .get(random.nextInt(9));
                String field = random.nextBoolean() ? "value" : "key";
                String body = "{\"records\":[{\"" + field + "\":\"" + bad + "\"}]}";
                yield new RestRequest(attack, "POST", produce, BINARY_V2, body.getBytes(StandardCharsets.UTF_8), false);
            }
            case UNKNOWN_FORMAT -> new RestRequest(attack, "POST", produce,
                    UNKNOWN_TYPES.get(random.nextInt(UNKNOWN_TYPES.size())),
                    validJsonBody(random).getBytes(StandardCharsets.UTF_8), false);
            case WRONG_FIELD_TYPES -> {
                List<String> bodies = List.of("{\"records\":\"not a list\"}", "{\"records\":[{\"value\":1,\"partition\":\"abc\"}]}",
                        "{\"records\":[{\"value\":1,\"partition\":{}}]}", "{\"records\":[{\"value\":1,\"partition\":-7}]}",
                        "{\"records\":[null]}", "{\"records\":{}}", "[]", "\"records\"", "{}", "{\"records\":[17]}",
                        "{\"records\":[{\"value\":1,\"headers\":\"h\"}]}");
                String body = bodies.get(random.nextInt(bodies.size()));
                boolean binary = random.nextBoolean();
                if (binary && random.nextBoolean()) {
                    body = "{\"records\":[{\"value\":{\"an\":\"object\"}}]}";
                }
                yield new RestRequest(attack, "POST", produce, binary ? BINARY_V2 : JSON_V2,
                        body.getBytes(StandardCharsets.UTF_8), false);
            }
            case UNKNOWN_TOPIC -> {
                String path = random.nextBoolean() ? "/topics/no-such-topic-" + random.nextInt(1_000_000)
                        : produce + "/partitions/" + (1000 + random.nextInt(1000));
                yield new RestRequest(attack, "POST", path, JSON_V2,
                        validJsonBody(random).getBytes(StandardCharsets.UTF_8), false);
            }
            case BAD_CONSUMER_REQUEST -> {
                String group = "no-group-" + random.nextInt(1000);
                yield switch (random.nextInt(4)) {
                    case 0 -> new RestRequest(attack, "GET", "/consumers/" + group + "/instances/nobody/records",
                            null, new byte[0], false);
                    case 1 -> new RestRequest(attack, "POST", "/consumers/" + group + "/instances/nobody/offsets",
                            "application/vnd.kafka.v2+json", "{\"offsets\":[]}".getBytes(StandardCharsets.UTF_8), false);
                    case 2 -> new RestRequest(attack, "POST", "/consumers/" + group, "application/vnd.kafka.v2+json",
                            "{\"name\":".getBytes(StandardCharsets.UTF_8), false);
                    default -> new RestRequest(attack, "POST", "/consumers/" + group, "application/vnd.kafka.v2+json",
                            ("{\"name\":\"x\",\"format\":\"" + List.of("xml", "yaml", "protobuf2", "JSONN").get(random.nextInt(4))
                                    + "\"}").getBytes(StandardCharsets.UTF_8), false);
                };
            }
        };
    }
}
