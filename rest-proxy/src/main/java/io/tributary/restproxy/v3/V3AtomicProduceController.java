package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.atomic.AtomicOutcome;
import io.tributary.restproxy.atomic.AtomicOutcome.Aborted;
import io.tributary.restproxy.atomic.AtomicOutcome.Committed;
import io.tributary.restproxy.atomic.AtomicOutcome.Unknown;
import io.tributary.restproxy.atomic.AtomicProduceService;
import io.tributary.restproxy.atomic.AtomicRecord;
import io.tributary.restproxy.atomic.IdempotencyKey;
import io.tributary.restproxy.atomic.StoredOutcome.Written;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaOperationException;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestException;
import io.tributary.restproxy.error.RestExceptionHandler;
import io.tributary.restproxy.produce.ProduceService;
import io.tributary.restproxy.security.Callers;
import io.tributary.restproxy.security.KafkaLogin;
import io.tributary.restproxy.v3.V3RecordCodec.Decoded;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Atomic v3 produce, which no other REST proxy offers: the records of one request, across the
 * partitions of a topic, are written in one Kafka transaction ({@link AtomicProduceService}), so
 * read_committed consumers see all of them or none; with an {@code Idempotency-Key} header, a
 * retried request is answered from the first one's outcome and written once.
 */
@RestController
@Tag(name = "Produce (v3)", description = "Confluent REST Proxy API v3 produce, single, streamed and batched")
public class V3AtomicProduceController {

    /** The header of a request's idempotency key (IETF draft "The Idempotency-Key HTTP Header Field"). */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** Set to {@code true} on an answer replayed from an earlier request with the same key. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private final ClusterAdmin admin;
    private final ProduceService produceService;
    private final AtomicProduceService atomic;
    private final Callers callers;
    private final JsonMapper mapper;
    private final V3RecordCodec codec;

    public V3AtomicProduceController(ClusterAdmin admin, ProduceService produceService, AtomicProduceService atomic,
            Callers callers, JsonMapper mapper) {
        this.admin = admin;
        this.produceService = produceService;
        this.atomic = atomic;
        this.callers = callers;
        this.mapper = mapper;
        this.codec = new V3RecordCodec(mapper);
    }

    @PostMapping(path = "/v3/clusters/{clusterId}/topics/{topic}/records:atomic",
        consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Produce records atomically, in one transaction",
        description = "Body {\"entries\": [{\"id\": \"1\", ...record}]} (up to 1000 records, unique ids, any "
            + "partitions of the topic), written in one Kafka transaction: read_committed consumers see all or "
            + "none of them. 200 {\"outcome\": \"COMMITTED\", \"transactional_id\", \"successes\": [{id, "
            + "...answer}]}; when a record fails the transaction is aborted and the answer is that record's "
            + "error with {\"outcome\": \"ABORTED\", \"failures\": [{id, error_code, message}]}; 503 "
            + "{\"outcome\": \"UNKNOWN\"} when the commit's result is not known. With an Idempotency-Key header "
            + "(1 to 255 visible ASCII characters, kept 24 h), a request whose key already committed writes "
            + "nothing and gets the first answer again, with the header Idempotent-Replayed: true; the same "
            + "key with another body is refused with 422. Errors: 404, 40401, 40402, 400.")
    public ResponseEntity<JsonNode> produceAtomic(@PathVariable String clusterId, @PathVariable String topic,
            @Parameter(description = "Makes retries safe: a key that already committed is answered, not written")
            @RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyKey,
            @RequestBody JsonNode body) {
        admin.checkCluster(clusterId);
        int partitions = produceService.checkTopic(topic, null);
        JsonNode entries = V3BatchEntries.entries(body);
        List<String> ids = V3BatchEntries.ids(entries);
        List<Decoded> decoded = new ArrayList<>();
        List<AtomicRecord> records = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Decoded record = decode(entries.get(i), ids.get(i), topic, partitions);
            decoded.add(record);
            records.add(new AtomicRecord(record.record(), record.timestampMs()));
        }
        KafkaLogin login = callers.current();
        IdempotencyKey key = null;
        if (idempotencyKey != null) {
            if (!IdempotencyKey.valid(idempotencyKey)) {
                throw RestError.BAD_REQUEST.exception(IDEMPOTENCY_KEY + " must be 1 to " + IdempotencyKey.MAX_LENGTH
                    + " visible ASCII characters");
            }
            key = new IdempotencyKey(login.principal(), idempotencyKey);
        }
        AtomicOutcome outcome;
        try {
            outcome = atomic.produce(login, topic, records, key, fingerprint(topic, entries));
        } catch (KafkaException e) {
            // Before anything was written (authorization, the producer's login): answered by the cause.
            throw new KafkaOperationException(e);
        }
        ObjectNode answer = mapper.createObjectNode();
        answer.put("transactional_id", outcome.transactionalId());
        ArrayNode successes = answer.putArray("successes");
        ArrayNode failures = answer.putArray("failures");
        if (outcome instanceof Committed committed) {
            answer.put("outcome", "COMMITTED");
            for (int i = 0; i < committed.records().size(); i++) {
                Written written = committed.records().get(i);
                RecordMetadata metadata = new RecordMetadata(new TopicPartition(topic, written.partition()),
                    written.offset(), 0, written.timestampMs(), -1, -1);
                successes.add(mapper.createObjectNode().put("id", ids.get(i))
                    .setAll(codec.success(clusterId, topic, decoded.get(i), metadata)));
            }
            ResponseEntity.BodyBuilder ok = ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON);
            if (committed.replayed()) {
                ok.header(REPLAYED, "true");
            }
            return ok.body(answer);
        }
        if (outcome instanceof Aborted aborted) {
            answer.put("outcome", "ABORTED");
            RestError error = RestExceptionHandler.errorFor(aborted.cause());
            String message = "Transaction aborted, nothing was committed: "
                + (aborted.failedIndex() >= 0 ? "record " + ids.get(aborted.failedIndex()) + " failed: " : "")
                + KafkaErrors.describe(aborted.cause());
            if (aborted.failedIndex() >= 0) {
                failures.add(mapper.createObjectNode().put("id", ids.get(aborted.failedIndex()))
                    .setAll(codec.failure(error.code(), KafkaErrors.describe(aborted.cause()))));
            }
            return error(aborted.failedIndex() >= 0 ? error : RestError.KAFKA_RETRIABLE_ERROR, message, answer);
        }
        Unknown unknown = (Unknown) outcome;
        answer.put("outcome", "UNKNOWN");
        return error(RestError.KAFKA_RETRIABLE_ERROR, "The commit's result is not known ("
            + KafkaErrors.describe(unknown.cause()) + "): retry with the same " + IDEMPOTENCY_KEY
            + " to learn it without writing twice", answer);
    }

    private Decoded decode(JsonNode entry, String id, String topic, int partitions) {
        try {
            return codec.decode(entry, topic, partitions);
        } catch (RestException e) {
            RestError error = RestExceptionHandler.errorFor(e);
            throw error.exception("Entry " + id + ": " + e.getMessage() + " (nothing was written)");
        }
    }

    private static ResponseEntity<JsonNode> error(RestError error, String message, ObjectNode answer) {
        answer.put("error_code", error.code());
        answer.put("message", message);
        return ResponseEntity.status(error.status()).contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    /** SHA-256 of the topic and the entries as sent, in hex. */
    private String fingerprint(String topic, JsonNode entries) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(topic.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(mapper.writeValueAsBytes(entries));
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
