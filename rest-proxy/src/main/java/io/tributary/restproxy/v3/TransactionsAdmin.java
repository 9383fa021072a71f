package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.TopicNotFoundException;
import io.tributary.restproxy.error.TransactionNotFoundException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.springframework.stereotype.Service;

/**
 * The Admin client's transaction operations behind the v3 transactions API (KIP-664): the
 * transactions the coordinators know, the open transactions on partitions that no coordinator
 * does ("hanging", as {@code kafka-transactions find-hanging} finds them), and aborting one, as
 * {@code kafka-transactions abort} does. Knows nothing of HTTP. Thread-safe.
 */
@Service
public class TransactionsAdmin {

    /** A transaction as its coordinator describes it. */
    public record Transaction(String transactionalId, TransactionDescription description) {
    }

    /**
     * An open transaction on a partition.
     *
     * @param transactionalId the id whose coordinator has this partition in its ongoing transaction,
     *                        or null: no coordinator does, so the transaction is hanging
     * @param ageMs           ms since the producer last wrote to the partition
     */
    public record OpenTransaction(TopicPartition partition, ProducerState producer, String transactionalId,
            long ageMs) {

        public boolean hanging() {
            return transactionalId == null;
        }
    }

    private static final Set<TransactionState> OPEN = Set.of(TransactionState.ONGOING,
        TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    private final Admin admin;
    private final Clock clock;

    public TransactionsAdmin(Admin admin, Clock clock) {
        this.admin = admin;
        this.clock = clock;
    }

    /** Every transactional id the coordinators know, described, sorted by id. */
    public List<Transaction> transactions() {
        Collection<TransactionListing> listings = KafkaFutures.get(admin.listTransactions().all());
        return describe(listings.stream().map(TransactionListing::transactionalId).toList());
    }

    /**
     * One transactional id, described.
     *
     * @throws TransactionNotFoundException when no coordinator knows it
     */
    public Transaction transaction(String transactionalId) {
        List<Transaction> found = describe(List.of(transactionalId));
        if (found.isEmpty()) {
            throw new TransactionNotFoundException("No coordinator knows transactional id " + transactionalId);
        }
        return found.get(0);
    }

    private List<Transaction> describe(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Transaction> transactions = new ArrayList<>();
        var result = admin.describeTransactions(ids);
        for (String id : ids) {
            try {
                transactions.add(new Transaction(id, KafkaFutures.get(result.description(id), cause ->
                    cause instanceof TransactionalIdNotFoundException
                        ? new TransactionNotFoundException("No coordinator knows transactional id " + id) : null)));
            } catch (TransactionNotFoundException e) {
                // Expired or removed between the list and the describe.
            }
        }
        transactions.sort(Comparator.comparing(Transaction::transactionalId));
        return transactions;
    }

    /**
     * The open transactions on the partitions of {@code topics} (null: every topic the caller may
     * describe) whose producer has not written for more than {@code minAgeMs}, each with the
     * transactional id whose ongoing transaction holds it, or none when it is hanging.
     *
     * @throws TopicNotFoundException when a topic named does not exist
     */
    public List<OpenTransaction> openTransactions(Collection<String> topics, long minAgeMs) {
        Collection<String> names = topics != null ? topics : KafkaFutures.get(admin.listTopics().names());
        Map<String, TopicDescription> descriptions = KafkaFutures.get(admin.describeTopics(names).allTopicNames(),
            cause -> cause instanceof UnknownTopicOrPartitionException ? new TopicNotFoundException(
                String.join(",", names)) : null);
        List<TopicPartition> partitions = new ArrayList<>();
        descriptions.values().forEach(topic -> topic.partitions().forEach(partition ->
            partitions.add(new TopicPartition(topic.name(), partition.partition()))));
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, PartitionProducerState> states = KafkaFutures.get(admin.describeProducers(partitions).all());
        long now = clock.millis();
        List<OpenTransaction> open = new ArrayList<>();
        Set<Long> producerIds = new HashSet<>();
        states.forEach((partition, state) -> state.activeProducers().forEach(producer -> {
            if (producer.currentTransactionStartOffset().isPresent() && now - producer.lastTimestamp() > minAgeMs) {
                open.add(new OpenTransaction(partition, producer, null, now - producer.lastTimestamp()));
                producerIds.add(producer.producerId());
            }
        }));
        if (open.isEmpty()) {
            return List.of();
        }
        List<String> ids = KafkaFutures.get(admin.listTransactions(new ListTransactionsOptions()
            .filterProducerIds(producerIds)).all()).stream().map(TransactionListing::transactionalId).toList();
        return classify(open, describe(ids), reread -> KafkaFutures.get(admin.describeProducers(reread).all()));
    }

    /**
     * Names the owner of each open transaction: the transactional id whose ongoing (or preparing)
     * transaction has the same producer id and holds the partition. One without an owner is
     * read again ({@code reread}, called once for all of them): a transaction that completed between the
     * reads looks held by no coordinator, so it counts as hanging only if the partition still has it open
     * from the same offset; else it is left out.
     *
     * @return the open transactions, sorted by topic, partition and producer id
     */
    static List<OpenTransaction> classify(List<OpenTransaction> open, List<Transaction> described,
            Function<List<TopicPartition>, Map<TopicPartition, PartitionProducerState>> reread) {
        Map<Long, List<Transaction>> byProducer = new HashMap<>();
        for (Transaction transaction : described) {
            byProducer.computeIfAbsent(transaction.description().producerId(), id -> new ArrayList<>()).add(transaction);
        }
        Map<TopicPartition, PartitionProducerState> again = null;
        List<OpenTransaction> answer = new ArrayList<>();
        for (OpenTransaction candidate : open) {
            // As kafka-transactions find-hanging: held when the producer's transaction is open and has the
            // partition. Not by epoch: a coordinator preparing an abort after a timeout or a fence, or any
            // prepare under transactions v2 (KIP-890), is one epoch ahead of the partition.
            String owner = byProducer.getOrDefault(candidate.producer().producerId(), List.of()).stream()
                .filter(t -> OPEN.contains(t.description().state())
                    && t.description().topicPartitions().contains(candidate.partition()))
                .map(Transaction::transactionalId).findFirst().orElse(null);
            if (owner == null) {
                if (again == null) {
                    again = reread.apply(open.stream().map(OpenTransaction::partition).distinct().toList());
                }
                if (!stillOpen(again.get(candidate.partition()), candidate.producer())) {
                    continue;
                }
            }
            answer.add(new OpenTransaction(candidate.partition(), candidate.producer(), owner, candidate.ageMs()));
        }
        answer.sort(Comparator.comparing((OpenTransaction t) -> t.partition().topic())
            .thenComparingInt(t -> t.partition().partition()).thenComparingLong(t -> t.producer().producerId()));
        return answer;
    }

    private static boolean stillOpen(PartitionProducerState state, ProducerState producer) {
        return state != null && state.activeProducers().stream().anyMatch(p -> p.producerId() == producer.producerId()
            && p.currentTransactionStartOffset().equals(producer.currentTransactionStartOffset()));
    }

    /**
     * Aborts the transaction open on {@code partition} since {@code startOffset}, by writing an abort
     * marker there as Kafka's {@code kafka-transactions abort --start-offset} does (WriteTxnMarkers to the
     * partition's leader, which needs CLUSTER_ACTION on the cluster: an operator's power). The start
     * offset names the transaction, so a later transaction of the same producer is never the one aborted.
     *
     * @param producerId the producer expected to hold it, or null for whichever does
     * @throws TransactionNotFoundException when no transaction is open there from that offset (or not
     *                                      of that producer)
     */
    public void abort(TopicPartition partition, long startOffset, Long producerId) {
        PartitionProducerState state = KafkaFutures.get(admin.describeProducers(List.of(partition)).partitionResult(
            partition), cause -> cause instanceof UnknownTopicOrPartitionException
                ? new TopicNotFoundException(partition.topic()) : null);
        ProducerState producer = state.activeProducers().stream()
            .filter(p -> p.currentTransactionStartOffset().isPresent()
                && p.currentTransactionStartOffset().getAsLong() == startOffset
                && (producerId == null || p.producerId() == producerId))
            .findFirst().orElseThrow(() -> new TransactionNotFoundException("Partition " + partition
                + " has no open transaction starting at offset " + startOffset
                + (producerId == null ? "" : " of producer " + producerId)));
        KafkaFutures.get(admin.abortTransaction(new AbortTransactionSpec(partition, producer.producerId(),
            (short) producer.producerEpoch(), producer.coordinatorEpoch().orElse(0))).all());
    }
}
