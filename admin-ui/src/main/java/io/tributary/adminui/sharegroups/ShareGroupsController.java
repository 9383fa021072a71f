package io.tributary.adminui.sharegroups;

import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.security.Rights;
import io.tributary.adminui.sharegroups.ShareGroupViews.ConfigChanges;
import io.tributary.adminui.sharegroups.ShareGroupViews.ConfigRow;
import io.tributary.adminui.sharegroups.ShareGroupViews.Member;
import io.tributary.adminui.sharegroups.ShareGroupViews.PartitionRow;
import io.tributary.adminui.sharegroups.ShareGroupViews.ResetRequest;
import io.tributary.adminui.sharegroups.ShareGroupViews.ShareGroupDetail;
import io.tributary.adminui.sharegroups.ShareGroupViews.ShareGroupPage;
import io.tributary.adminui.sharegroups.ShareGroupViews.ShareGroupRow;
import io.tributary.adminui.sharegroups.ShareGroupsProxyClient.ProxyAssignment;
import io.tributary.adminui.sharegroups.ShareGroupsProxyClient.ProxyShareGroup;
import io.tributary.adminui.sharegroups.ShareGroupsProxyClient.ProxyShareGroupConfig;
import io.tributary.adminui.sharegroups.ShareGroupsProxyClient.ProxyShareGroupOffset;
import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.Partition;
import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.PartitionMetrics;
import io.tributary.adminui.sharegroups.SharePartitionMetricsReader.Reading;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/share-groups}: share groups (KIP-932) from the REST proxy's v3 share-groups endpoints.
 * The list is filtered (group id, state) and paged here from one proxy call, which carries each
 * group's state, member count, coordinator and total lag. A group's page adds its members, its
 * {@code share.*} configs and its partitions: start offset and lag from the proxy, in-flight records,
 * archived records and lock expiries from the brokers' metrics ({@link SharePartitionMetricsReader}:
 * a broker whose metrics cannot be read leaves those of the partitions no other broker reports unknown,
 * with the reason); configs or partitions that cannot be read (the
 * caller may not describe configs; brokers that do not serve DescribeShareGroupOffsets yet) leave
 * the rest of the page standing, with the reason. Changes (configs, delete) are refused here with
 * 403 when the proxy reports that the signed-in user lacks the operation, else passed to the proxy,
 * whose refusal (409 for a group with members) is passed on.
 */
@RestController
@RequestMapping("/api/share-groups")
public class ShareGroupsController {

    /** Largest page served. */
    static final int MAX_PAGE_SIZE = 100;

    private final RestProxyClient cluster;
    private final ShareGroupsProxyClient proxy;
    private final Rights rights;
    private final SharePartitionMetricsReader metrics;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's share group calls
     * @param rights  what the signed-in user may do
     * @param metrics reads the share-partitions' meters from the brokers
     */
    public ShareGroupsController(RestProxyClient cluster, ShareGroupsProxyClient proxy, Rights rights,
            SharePartitionMetricsReader metrics) {
        this.cluster = cluster;
        this.proxy = proxy;
        this.rights = rights;
        this.metrics = metrics;
    }

