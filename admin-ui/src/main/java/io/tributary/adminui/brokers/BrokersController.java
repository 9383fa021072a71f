package io.tributary.adminui.brokers;

import io.tributary.adminui.brokers.BrokersProxyClient.ProxyBrokerConfig;
import io.tributary.adminui.brokers.BrokersProxyClient.ProxyReplica;
import io.tributary.adminui.proxy.ProxyResources.Broker;
import io.tributary.adminui.proxy.ProxyResources.Cluster;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The Brokers pages' data: {@code GET /api/brokers} (each broker with the partitions it leads and
 * holds, its under-replicated partitions and its log directories' size), {@code GET /api/brokers/{id}}
 * (its configs with sources and synonyms, the cluster-wide defaults, log directories and partitions),
 * and config changes of one broker or cluster-wide. Rights are the brokers' to check: the proxy's 403
 * is passed on.
 */
@RestController
public class BrokersController {

    /** A broker in the list; {@code logDirBytes} null when its log directories cannot be read (reason in {@code logDirProblem}). */
    public record BrokerRow(int id, String host, Integer port, String rack, boolean controller, int leaderPartitions,
            int replicas, int underReplicated, Long logDirBytes, int logDirErrors, String logDirProblem) {
    }

    /** The list with the controller's id. */
    public record BrokerList(Integer controllerId, List<BrokerRow> brokers) {
    }

    /** A config of a broker (or cluster-wide): where its value comes from and where else it could. */
    public record ConfigRow(String name, String value, String source, boolean isDefault, boolean readOnly,
            boolean sensitive, List<BrokersProxyClient.ProxySynonym> synonyms) {
    }

    /** A log directory: its error (null when healthy), bytes of its replicas, how many replicas. */
    public record LogDirRow(String path, String error, long sizeBytes, Long totalBytes, Long usableBytes, int replicas) {
    }

    /** A partition with a replica on the broker. */
    public record PartitionRow(String topic, int partition, Integer leader, boolean isLeader, List<Integer> replicas,
            List<Integer> isr, boolean inSync, boolean underReplicated) {
    }

    /** A broker's page; {@code logDirProblem} says why {@code logDirs} is null. */
    public record BrokerDetail(BrokerRow broker, List<ConfigRow> configs, List<ConfigRow> clusterDefaults,
            List<LogDirRow> logDirs, String logDirProblem, List<PartitionRow> partitions) {
    }

    /** Body of a config change: values to set by name, names to remove. */
    public record ConfigChanges(Map<String, String> set, List<String> reset) {
    }

    private final RestProxyClient proxy;
    private final BrokersProxyClient brokers;

    public BrokersController(RestProxyClient proxy, BrokersProxyClient brokers) {
        this.proxy = proxy;
        this.brokers = brokers;
    }

    /** Every broker with its partition counts and log directory size. */
    @GetMapping("/api/brokers")
    public BrokerList list() {
        Cluster cluster = proxy.cluster();
        List<BrokerRow> rows = new ArrayList<>();
        for (Broker broker : proxy.brokers(cluster.clusterId())) {
            rows.add(row(cluster, broker, brokers.replicas(cluster.clusterId(), broker.brokerId())));
        }
        return new BrokerList(cluster.controllerId(), rows);
    }

