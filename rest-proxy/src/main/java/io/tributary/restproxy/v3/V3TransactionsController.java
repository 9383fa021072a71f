package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.TransactionsAdmin.OpenTransaction;
import io.tributary.restproxy.v3.TransactionsAdmin.Transaction;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.TopicPartition;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * v3 transactions (beyond Confluent's API; what {@code kafka-transactions} does, over HTTP):
 * the transactions the coordinators know ({@code list}, {@code describe}), the open transactions
 * on partitions with the hanging ones flagged ({@code find-hanging}), and aborting one on a
 * partition ({@code abort}).
 */
@RestController
@Tag(name = "Transactions (v3)", description = "Transactions, open and hanging transactions on partitions, abort")
public class V3TransactionsController {

    /** A partition of a transaction. */
    public record PartitionRef(@JsonProperty("topic_name") String topicName, @JsonProperty("partition_id") int partitionId) {
    }

    /** A transaction as its coordinator has it. */
    public record TransactionView(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("transactional_id") String transactionalId, @JsonProperty("producer_id") long producerId,
            @JsonProperty("producer_epoch") int producerEpoch, String state,
            @JsonProperty("coordinator_id") int coordinatorId,
            @JsonProperty("transaction_timeout_ms") long transactionTimeoutMs,
            @JsonProperty("transaction_start_time") String transactionStartTime, @JsonProperty("age_ms") Long ageMs,
            List<PartitionRef> partitions) {
    }

    /** An open transaction on a partition; {@code hanging} when no coordinator holds it. */
    public record OpenTransactionView(@JsonProperty("topic_name") String topicName,
            @JsonProperty("partition_id") int partitionId, @JsonProperty("producer_id") long producerId,
            @JsonProperty("producer_epoch") int producerEpoch, @JsonProperty("coordinator_epoch") Integer coordinatorEpoch,
            @JsonProperty("start_offset") long startOffset, @JsonProperty("last_timestamp") String lastTimestamp,
            @JsonProperty("age_ms") long ageMs, @JsonProperty("transactional_id") String transactionalId,
            boolean hanging) {
    }

    private final ClusterAdmin admin;
    private final TransactionsAdmin transactions;
    private final Clock clock;

    public V3TransactionsController(ClusterAdmin admin, TransactionsAdmin transactions, Clock clock) {
        this.admin = admin;
        this.transactions = transactions;
        this.clock = clock;
    }

    @GetMapping(path = "/v3/clusters/{clusterId}/transactions", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "List transactions",
        description = "Every transactional id the coordinators know (ListTransactions, DescribeTransactions: KIP-664), "
            + "with state (Ongoing, PrepareCommit, CompleteCommit, ...), producer id and epoch, partitions and age; "
            + "newest first. Needs DESCRIBE on each transactional id.")
    public ResourceList<TransactionView> transactions(@PathVariable String clusterId) {
        admin.checkCluster(clusterId);
        List<TransactionView> views = transactions.transactions().stream().map(t -> view(clusterId, t))
            .sorted(Comparator.comparing((TransactionView v) -> v.ageMs() == null ? Long.MAX_VALUE : v.ageMs())
                .thenComparing(TransactionView::transactionalId))
            .toList();
        return new ResourceList<>("KafkaTransactionList", V3Links.self(clusterId, "/transactions"), views);
    }

    @GetMapping(path = "/v3/clusters/{clusterId}/transactions/{transactionalId}",
        produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Describe a transaction", description = "Errors: 404 no coordinator knows the id.")
    public TransactionView transaction(@PathVariable String clusterId, @PathVariable String transactionalId) {
        admin.checkCluster(clusterId);
        return view(clusterId, transactions.transaction(transactionalId));
    }

    @GetMapping(path = "/v3/clusters/{clusterId}/open-transactions", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Open transactions on partitions, hanging ones flagged",
        description = "The open transactions on the partitions of the topics named (topic=, repeatable; default every "
            + "topic) whose producer wrote nothing for min_age_ms (default 0), from DescribeProducers; each names the "
            + "transactional id whose ongoing transaction holds it, or is \"hanging\": true when no coordinator does "
            + "(what kafka-transactions find-hanging reports with --max-transaction-timeout). A hanging transaction "
            + "holds the partition's last stable offset back until it is aborted.")
    public ResourceList<OpenTransactionView> openTransactions(@PathVariable String clusterId,
            @RequestParam(name = "topic", required = false) List<String> topics,
            @RequestParam(name = "min_age_ms", defaultValue = "0") long minAgeMs) {
        admin.checkCluster(clusterId);
        List<OpenTransactionView> views = transactions.openTransactions(topics, minAgeMs).stream()
            .map(V3TransactionsController::view).toList();
        return new ResourceList<>("KafkaOpenTransactionList", V3Links.self(clusterId, "/open-transactions"), views);
    }

    @PostMapping(path = "/v3/clusters/{clusterId}/topics/{topic}/partitions/{partition}/transactions:abort",
        consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Abort an open transaction on a partition",
        description = "Body {\"start_offset\": N, \"producer_id\": M (optional)}: writes an abort marker for the "
            + "transaction open on the partition since that offset (as kafka-transactions abort --start-offset), so "
            + "its records are skipped by read_committed consumers and the last stable offset moves on. Needs "
            + "CLUSTER_ACTION. 204; 404 when no transaction is open there from that offset.")
    public ResponseEntity<Void> abort(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable int partition, @RequestBody JsonNode body) {
        admin.checkCluster(clusterId);
        JsonNode startOffset = body == null ? null : body.get("start_offset");
        JsonNode producerId = body == null ? null : body.get("producer_id");
        if (startOffset == null || !startOffset.isIntegralNumber()
                || (producerId != null && !producerId.isNull() && !producerId.isIntegralNumber())) {
            throw RestError.BAD_REQUEST.exception("start_offset must be an integer, and producer_id, if given, too");
        }
        transactions.abort(new TopicPartition(topic, partition), startOffset.asLong(),
            producerId == null || producerId.isNull() ? null : producerId.asLong());
        return ResponseEntity.noContent().build();
    }

    private TransactionView view(String clusterId, Transaction transaction) {
        TransactionDescription d = transaction.description();
        Long startMs = d.transactionStartTimeMs().isPresent() ? d.transactionStartTimeMs().getAsLong() : null;
        List<PartitionRef> partitions = d.topicPartitions().stream()
            .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
            .map(tp -> new PartitionRef(tp.topic(), tp.partition())).toList();
        return new TransactionView("KafkaTransaction",
            V3Links.self(clusterId, "/transactions/" + transaction.transactionalId()), clusterId,
            transaction.transactionalId(), d.producerId(), d.producerEpoch(), d.state().toString(), d.coordinatorId(),
            d.transactionTimeoutMs(), startMs == null ? null : Instant.ofEpochMilli(startMs).toString(),
            startMs == null ? null : Math.max(0, clock.millis() - startMs), partitions);
    }

    private static OpenTransactionView view(OpenTransaction open) {
        return new OpenTransactionView(open.partition().topic(), open.partition().partition(),
            open.producer().producerId(), open.producer().producerEpoch(),
            open.producer().coordinatorEpoch().isPresent() ? open.producer().coordinatorEpoch().getAsInt() : null,
            open.producer().currentTransactionStartOffset().getAsLong(),
            Instant.ofEpochMilli(open.producer().lastTimestamp()).toString(), open.ageMs(), open.transactionalId(),
            open.hanging());
    }
}