    /**
     * Share groups whose id contains {@code filter} (case-insensitive) and, when {@code state} is not
     * blank, in that state; sorted by id, page {@code page} (from 0) of {@code size}. 400 for a
     * negative page or a size outside 1..100.
     */
    @GetMapping
    public ShareGroupPage list(@RequestParam(defaultValue = "") String filter,
            @RequestParam(defaultValue = "") String state, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "page must be 0 or more and size between 1 and " + MAX_PAGE_SIZE);
        }
        List<ProxyShareGroup> all = proxy.groups(cluster.cluster().clusterId());
        String needle = filter.strip().toLowerCase(Locale.ROOT);
        String wanted = state.strip().toUpperCase(Locale.ROOT);
        List<ProxyShareGroup> matching = all.stream()
            .filter(g -> g.groupId().toLowerCase(Locale.ROOT).contains(needle))
            .filter(g -> wanted.isEmpty() || wanted.equals(g.state()))
            .sorted(Comparator.comparing(ProxyShareGroup::groupId))
            .toList();
        long from = Math.min((long) page * size, matching.size());
        List<ShareGroupRow> rows = matching.subList((int) from, (int) Math.min(from + size, matching.size())).stream()
            .map(g -> new ShareGroupRow(g.groupId(), g.state(), g.memberCount(), g.coordinatorId(), g.totalLag()))
            .toList();
        Set<String> states = new TreeSet<>();
        all.forEach(g -> states.add(g.state()));
        return new ShareGroupPage(matching.size(), page, size, List.copyOf(states), rows);
    }

    /**
     * A share group's state, epochs, coordinator, total lag, members, configs and partitions (with the
     * brokers' share-partition meters, read within the metrics timeout); 404 when unknown.
     */
    @GetMapping("/{id}")
    public ShareGroupDetail detail(@PathVariable String id) {
        String clusterId = cluster.cluster().clusterId();
        ProxyShareGroup group = proxy.group(clusterId, id);
        List<Member> members = group.members() == null ? List.of() : group.members().stream()
            .map(m -> new Member(m.memberId(), m.clientId(), m.host(), m.rackId(), m.memberEpoch(),
                m.assignments() == null ? List.of() : m.assignments().stream()
                    .sorted(Comparator.comparing(ProxyAssignment::topic).thenComparingInt(ProxyAssignment::partition))
                    .map(a -> a.topic() + "-" + a.partition()).toList()))
            .sorted(Comparator.comparing(Member::memberId))
            .toList();
        List<ConfigRow> configs = null;
        String configsError = null;
        try {
            configs = proxy.configs(clusterId, id).stream()
                .map(c -> new ConfigRow(c.name(), c.sensitive() ? null : c.value(), c.isDefault(),
                    "DYNAMIC_GROUP_CONFIG".equals(c.source()), c.readOnly(), c.source()))
                .sorted(Comparator.comparing(ConfigRow::name))
                .toList();
        } catch (RestProxyException e) {
            configsError = e.status() == 403 ? "you may not describe this group's configs (it needs DESCRIBE_CONFIGS "
                + "on the group)" : e.getMessage();
        }
        List<PartitionRow> partitions = null;
        String partitionsError = null;
        try {
            List<ProxyShareGroupOffset> offsets = proxy.offsets(clusterId, id).stream()
                .sorted(Comparator.comparing(ProxyShareGroupOffset::topic)
                    .thenComparingInt(ProxyShareGroupOffset::partition))
                .toList();
            partitions = partitions(id, offsets);
        } catch (RestProxyException e) {
            partitionsError = e.getMessage();
        }
        return new ShareGroupDetail(group.groupId(), group.state(), group.groupEpoch(), group.assignmentEpoch(),
            group.coordinatorId(), members, group.authorizedOperations(), configs, configsError, group.totalLag(),
            partitions, partitionsError);
    }

    /** The offsets as rows, with the meters of each partition some broker reports. */
    private List<PartitionRow> partitions(String group, List<ProxyShareGroupOffset> offsets) {
        if (offsets.isEmpty()) {
            return List.of();
        }
        Reading reading;
        String unread;
        try {
            reading = metrics.read(group);
            unread = reading.unreachable().isEmpty() ? "not loaded on its leader: no consumer of the group "
                + "is fetching from it there (a leader forgets a group's share-partitions once its last consumer leaves)"
                : (reading.unreachable().size() == 1 ? "the metrics of broker " : "the metrics of brokers ")
                + String.join(", ", reading.unreachable().stream().map(String::valueOf).toList())
                + " could not be read";
        } catch (RestProxyException e) {
            reading = new Reading(Map.of(), List.of());
            unread = "the brokers' metrics could not be read: " + e.getMessage();
        }
        Map<Partition, PartitionMetrics> meters = reading.partitions();
        String note = unread;
        return offsets.stream().map(o -> {
            PartitionMetrics m = meters.get(new Partition(o.topic(), o.partition()));
            return m == null
                ? new PartitionRow(o.topic(), o.partition(), o.startOffset(), o.lag(), null, null, null, null, note)
                : new PartitionRow(o.topic(), o.partition(), o.startOffset(), o.lag(), m.inFlight(),
                    m.archivedRejected(), m.archivedDeliveryLimit(), m.lockExpiries(), null);
        }).toList();
    }

    /**
     * Changes the group's {@code share.*} configs in one batch: {@code {"set": {name: value}, "reset":
     * [name]}}. 204; 400 for an empty batch, a blank or non-{@code share.} name, a null value or a name
     * both set and reset (the proxy is then not asked); 403 when the user may not ALTER_CONFIGS the
     * group; else the proxy's error with Kafka's message (an invalid value, an unknown config).
     */
    @PutMapping("/{id}/configs")
    public ResponseEntity<Void> changeConfigs(@PathVariable String id, @RequestBody ConfigChanges changes) {
        Map<String, String> set = new LinkedHashMap<>();
        if (changes.set() != null) {
            for (Map.Entry<String, String> entry : changes.set().entrySet()) {
                String name = requireName(entry.getKey());
                if (entry.getValue() == null) {
                    throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Config " + name + " has no value: "
                        + "put it in \"reset\" to bring back the brokers' value");
                }
                set.put(name, entry.getValue());
            }
        }
        Set<String> reset = new LinkedHashSet<>();
        for (String raw : changes.reset() == null ? List.<String>of() : changes.reset()) {
            String name = requireName(raw);
            if (set.containsKey(name)) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Config " + name + " is both set and reset");
            }
            reset.add(name);
        }
        if (set.isEmpty() && reset.isEmpty()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "No config to set or reset");
        }
        String clusterId = cluster.cluster().clusterId();
        rights.require(proxy.group(clusterId, id).authorizedOperations(), "ALTER_CONFIGS",
            "change the configs of share group " + id);
        proxy.alterConfigs(clusterId, id, set, List.copyOf(reset));
        return ResponseEntity.noContent().build();
    }

    /** Deletes the group: 204, 403 when the user may not DELETE it, the proxy's 409 while it has members, 404. */
    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(@PathVariable String id) {
        String clusterId = cluster.cluster().clusterId();
        rights.require(proxy.group(clusterId, id).authorizedOperations(), "DELETE", "delete share group " + id);
        proxy.delete(clusterId, id);
        return ResponseEntity.noContent().build();
    }

    /**
     * Resets the group's start offsets (AlterShareGroupOffsets, KIP-932) to the earliest or latest
     * offsets: 204, 400 for another mode, 403 when the user may not READ the group, the proxy's 409
     * while it has members, 404.
     */
    @PostMapping("/{id}/offsets:reset")
    public ResponseEntity<Void> resetOffsets(@PathVariable String id, @RequestBody ResetRequest request) {
        String mode = request.mode() == null ? "" : request.mode().strip().toLowerCase(Locale.ROOT);
        if (!mode.equals("earliest") && !mode.equals("latest")) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "mode must be earliest or latest");
        }
        String clusterId = cluster.cluster().clusterId();
        rights.require(proxy.group(clusterId, id).authorizedOperations(), "READ", "reset the offsets of share group " + id);
        String topic = request.topic() == null || request.topic().isBlank() ? null : request.topic().strip();
        proxy.resetOffsets(clusterId, id, mode, topic == null ? null : List.of(topic));
        return ResponseEntity.noContent().build();
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Every config needs a name");
        }
        String stripped = name.strip();
        if (!stripped.startsWith("share.")) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Only share.* configs can be changed on a "
                + "share group, not " + stripped);
        }
        return stripped;
    }
}
