package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.V3Resources.AlterConfigsRequest;
import io.tributary.restproxy.v3.V3Resources.AssignedPartition;
import io.tributary.restproxy.v3.V3Resources.ConfigValue;
import io.tributary.restproxy.v3.V3Resources.ResetOffset;
import io.tributary.restproxy.v3.V3Resources.ResetOffsetsRequest;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import io.tributary.restproxy.v3.V3Resources.UpdateConfigRequest;
import io.tributary.restproxy.v3.V3ShareGroupResources.ShareGroup;
import io.tributary.restproxy.v3.V3ShareGroupResources.ShareGroupConfig;
import io.tributary.restproxy.v3.V3ShareGroupResources.ShareGroupOffset;
import io.tributary.restproxy.v3.V3ShareGroupResources.ShareGroupResetOffsetsResponse;
import io.tributary.restproxy.v3.V3ShareGroupResources.ShareMember;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.springframework.http.MediaType;
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

/**
 * v3 share groups (KIP-932), an addition to Confluent's API in the manner of its consumer groups:
 * list, describe with members and their assignments, delete an empty group, read and change the
 * group's {@code share.*} configs, and the group's start offsets. Every call runs as the HTTP
 * user's Kafka login, so the brokers' group ACLs apply. Errors: 404 unknown cluster or share
 * group, 409 delete of a group with members, 400 a config the brokers refuse or outside
 * {@code share.*}, 403 (40301) what the user may not do.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/share-groups", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Share groups (v3)", description = "Share groups (KIP-932): members, configs, delete")
public class V3ShareGroupsController {

    private final ClusterAdmin cluster;
    private final ShareGroupsAdmin admin;

    public V3ShareGroupsController(ClusterAdmin cluster, ShareGroupsAdmin admin) {
        this.cluster = cluster;
        this.admin = admin;
    }

    @GetMapping
    @Operation(summary = "List share groups",
        description = "Every share group the caller may describe, sorted by group_id, with state, member_count, "
            + "epochs, coordinator and total_lag (null when unknown; members only on a single group).")
    public ResourceList<ShareGroup> groups(@PathVariable String clusterId) {
        cluster.checkCluster(clusterId);
        List<ShareGroupDescription> groups = admin.groups();
        Map<String, OptionalLong> lags = admin.totalLags(groups.stream().map(ShareGroupDescription::groupId).toList());
        return new ResourceList<>("KafkaShareGroupList", V3Links.self(clusterId, "/share-groups"),
            groups.stream().map(g -> group(clusterId, g, lags.getOrDefault(g.groupId(), OptionalLong.empty()), false))
                .toList());
    }

    @GetMapping("/{groupId}")
    @Operation(summary = "Describe a share group",
        description = "State, group_epoch, assignment_epoch, coordinator, total_lag (the partitions' lags summed, "
            + "null when unknown) and members with their assigned partitions; with include_authorized_operations=true "
            + "the group operations the caller may do. Errors: 404.")
    public ShareGroup group(@PathVariable String clusterId, @PathVariable String groupId,
            @RequestParam(name = "include_authorized_operations", defaultValue = "false") boolean includeOperations) {
        cluster.checkCluster(clusterId);
        ShareGroupDescription group = admin.group(groupId, includeOperations);
        return group(clusterId, group, admin.totalLags(List.of(groupId)).get(groupId), true);
    }

    @GetMapping("/{groupId}/members")
    @Operation(summary = "List a share group's members and their assigned partitions", description = "Errors: 404.")
    public ResourceList<ShareMember> members(@PathVariable String clusterId, @PathVariable String groupId) {
        cluster.checkCluster(clusterId);
        return new ResourceList<>("KafkaShareGroupMemberList", V3Links.self(clusterId, "/share-groups/" + groupId
            + "/members"), members(clusterId, admin.group(groupId, false)));
    }

    @DeleteMapping("/{groupId}")
    @Operation(summary = "Delete an empty share group", description = "Errors: 404 unknown group, 409 the group has "
        + "members.")
    public ResponseEntity<Void> delete(@PathVariable String clusterId, @PathVariable String groupId) {
        cluster.checkCluster(clusterId);
        admin.delete(groupId);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{groupId}/configs")
    @Operation(summary = "List the group's share.* configs",
        description = "The GROUP config resource's share.* entries (share.auto.offset.reset, "
            + "share.record.lock.duration.ms, share.delivery.count.limit, share.session.timeout.ms, ...): the group's "
            + "own value or the brokers'. Group configs exist apart from the group, as in Kafka.")
    public ResourceList<ShareGroupConfig> configs(@PathVariable String clusterId, @PathVariable String groupId) {
        cluster.checkCluster(clusterId);
        return new ResourceList<>("KafkaShareGroupConfigList", V3Links.self(clusterId, "/share-groups/" + groupId
            + "/configs"), admin.configs(groupId).stream().map(c -> config(clusterId, groupId, c)).toList());
    }

    @GetMapping("/{groupId}/configs/{name}")
    @Operation(summary = "Get one share.* config of the group", description = "Errors: 404 unknown config.")
    public ShareGroupConfig config(@PathVariable String clusterId, @PathVariable String groupId,
            @PathVariable String name) {
        cluster.checkCluster(clusterId);
        return admin.configs(groupId).stream().filter(c -> c.name().equals(name)).findFirst()
            .map(c -> config(clusterId, groupId, c))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("Config " + name + " of share group " + groupId
                + " not found."));
    }

    @PutMapping(path = "/{groupId}/configs/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set one share.* config of the group", description = "Body {\"value\": ...}. Errors: 400.")
    public ResponseEntity<Void> setConfig(@PathVariable String clusterId, @PathVariable String groupId,
            @PathVariable String name, @RequestBody UpdateConfigRequest request) {
        cluster.checkCluster(clusterId);
        if (request.value() == null) {
            throw RestError.BAD_REQUEST.exception("value is required (DELETE the config to reset it)");
        }
        admin.alterConfigs(groupId, Map.of(name, Optional.of(request.value())));
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/{groupId}/configs/{name}")
    @Operation(summary = "Reset one share.* config of the group to the brokers' value", description = "Errors: 400.")
    public ResponseEntity<Void> resetConfig(@PathVariable String clusterId, @PathVariable String groupId,
            @PathVariable String name) {
        cluster.checkCluster(clusterId);
        admin.alterConfigs(groupId, Map.of(name, Optional.empty()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(path = "/{groupId}/configs:alter", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Alter several share.* configs of the group at once",
        description = "Body {\"data\":[{\"name\":..,\"value\":..,\"operation\":\"SET\"|\"DELETE\"}]}, applied whole or "
            + "not at all. Errors: 400.")
    public ResponseEntity<Void> alterConfigs(@PathVariable String clusterId, @PathVariable String groupId,
            @RequestBody AlterConfigsRequest request) {
        cluster.checkCluster(clusterId);
        if (request.data() == null || request.data().isEmpty()) {
            throw RestError.BAD_REQUEST.exception("data is required");
        }
        Map<String, Optional<String>> changes = new LinkedHashMap<>();
        for (ConfigValue config : request.data()) {
            if (config.name() == null || config.name().isBlank()) {
                throw RestError.BAD_REQUEST.exception("Every config needs a name");
            }
            String operation = config.operation() == null ? "SET" : config.operation().toUpperCase(Locale.ROOT);
            switch (operation) {
                case "SET" -> {
                    if (config.value() == null) {
                        throw RestError.BAD_REQUEST.exception("SET of " + config.name() + " needs a value");
                    }
                    changes.put(config.name(), Optional.of(config.value()));
                }
                case "DELETE" -> changes.put(config.name(), Optional.empty());
                default -> throw RestError.BAD_REQUEST.exception("operation must be SET or DELETE");
            }
        }
        admin.alterConfigs(groupId, changes);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{groupId}/offsets")
    @Operation(summary = "The group's start offset and lag in each partition it has state for",
        description = "DescribeShareGroupOffsets (KIP-932; lag from v1, KIP-1226: the records from start_offset to the "
            + "high watermark neither acknowledged nor archived, null when the brokers do not know it). Errors: 404 "
            + "unknown group; 50002 naming "
            + "UnsupportedVersionException while the brokers do not serve that API.")
    public ResourceList<ShareGroupOffset> offsets(@PathVariable String clusterId, @PathVariable String groupId) {
        cluster.checkCluster(clusterId);
        admin.group(groupId, false);
        return new ResourceList<>("KafkaShareGroupOffsetList", V3Links.self(clusterId, "/share-groups/" + groupId
            + "/offsets"), admin.offsets(groupId).entrySet().stream()
            .map(e -> new ShareGroupOffset(e.getKey().topic(), e.getKey().partition(), e.getValue().startOffset(),
                e.getValue().leaderEpoch().orElse(null), e.getValue().lag().filter(lag -> lag >= 0).orElse(null)))
            .toList());
    }

    @PostMapping(path = "/{groupId}/offsets:reset", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Reset the share group's start offsets (group must be empty)",
        description = "AlterShareGroupOffsets (KIP-932). Body {\"to\": \"earliest\"|\"latest\"|\"offset\"|\"timestamp\", "
            + "\"offset\": N, \"timestamp\": ms, \"topics\": [...]}: every partition of the named topics, or of the "
            + "topics the group has start offsets for. Errors: 404 unknown group, 409 the group has members, 400 bad "
            + "body, 40401 unknown topic.")
    public ShareGroupResetOffsetsResponse resetOffsets(@PathVariable String clusterId, @PathVariable String groupId,
            @RequestBody ResetOffsetsRequest request) {
        cluster.checkCluster(clusterId);
        admin.group(groupId, false);
        java.util.Set<String> topics = new java.util.LinkedHashSet<>();
        if (request.topics() != null && !request.topics().isEmpty()) {
            topics.addAll(request.topics());
        } else {
            admin.offsets(groupId).keySet().forEach(tp -> topics.add(tp.topic()));
        }
        if (topics.isEmpty()) {
            throw RestError.BAD_REQUEST.exception("The group has no start offsets: name the topics to reset");
        }
        Map<TopicPartition, Long> offsets = OffsetResetTargets.resolve(cluster, topics, request);
        admin.resetOffsets(groupId, offsets);
        return new ShareGroupResetOffsetsResponse(groupId, offsets.entrySet().stream()
            .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition)))
            .map(e -> new ResetOffset(e.getKey().topic(), e.getKey().partition(), e.getValue())).toList());
    }

    private static ShareGroup group(String clusterId, ShareGroupDescription group, OptionalLong totalLag,
            boolean withMembers) {
        String path = "/share-groups/" + group.groupId();
        Integer coordinatorId = group.coordinator() == null || group.coordinator().isEmpty() ? null
            : group.coordinator().id();
        return new ShareGroup("KafkaShareGroup", V3Links.self(clusterId, path), clusterId, group.groupId(),
            group.groupState().name(), group.groupEpoch(), group.targetAssignmentEpoch(), group.members().size(),
            coordinatorId == null ? null : V3Links.related(clusterId, "/brokers/" + coordinatorId), coordinatorId,
            totalLag.isPresent() ? totalLag.getAsLong() : null, V3Links.related(clusterId, path + "/configs"), V3Links.related(clusterId, path + "/offsets"),
            withMembers ? members(clusterId, group) : null,
            V3TopicsController.operationNames(group.authorizedOperations()));
    }

    private static List<ShareMember> members(String clusterId, ShareGroupDescription group) {
        String path = "/share-groups/" + group.groupId() + "/members/";
        return group.members().stream()
            .sorted(Comparator.comparing(ShareMemberDescription::consumerId))
            .map(m -> new ShareMember("KafkaShareGroupMember", V3Links.self(clusterId, path + m.consumerId()),
                clusterId, group.groupId(), m.consumerId(), m.clientId(), m.host(), m.rackId().orElse(null),
                m.memberEpoch(), m.assignment().topicPartitions().stream()
                    .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                    .map(tp -> new AssignedPartition(tp.topic(), tp.partition())).toList()))
            .toList();
    }

    private static ShareGroupConfig config(String clusterId, String groupId, ConfigEntry entry) {
        return new ShareGroupConfig("KafkaShareGroupConfig", V3Links.self(clusterId, "/share-groups/" + groupId
            + "/configs/" + entry.name()), clusterId, groupId, entry.name(), entry.value(), entry.isDefault(),
            entry.isReadOnly(), entry.isSensitive(), entry.source() == null ? null : entry.source().name());
    }
}
