package io.tributary.restproxy.atomic;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of atomic produce ({@code rest-proxy.atomic-produce.*}): the records of one
 * {@code POST .../records:atomic} are written in one Kafka transaction, and a request retried with
 * the same {@code Idempotency-Key} is answered from the first one's outcome.
 *
 * @param idempotencyTopic           the topic that records each committed request's key and answer, in the
 *                                   request's own transaction; created on first use
 * @param idempotencyTopicPartitions partitions of that topic when this proxy creates it; a key's partition is
 *                                   also its transactional id's slot, so this bounds the atomic requests
 *                                   in flight per caller, across all proxy replicas. Never add partitions
 *                                   to the topic afterwards: replicas would then put the same key in
 *                                   different slots, and could write it twice
 * @param idempotencyKeyRetention    how long a key is remembered ({@code retention.ms} of the topic); a retry
 *                                   after that is written again
 * @param transactionalIdPrefix      prefix of the transactional ids, followed by the caller's user name (with
 *                                   authentication on) and the slot: {@code tributary-rest-alice-3}; ACLs on
 *                                   TRANSACTIONAL_ID resources name it
 * @param transactionTimeout         the producers' {@code transaction.timeout.ms}: a transaction left open by
 *                                   a proxy that died is aborted by the brokers after this
 * @param producerIdleTimeout        a transactional producer unused for this long is closed
 */
@ConfigurationProperties("rest-proxy.atomic-produce")
public record AtomicProduceProperties(
        @DefaultValue("_tributary_rest_idempotency") String idempotencyTopic,
        @DefaultValue("8") int idempotencyTopicPartitions,
        @DefaultValue("24h") Duration idempotencyKeyRetention,
        @DefaultValue("tributary-rest-") String transactionalIdPrefix,
        @DefaultValue("60s") Duration transactionTimeout,
        @DefaultValue("10m") Duration producerIdleTimeout) {

    public AtomicProduceProperties {
        if (idempotencyTopicPartitions < 1) {
            throw new IllegalArgumentException("rest-proxy.atomic-produce.idempotency-topic-partitions must be "
                + "at least 1");
        }
    }

    /** The defaults, for tests. */
    public static AtomicProduceProperties defaults() {
        return new AtomicProduceProperties("_tributary_rest_idempotency", 8, Duration.ofHours(24), "tributary-rest-",
            Duration.ofSeconds(60), Duration.ofMinutes(10));
    }
}
