package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.ClusterAdmin.PartitionLag;
import io.tributary.restproxy.v3.V3Resources.AssignedPartition;
import io.tributary.restproxy.v3.V3Resources.Consumer;
import io.tributary.restproxy.v3.V3Resources.ConsumerGroup;
import io.tributary.restproxy.v3.V3Resources.ConsumerLag;
import io.tributary.restproxy.v3.V3Resources.LagSummary;
import io.tributary.restproxy.v3.V3Resources.ResetOffset;
import io.tributary.restproxy.v3.V3Resources.ResetOffsetsRequest;
import io.tributary.restproxy.v3.V3Resources.ResetOffsetsResponse;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * v3 consumer groups: list, describe, members, lag per partition and lag summary; beyond
 * Confluent's read-only API, delete a group and reset its offsets (only while it is empty, as
 * {@code kafka-consumer-groups --reset-offsets} requires).
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/consumer-groups", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Consumer groups (v3)", description = "Groups, members, lag; delete and offset reset")
public class V3ConsumerGroupsController {

    private final ClusterAdmin admin;

    public V3ConsumerGroupsController(ClusterAdmin admin) {
        this.admin = admin;
    }

    @GetMapping
    @Operation(summary = "List consumer groups")
    public ResourceList<ConsumerGroup> groups(@PathVariable String clusterId) {
        admin.checkCluster(clusterId);
        List<String> ids = admin.groups().stream().map(GroupListing::groupId).toList();
        List<ConsumerGroup> groups = new ArrayList<>();
        for (var description : admin.groups(ids)) {
            groups.add(group(clusterId, description));
        }
        return new ResourceList<>("KafkaConsumerGroupList", V3Links.self(clusterId, "/consumer-groups"), groups);
    }

    @GetMapping("/{groupId}")
    @Operation(summary = "Describe a consumer group", description = "Errors: 404 unknown group.")
    public ConsumerGroup group(@PathVariable String clusterId, @PathVariable String groupId) {
        admin.checkCluster(clusterId);
        return group(clusterId, admin.group(groupId));
    }

    @DeleteMapping("/{groupId}")
    @Operation(summary = "Delete a consumer group and its committed offsets",
        description = "Errors: 404 unknown group, 409 the group has members.")
    public ResponseEntity<Void> delete(@PathVariable String clusterId, @PathVariable String groupId) {
        admin.checkCluster(clusterId);
        admin.deleteGroup(groupId);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{groupId}/consumers")
    @Operation(summary = "List a group's members and their assignments", description = "Errors: 404 unknown group.")
    public ResourceList<Consumer> consumers(@PathVariable String clusterId, @PathVariable String groupId) {
        admin.checkCluster(clusterId);
        ConsumerGroupDescription group = admin.group(groupId);
        String path = "/consumer-groups/" + groupId + "/consumers";
        return new ResourceList<>("KafkaConsumerList", V3Links.self(clusterId, path), group.members().stream()
            .sorted(Comparator.comparing(MemberDescription::consumerId))
            .map(m -> new Consumer("KafkaConsumer", V3Links.self(clusterId, path + "/" + m.consumerId()), clusterId,
                groupId, m.consumerId(), m.groupInstanceId().orElse(null), m.clientId(), m.host(),
                m.assignment().topicPartitions().stream()
                    .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                    .map(tp -> new AssignedPartition(tp.topic(), tp.partition())).toList()))
            .toList());
    }

    @GetMapping("/{groupId}/lags")
    @Operation(summary = "Lag of every partition of the group",
        description = "current_offset is the committed offset (-1: none; the lag then counts the whole partition). "
            + "Errors: 404 unknown group.")
    public ResourceList<ConsumerLag> lags(@PathVariable String clusterId, @PathVariable String groupId) {
        admin.checkCluster(clusterId);
        String path = "/consumer-groups/" + groupId + "/lags";
        return new ResourceList<>("KafkaConsumerLagList", V3Links.self(clusterId, path), admin.lags(groupId).stream()
            .map(l -> new ConsumerLag("KafkaConsumerLag", V3Links.self(clusterId, path + "/" + l.partition().topic()
                + "/partitions/" + l.partition().partition()), clusterId, groupId, l.partition().topic(),
                l.partition().partition(), l.currentOffset(), l.logEndOffset(), l.lag(), l.consumerId(),
                l.instanceId(), l.clientId()))
            .toList());
    }

    @GetMapping("/{groupId}/lag-summary")
    @Operation(summary = "Total and largest lag of the group", description = "Errors: 404 unknown group.")
    public LagSummary lagSummary(@PathVariable String clusterId, @PathVariable String groupId) {
        admin.checkCluster(clusterId);
        List<PartitionLag> lags = admin.lags(groupId);
        long total = lags.stream().mapToLong(PartitionLag::lag).sum();
        PartitionLag max = lags.stream().max(Comparator.comparingLong(PartitionLag::lag)).orElse(null);
        return new LagSummary("KafkaConsumerGroupLagSummary", V3Links.self(clusterId, "/consumer-groups/" + groupId
            + "/lag-summary"), clusterId, groupId, max == null ? null : max.consumerId(),
            max == null ? null : max.instanceId(), max == null ? null : max.clientId(),
            max == null ? null : max.partition().topic(), max == null ? null : max.partition().partition(),
            max == null ? 0 : max.lag(), total);
    }

    @PostMapping(path = "/{groupId}/offsets:reset", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Reset the group's committed offsets (group must be empty)",
        description = "Body {\"to\": \"earliest\"|\"latest\"|\"offset\"|\"timestamp\", \"offset\": N, \"timestamp\": ms, "
            + "\"topics\": [...]}: every partition of the named topics, or of the topics the group has offsets for. "
            + "Errors: 404 unknown group, 409 the group has members, 400 bad body, 40401 unknown topic.")
    public ResetOffsetsResponse resetOffsets(@PathVariable String clusterId, @PathVariable String groupId,
            @RequestBody ResetOffsetsRequest request) {
        admin.checkCluster(clusterId);
        admin.group(groupId);
        Set<String> topics = new LinkedHashSet<>();
        if (request.topics() != null && !request.topics().isEmpty()) {
            topics.addAll(request.topics());
        } else {
            admin.committedOffsets(groupId).keySet().forEach(tp -> topics.add(tp.topic()));
        }
        if (topics.isEmpty()) {
            throw RestError.BAD_REQUEST.exception("The group has no committed offsets: name the topics to reset");
        }
        Map<TopicPartition, Long> offsets = OffsetResetTargets.resolve(admin, topics, request);
        admin.resetOffsets(groupId, offsets);
        return new ResetOffsetsResponse(groupId, offsets.entrySet().stream()
            .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition)))
            .map(e -> new ResetOffset(e.getKey().topic(), e.getKey().partition(), e.getValue())).toList());
    }

    private static ConsumerGroup group(String clusterId, ConsumerGroupDescription group) {
        String path = "/consumer-groups/" + group.groupId();
        return new ConsumerGroup("KafkaConsumerGroup", V3Links.self(clusterId, path), clusterId, group.groupId(),
            group.isSimpleConsumerGroup(), group.partitionAssignor(), group.groupState().name(),
            group.coordinator() == null ? null : V3Links.related(clusterId, "/brokers/" + group.coordinator().id()),
            V3Links.related(clusterId, path + "/consumers"), V3Links.related(clusterId, path + "/lag-summary"));
    }
}
