package io.tributary.adminui.transactions;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.transactions.TransactionsProxyClient.ProxyOpenTransaction;
import io.tributary.adminui.transactions.TransactionsProxyClient.ProxyTransaction;
import java.util.Comparator;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/transactions}: the Transactions page's data, the transactions the coordinators know
 * (ongoing ones first, then the most recent) and the open transactions on partitions with the
 * hanging ones (no coordinator holds them: they hold the partition's last stable offset back)
 * flagged; and aborting one on a partition, as {@code kafka-transactions abort} does.
 */
@RestController
@RequestMapping("/api/transactions")
public class TransactionsController {

    /** A transaction: {@code partitions} as {@code topic-partition}; {@code ageMs} null when none is open. */
    public record TransactionRow(String id, long producerId, int producerEpoch, String state, int coordinator,
            long timeoutMs, Long ageMs, List<String> partitions) {
    }

    /** An open transaction on a partition; {@code transactionalId} null when hanging. */
    public record OpenRow(String topic, int partition, long producerId, int producerEpoch, long startOffset,
            long ageMs, String transactionalId, boolean hanging) {
    }

    /** The page: transactions, open transactions on partitions, and how many of those hang. */
    public record TransactionsOverview(List<TransactionRow> transactions, List<OpenRow> open, int hanging) {
    }

    /** Body of an abort. */
    public record AbortRequest(String topic, Integer partition, Long startOffset, Long producerId) {
    }

    private static final List<String> ONGOING = List.of("Ongoing", "PrepareCommit", "PrepareAbort",
        "PrepareEpochFence");

    private final RestProxyClient cluster;
    private final TransactionsProxyClient proxy;

    public TransactionsController(RestProxyClient cluster, TransactionsProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** Transactions and open transactions; the proxy's errors passed on (403 without DESCRIBE). */
    @GetMapping
    public TransactionsOverview overview() {
        String clusterId = cluster.cluster().clusterId();
        List<TransactionRow> transactions = proxy.transactions(clusterId).stream()
            .sorted(Comparator.comparing((ProxyTransaction t) -> !ONGOING.contains(t.state()))
                .thenComparing(t -> t.ageMs() == null ? Long.MAX_VALUE : t.ageMs())
                .thenComparing(ProxyTransaction::transactionalId))
            .map(t -> new TransactionRow(t.transactionalId(), t.producerId(), t.producerEpoch(), t.state(),
                t.coordinatorId(), t.timeoutMs(), t.ageMs(), t.partitions() == null ? List.of()
                    : t.partitions().stream().map(p -> p.topic() + "-" + p.partition()).toList()))
            .toList();
        List<OpenRow> open = proxy.openTransactions(clusterId).stream()
            .sorted(Comparator.comparing((ProxyOpenTransaction t) -> !t.hanging())
                .thenComparing(ProxyOpenTransaction::topic).thenComparingInt(ProxyOpenTransaction::partition))
            .map(t -> new OpenRow(t.topic(), t.partition(), t.producerId(), t.producerEpoch(), t.startOffset(),
                t.ageMs(), t.transactionalId(), t.hanging()))
            .toList();
        return new TransactionsOverview(transactions, open, (int) open.stream().filter(OpenRow::hanging).count());
    }

    /**
     * Aborts a producer's transaction open on a partition since an offset: 204; 400 for a body without
     * topic, partition, start offset and producer id; the proxy's 404 when that transaction is no longer
     * open, 403 without CLUSTER_ACTION.
     */
    @PostMapping("/abort")
    public ResponseEntity<Void> abort(@RequestBody AbortRequest request) {
        if (request.topic() == null || request.topic().isBlank() || request.partition() == null
                || request.partition() < 0 || request.startOffset() == null || request.producerId() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "topic, partition, startOffset and producerId are needed");
        }
        proxy.abort(cluster.cluster().clusterId(), request.topic().strip(), request.partition(), request.startOffset(),
            request.producerId());
        return ResponseEntity.noContent().build();
    }
}