    /** One broker's page. */
    @GetMapping("/api/brokers/{id}")
    public BrokerDetail broker(@PathVariable int id) {
        Cluster cluster = proxy.cluster();
        Broker broker = proxy.brokers(cluster.clusterId()).stream().filter(b -> b.brokerId() == id).findFirst()
            .orElseThrow(() -> new RestProxyException(404, null, "Broker " + id + " not found."));
        List<ProxyReplica> replicas = brokers.replicas(cluster.clusterId(), id);
        List<ConfigRow> configs = brokers.configs(cluster.clusterId(), id).stream().map(BrokersController::config)
            .toList();
        List<ConfigRow> defaults = brokers.clusterConfigs(cluster.clusterId()).stream().map(BrokersController::config)
            .toList();
        List<LogDirRow> dirs = null;
        String problem = null;
        try {
            dirs = brokers.logDirs(cluster.clusterId(), id).stream().map(d -> new LogDirRow(d.path(), d.error(),
                d.sizeBytes(), d.totalBytes(), d.usableBytes(), d.replicas() == null ? 0 : d.replicas().size())).toList();
        } catch (RestProxyException e) {
            problem = e.getMessage();
        }
        List<PartitionRow> partitions = replicas.stream().map(r -> new PartitionRow(r.topic(), r.partition(),
            r.leaderId(), r.leader(), orEmpty(r.replicas()), orEmpty(r.isr()), r.inSync(),
            orEmpty(r.isr()).size() < orEmpty(r.replicas()).size())).toList();
        return new BrokerDetail(row(cluster, broker, replicas, dirs, problem), configs, defaults, dirs, problem,
            partitions);
    }

    /** Sets and removes dynamic configs of one broker; the proxy's errors (400 not dynamic, 403) passed on. */
    @PutMapping("/api/brokers/{id}/configs")
    public ResponseEntity<Void> alter(@PathVariable int id, @RequestBody ConfigChanges changes) {
        apply(id, changes);
        return ResponseEntity.noContent().build();
    }

    /** Sets and removes cluster-wide broker configs (every broker's default). */
    @PutMapping("/api/broker-defaults/configs")
    public ResponseEntity<Void> alterDefaults(@RequestBody ConfigChanges changes) {
        apply(null, changes);
        return ResponseEntity.noContent().build();
    }

    private void apply(Integer id, ConfigChanges changes) {
        Map<String, String> set = changes == null || changes.set() == null ? Map.of() : changes.set();
        List<String> reset = changes == null || changes.reset() == null ? List.of() : changes.reset();
        if (set.isEmpty() && reset.isEmpty()) {
            throw new ResponseStatusException(org.springframework.http.HttpStatus.BAD_REQUEST, "Nothing to change");
        }
        brokers.alterConfigs(proxy.cluster().clusterId(), id, set, reset);
    }

    private BrokerRow row(Cluster cluster, Broker broker, List<ProxyReplica> replicas) {
        List<LogDirRow> dirs = null;
        String problem = null;
        try {
            dirs = brokers.logDirs(cluster.clusterId(), broker.brokerId()).stream().map(d -> new LogDirRow(d.path(),
                d.error(), d.sizeBytes(), d.totalBytes(), d.usableBytes(), 0)).toList();
        } catch (RestProxyException e) {
            problem = e.getMessage();
        }
        return row(cluster, broker, replicas, dirs, problem);
    }

    private static BrokerRow row(Cluster cluster, Broker broker, List<ProxyReplica> replicas, List<LogDirRow> dirs,
            String problem) {
        int led = (int) replicas.stream().filter(ProxyReplica::leader).count();
        int under = (int) replicas.stream().filter(ProxyReplica::leader)
            .filter(r -> orEmpty(r.isr()).size() < orEmpty(r.replicas()).size()).count();
        Long bytes = dirs == null ? null : dirs.stream().mapToLong(LogDirRow::sizeBytes).sum();
        int errors = dirs == null ? 0 : (int) dirs.stream().filter(d -> d.error() != null).count();
        return new BrokerRow(broker.brokerId(), broker.host(), broker.port(), broker.rack(),
            Objects.equals(cluster.controllerId(), broker.brokerId()), led, replicas.size(), under, bytes, errors,
            problem);
    }

    private static ConfigRow config(ProxyBrokerConfig c) {
        return new ConfigRow(c.name(), c.value(), c.source(), c.isDefault(), c.readOnly(), c.sensitive(),
            c.synonyms() == null ? List.of() : c.synonyms());
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
