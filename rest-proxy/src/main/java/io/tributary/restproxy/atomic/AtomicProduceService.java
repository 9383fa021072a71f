package io.tributary.restproxy.atomic;

import io.tributary.restproxy.atomic.AtomicOutcome.Aborted;
import io.tributary.restproxy.atomic.AtomicOutcome.Committed;
import io.tributary.restproxy.atomic.AtomicOutcome.Unknown;
import io.tributary.restproxy.atomic.StoredOutcome.Written;
import io.tributary.restproxy.config.CallerBoundClients;
import io.tributary.restproxy.config.KafkaClientSettings;
import io.tributary.restproxy.error.IdempotencyKeyReusedException;
import io.tributary.restproxy.error.OperationTimeoutException;
import io.tributary.restproxy.metrics.RecordMetrics;
import io.tributary.restproxy.security.KafkaLogin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * Atomic produce: the records of one request are written in one Kafka transaction (KIP-98), so
 * read_committed consumers see all of them or none, across the topic's partitions; with an
 * idempotency key, a request whose key already committed is answered with the first request's
 * offsets and writes nothing.
 *
 * <p>How a request runs: it takes its slot (the key's {@link IdempotencyKey#slot}, or any slot
 * without a key) and that slot's transactional producer ({@link TransactionalProducers}); with a
 * key it {@linkplain IdempotencyKeys#lookup looks the key up} once every earlier transaction of the
 * slot is read; then it begins a transaction, sends the records, waits for them all, adds the
 * key's record (with the offsets) to the idempotency topic's partition of the slot, and commits.
 * Any record's failure aborts the transaction. A producer fenced by another replica taking the
 * slot is replaced and the request run once more; a commit whose result is unknown is answered
 * {@link Unknown}, and the producer replaced, so the next user of the slot fences it and the
 * brokers settle the transaction before that user looks the key up.
 *
 * <p>Blocking, on the request thread: requests of the same caller and slot run one after another.
 * Thread-safe.
 */
@Service
public class AtomicProduceService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AtomicProduceService.class);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(15);
    private static final int ATTEMPTS = 3;

    private final TransactionalProducers producers;
    private final Supplier<IdempotencyKeys> keySource;
    private final RecordMetrics metrics;
    private final Clock clock;
    private IdempotencyKeys keys;
    private Admin admin;

    @Autowired
    public AtomicProduceService(KafkaClientSettings settings, AtomicProduceProperties properties, JsonMapper mapper,
            RecordMetrics metrics, Clock clock) {
        this.producers = new TransactionalProducers(settings, properties,
            config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()), clock);
        this.metrics = metrics;
        this.clock = clock;
        this.keySource = () -> {
            Admin serviceAdmin = Admin.create(settings.admin(KafkaLogin.SERVICE));
            try {
                int partitions = IdempotencyTopic.ensure(serviceAdmin, properties);
                Map<String, Object> config = new HashMap<>(settings.consumer(KafkaLogin.SERVICE));
                config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
                config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                config.put(ConsumerConfig.CLIENT_ID_CONFIG, "rest-proxy-idempotency-keys");
                // Out of range (retention deleted what the tail had not read yet) goes back, never past keys.
                config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
                config.remove(ConsumerConfig.GROUP_ID_CONFIG);
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
                try {
                    IdempotencyKeys started = new IdempotencyKeys(consumer, serviceAdmin, properties.idempotencyTopic(),
                        partitions, mapper, clock, properties.idempotencyKeyRetention());
                    this.admin = serviceAdmin;
                    return started;
                } catch (RuntimeException e) {
                    consumer.close(Duration.ZERO);
                    throw e;
                }
            } catch (RuntimeException e) {
                serviceAdmin.close(Duration.ZERO);
                throw e;
            }
        };
    }

    /** For tests: producers and keys given. */
    AtomicProduceService(TransactionalProducers producers, IdempotencyKeys keys, RecordMetrics metrics, Clock clock) {
        this.producers = producers;
        this.keySource = () -> keys;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Writes {@code records} to {@code topic} in one transaction as {@code login}.
     *
     * @param idempotencyKey the request's key, or null for none (each call then writes)
     * @param fingerprint    SHA-256 of the request's topic and body, kept with the key
     * @throws IdempotencyKeyReusedException when the key committed with another fingerprint
     * @throws AuthorizationException        when the caller may not use the transactional id or the topics
     * @throws org.apache.kafka.common.errors.TimeoutException when the key cannot be looked up in time
     *                                       (nothing was written)
     */
    public AtomicOutcome produce(KafkaLogin login, String topic, List<AtomicRecord> records, IdempotencyKey key,
            String fingerprint) {
        IdempotencyKeys idempotencyKeys = keys();
        int slot = key == null ? ThreadLocalRandom.current().nextInt(idempotencyKeys.partitions())
            : key.slot(idempotencyKeys.partitions());
        String transactionalId = producers.transactionalId(login, slot);
        for (int attempt = 1; ; attempt++) {
            try {
                return producers.with(login, slot, producer -> attempt(producer, idempotencyKeys, slot,
                    transactionalId, topic, records, key, fingerprint), AtomicProduceService::fatal);
            } catch (ProducerFencedException | InvalidProducerEpochException e) {
                // Another replica took the slot before our commit was sent: nothing of ours can commit, and
                // its transaction is done once ours initializes again.
                if (attempt == ATTEMPTS) {
                    return new Aborted(transactionalId, -1, e);
                }
                log.debug("Transactional producer {} fenced; retrying with a new one", transactionalId);
            } catch (FencedAtCommitException e) {
                // Fenced while committing: the commit may have been written. With a key, the next attempt
                // learns which (its initialization waits for our transaction to end, then it looks the key up).
                if (key == null || attempt == ATTEMPTS) {
                    return new Unknown(transactionalId, e.cause);
                }
                log.debug("Transactional producer {} fenced while committing; looking the key up again",
                    transactionalId);
            } catch (ProducerBrokenException e) {
                return e.outcome;
            } catch (TransactionalIdAuthorizationException e) {
                // Nothing was written: the producer could not initialize. Name what the caller lacks.
                throw new TransactionalIdAuthorizationException("Transactional Id authorization failed: the caller "
                    + "needs WRITE on TRANSACTIONAL_ID " + transactionalId + " (or on the prefix "
                    + producers.transactionalIdPrefix(login) + ")");
            }
        }
    }

    private AtomicOutcome attempt(Producer<byte[], byte[]> producer, IdempotencyKeys idempotencyKeys, int slot,
            String transactionalId, String topic, List<AtomicRecord> records, IdempotencyKey key, String fingerprint) {
        if (key != null) {
            Optional<StoredOutcome> stored;
            try {
                stored = idempotencyKeys.lookup(slot, key, LOOKUP_TIMEOUT);
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                // Nothing was written; the producer stays usable.
                throw new OperationTimeoutException("Could not look the Idempotency-Key up in time: " + e.getMessage()
                    + "; nothing was written");
            }
            if (stored.isPresent()) {
                if (!stored.get().fingerprint().equals(fingerprint)) {
                    throw new IdempotencyKeyReusedException(key.key());
                }
                return new Committed(transactionalId, stored.get().records(), true);
            }
        }
        producer.beginTransaction();
        List<CompletableFuture<RecordMetadata>> sent = new ArrayList<>(records.size() + 1);
        StoredOutcome outcome;
        try {
            for (AtomicRecord atomic : records) {
                sent.add(send(producer, new ProducerRecord<>(topic, atomic.record().partition(), atomic.timestampMs(),
                    atomic.record().key(), atomic.record().value(), atomic.record().headers())));
            }
            producer.flush();
            List<Written> written = new ArrayList<>(records.size());
            for (int i = 0; i < sent.size(); i++) {
                CompletableFuture<RecordMetadata> result = sent.get(i);
                if (result.isCompletedExceptionally()) {
                    return abort(producer, new Aborted(transactionalId, i, unwrap(result)));
                }
                RecordMetadata metadata = result.join();
                written.add(new Written(metadata.partition(), metadata.offset(), metadata.timestamp()));
            }
            outcome = new StoredOutcome(fingerprint, clock.millis(), written);
            if (key != null) {
                // Written and acknowledged before the commit, so a failure here is known to leave nothing.
                CompletableFuture<RecordMetadata> keyRecord = send(producer, new ProducerRecord<>(
                    idempotencyKeys.topic(), slot, key.encode(), idempotencyKeys.encode(outcome)));
                producer.flush();
                if (keyRecord.isCompletedExceptionally()) {
                    return abort(producer, new Aborted(transactionalId, -1, unwrap(keyRecord)));
                }
            }
        } catch (ProducerBrokenException | ProducerFencedException | InvalidProducerEpochException
                | AuthorizationException | AuthenticationException e) {
            throw e;
        } catch (RuntimeException e) {
            Aborted aborted = new Aborted(transactionalId, -1, e);
            if (fatal(e)) {
                // No commit was sent: closing the producer leaves the transaction to be aborted.
                throw new ProducerBrokenException(aborted);
            }
            return abort(producer, aborted);
        }
        commit(producer, transactionalId);
        if (key != null) {
            idempotencyKeys.remember(key, outcome);
        }
        for (AtomicRecord atomic : records) {
            metrics.produced("v3", atomic.record().size());
        }
        return new Committed(transactionalId, outcome.records(), false);
    }

    private static CompletableFuture<RecordMetadata> send(Producer<byte[], byte[]> producer,
            ProducerRecord<byte[], byte[]> record) {
        CompletableFuture<RecordMetadata> result = new CompletableFuture<>();
        producer.send(record, (metadata, e) -> {
            if (e == null) {
                result.complete(metadata);
            } else {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /**
     * Commits. Once the commit is sent its outcome is known only when it returns: a fence becomes
     * {@link FencedAtCommitException} (the caller may learn the outcome through the key), any other
     * failure a {@link ProducerBrokenException} with {@link Unknown}, and the producer is replaced.
     */
    private static void commit(Producer<byte[], byte[]> producer, String transactionalId) {
        try {
            producer.commitTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            throw new FencedAtCommitException(e);
        } catch (RuntimeException e) {
            throw new ProducerBrokenException(new Unknown(transactionalId, e));
        }
    }

    /**
     * Aborts and answers {@code aborted}; no commit was sent, so nothing is committed whatever
     * happens here. A record refused because another replica fenced this producer, or an abort
     * failing so, is rethrown as the fence, for the request to run again with a new producer; any
     * other failure of the abort closes the producer (the brokers abort the transaction when the
     * slot is next taken, or at its timeout) and answers the same.
     */
    private static AtomicOutcome abort(Producer<byte[], byte[]> producer, Aborted aborted) {
        RuntimeException fenced = fence(aborted.cause());
        if (fenced != null) {
            throw fenced;
        }
        try {
            producer.abortTransaction();
            return aborted;
        } catch (RuntimeException e) {
            RuntimeException fencedAbort = fence(e);
            if (fencedAbort != null) {
                throw fencedAbort;
            }
            throw new ProducerBrokenException(aborted);
        }
    }

    /** The fence in {@code e}'s causes, if any. */
    private static RuntimeException fence(Throwable e) {
        RuntimeException fenced = CallerBoundClients.cause(e, ProducerFencedException.class);
        return fenced != null ? fenced : CallerBoundClients.cause(e, InvalidProducerEpochException.class);
    }

    private static RuntimeException unwrap(CompletableFuture<?> failed) {
        try {
            failed.join();
            throw new IllegalStateException("not failed");
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    /** Whether {@code e} leaves a transactional producer unusable (Kafka's fatal errors, or unknown state). */
    static boolean fatal(RuntimeException e) {
        return e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException
            || e instanceof OutOfOrderSequenceException || e instanceof AuthorizationException
            || e instanceof AuthenticationException || e instanceof UnsupportedVersionException
            || e instanceof ProducerBrokenException || e instanceof FencedAtCommitException
            || e instanceof IllegalStateException
            || e instanceof org.apache.kafka.common.errors.TimeoutException
            || e instanceof org.apache.kafka.common.errors.InterruptException;
    }

    /** A fence while committing: the commit may or may not have been written. */
    private static final class FencedAtCommitException extends RuntimeException {
        final transient RuntimeException cause;

        FencedAtCommitException(RuntimeException cause) {
            super(cause);
            this.cause = cause;
        }
    }

    /** The producer must be closed; the request's answer is {@link #outcome}. */
    private static final class ProducerBrokenException extends RuntimeException {
        final transient AtomicOutcome outcome;

        ProducerBrokenException(AtomicOutcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }

    private synchronized IdempotencyKeys keys() {
        if (keys == null) {
            keys = keySource.get();
        }
        return keys;
    }

    @Override
    public synchronized void close() {
        producers.close();
        if (keys != null) {
            keys.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
