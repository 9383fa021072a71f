package io.tributary.adminui.groups;

import io.tributary.adminui.groups.GroupViews.GroupDetail;
import io.tributary.adminui.groups.GroupViews.GroupPage;
import io.tributary.adminui.groups.GroupViews.GroupRow;
import io.tributary.adminui.groups.GroupViews.Member;
import io.tributary.adminui.groups.GroupViews.PartitionOffsets;
import io.tributary.adminui.groups.GroupViews.ResetOffset;
import io.tributary.adminui.groups.GroupViews.ResetRequest;
import io.tributary.adminui.groups.GroupViews.ResetResult;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyGroup;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyLag;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyReset;
import io.tributary.adminui.groups.GroupsProxyClient.ProxyResetResult;
import io.tributary.adminui.proxy.RestProxyClient;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/groups}: the consumer group list (filtered and paged here, from one proxy list call),
 * a group's members and per-partition offsets, offset reset and deletion (both only for empty
 * groups; the proxy's refusal is passed on).
 *
 * <p>The proxy's list has no lag or member count, so each row <em>on the page shown</em> costs a
 * lag summary and a member list, at most {@value GroupLags#CONCURRENCY} calls at a time.
 */
@RestController
@RequestMapping("/api/groups")
public class GroupsController {

    /** Largest page served. */
    static final int MAX_PAGE_SIZE = 100;

    private static final List<String> MODES = List.of("earliest", "latest", "offset", "timestamp");

    private final RestProxyClient cluster;
    private final GroupsProxyClient proxy;
    private final GroupLags lags;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's group calls
     * @param lags    lag summaries of the groups on a page
     */
    public GroupsController(RestProxyClient cluster, GroupsProxyClient proxy, GroupLags lags) {
        this.cluster = cluster;
        this.proxy = proxy;
        this.lags = lags;
    }

    /**
     * Groups whose id contains {@code filter} (case-insensitive), in state {@code state} (Kafka's name, e.g.
     * STABLE; blank: any) and, when {@code topic} is given, with a committed offset or an assigned
     * partition in that topic; sorted by id, page {@code page} (from 0) of {@code size}. 400 for a
     * negative page or a size outside 1..100. A topic filter costs a lag lookup per group left by the
     * others.
     */
    @GetMapping
    public GroupPage list(@RequestParam(defaultValue = "") String filter, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size, @RequestParam(defaultValue = "") String state,
            @RequestParam(defaultValue = "") String topic) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "page must be 0 or more and size between 1 and " + MAX_PAGE_SIZE);
        }
        String clusterId = cluster.cluster().clusterId();
        String needle = filter.strip().toLowerCase(Locale.ROOT);
        String wantedState = state.strip();
        List<ProxyGroup> matching = proxy.groups(clusterId).stream()
            .filter(g -> g.groupId().toLowerCase(Locale.ROOT).contains(needle))
            .filter(g -> wantedState.isEmpty() || wantedState.equalsIgnoreCase(g.state()))
            .sorted(Comparator.comparing(ProxyGroup::groupId))
            .toList();
        if (!topic.isBlank()) {
            Map<String, Set<String>> topics = lags.topics(clusterId,
                matching.stream().map(ProxyGroup::groupId).toList());
            matching = matching.stream().filter(g -> topics.getOrDefault(g.groupId(), Set.of())
                .contains(topic.strip())).toList();
        }
        long from = Math.min((long) page * size, matching.size());
        List<ProxyGroup> shown = matching.subList((int) from, (int) Math.min(from + size, matching.size()));
        Map<String, GroupLags.Summary> summaries = lags.of(clusterId, shown.stream().map(ProxyGroup::groupId).toList());
        List<GroupRow> rows = shown.stream().map(g -> {
            GroupLags.Summary s = summaries.get(g.groupId());
            return new GroupRow(g.groupId(), g.state(), s == null ? null : s.members(), s == null ? null : s.totalLag(),
                g.coordinatorId());
        }).toList();
        return new GroupPage(matching.size(), page, size, rows);
    }

    /** A group's state, members and partitions (committed offset, end offset, lag, owner); 404 when unknown. */
    @GetMapping("/{id}")
    public GroupDetail detail(@PathVariable String id) {
        String clusterId = cluster.cluster().clusterId();
        ProxyGroup group = proxy.group(clusterId, id);
        List<Member> members = proxy.consumers(clusterId, id).stream()
            .map(c -> new Member(c.consumerId(), c.instanceId(), c.clientId(), c.host(),
                c.assignments() == null ? List.of() : c.assignments().stream()
                    .sorted(Comparator.comparing(GroupsProxyClient.ProxyAssignment::topic)
                        .thenComparingInt(GroupsProxyClient.ProxyAssignment::partition))
                    .map(a -> a.topic() + "-" + a.partition()).toList()))
            .toList();
        List<PartitionOffsets> partitions = proxy.lags(clusterId, id).stream()
            .sorted(Comparator.comparing(ProxyLag::topic).thenComparingInt(ProxyLag::partition))
            .map(l -> new PartitionOffsets(l.topic(), l.partition(), l.currentOffset() < 0 ? null : l.currentOffset(),
                l.logEndOffset(), l.lag(), l.consumerId(), l.clientId()))
            .toList();
        long total = partitions.stream().mapToLong(PartitionOffsets::lag).sum();
        return new GroupDetail(group.groupId(), group.state(), group.simple(), group.partitionAssignor(), total,
            group.coordinatorId(), members, partitions);
    }

    /**
     * Resets the group's committed offsets for one topic or all its topics. 400 for a bad body (checked
     * here, so the message names our fields); the proxy's 409 while the group has members, 404 unknown
     * group or topic.
     */
    @PostMapping("/{id}/offsets:reset")
    public ResetResult reset(@PathVariable String id, @RequestBody ResetRequest request) {
        String mode = request.mode() == null ? "" : request.mode().strip().toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "mode must be one of " + MODES);
        }
        if (mode.equals("offset") && (request.offset() == null || request.offset() < 0)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "mode offset needs an offset of 0 or more");
        }
        if (mode.equals("timestamp") && (request.timestamp() == null || request.timestamp() < 0)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "mode timestamp needs a timestamp (milliseconds since the epoch) of 0 or more");
        }
        String topic = request.topic() == null || request.topic().isBlank() ? null : request.topic().strip();
        ProxyReset body = new ProxyReset(mode, mode.equals("offset") ? request.offset() : null,
            mode.equals("timestamp") ? request.timestamp() : null, topic == null ? null : List.of(topic));
        ProxyResetResult result = proxy.resetOffsets(cluster.cluster().clusterId(), id, body);
        List<ResetOffset> offsets = result == null || result.offsets() == null ? List.of()
            : result.offsets().stream().map(o -> new ResetOffset(o.topic(), o.partition(), o.offset())).toList();
        return new ResetResult(id, offsets);
    }

    /** Deletes the group: 204, the proxy's 409 while it has members, 404 when unknown. */
    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(@PathVariable String id) {
        proxy.delete(cluster.cluster().clusterId(), id);
        return ResponseEntity.noContent().build();
    }
}
