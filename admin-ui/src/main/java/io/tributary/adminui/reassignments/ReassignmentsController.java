package io.tributary.adminui.reassignments;

import io.tributary.adminui.proxy.ProxyResources.Broker;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.reassignments.ReassignmentsProxyClient.ProxyReassignment;
import io.tributary.adminui.reassignments.ReassignmentsProxyClient.Target;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/reassignments}: the Reassignments page's data (the ongoing reassignments with their
 * progress, and the brokers to move to), starting a move of partitions (optionally throttled) and
 * cancelling one. Rights are the brokers' to check: the proxy's 403 is passed on.
 */
@RestController
@RequestMapping("/api/reassignments")
public class ReassignmentsController {

    /** How far a replica being added is: bytes on disk against the leader's (null when not known), in sync or not. */
    public record ProgressRow(int brokerId, Long sizeBytes, Long leaderSizeBytes, boolean inSync) {
    }

    /** An ongoing reassignment: replicas being added and removed, the target, the ISR, the leader. */
    public record ReassignmentRow(String topic, int partition, List<Integer> adding, List<Integer> removing,
            List<Integer> target, List<Integer> isr, Integer leader, List<ProgressRow> progress) {
    }

    /** The page: ongoing reassignments and the broker ids. */
    public record Overview(List<ReassignmentRow> reassignments, List<Integer> brokers) {
    }

    /** A partition's new replicas, the preferred leader first. */
    public record PartitionMove(String topic, Integer partition, List<Integer> replicas) {
    }

    /** Body of a start: the moves and an optional throttle in bytes per second. */
    public record StartRequest(List<PartitionMove> partitions, Long throttle) {
    }

    private final RestProxyClient cluster;
    private final ReassignmentsProxyClient proxy;

    public ReassignmentsController(RestProxyClient cluster, ReassignmentsProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** The ongoing reassignments and the brokers. */
    @GetMapping
    public Overview overview() {
        String clusterId = cluster.cluster().clusterId();
        return new Overview(proxy.ongoing(clusterId).stream().map(ReassignmentsController::row).toList(),
            cluster.brokers(clusterId).stream().map(Broker::brokerId).sorted().toList());
    }

    /** Starts the moves: 202; 400 for a body without partitions; the proxy's 400/403/404 passed on. */
    @PostMapping
    public ResponseEntity<Void> start(@RequestBody StartRequest request) {
        if (request == null || request.partitions() == null || request.partitions().isEmpty()
                || request.partitions().stream().anyMatch(p -> p == null || p.topic() == null || p.partition() == null
                    || p.replicas() == null)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "partitions with topic, partition and replicas "
                + "are needed");
        }
        proxy.start(cluster.cluster().clusterId(), request.partitions().stream()
            .map(p -> new Target(p.topic(), p.partition(), p.replicas())).toList(), request.throttle());
        return ResponseEntity.status(HttpStatus.ACCEPTED).build();
    }

    private static ReassignmentRow row(ProxyReassignment r) {
        return new ReassignmentRow(r.topic(), r.partition(), orEmpty(r.adding()), orEmpty(r.removing()),
            orEmpty(r.target()), orEmpty(r.isr()), r.leader(), r.progress() == null ? List.of()
                : r.progress().stream().map(p -> new ProgressRow(p.brokerId(), p.sizeBytes(), p.leaderSizeBytes(),
                    p.inSync())).toList());
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** Cancels a partition's reassignment: 204, or the proxy's 404 when none is in progress. */
    @DeleteMapping("/{topic}/{partition}")
    public ResponseEntity<Void> cancel(@PathVariable String topic, @PathVariable int partition) {
        proxy.cancel(cluster.cluster().clusterId(), topic, partition);
        return ResponseEntity.noContent().build();
    }
}
