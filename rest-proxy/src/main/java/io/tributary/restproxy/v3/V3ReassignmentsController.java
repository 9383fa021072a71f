package io.tributary.restproxy.v3;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.ReassignmentsAdmin.Ongoing;
import io.tributary.restproxy.v3.V3BrokerResources.Reassignment;
import io.tributary.restproxy.v3.V3BrokerResources.ReplicaProgress;
import io.tributary.restproxy.v3.V3BrokerResources.StartReassignmentRequest;
import io.tributary.restproxy.v3.V3BrokerResources.TargetReplicas;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.springframework.http.HttpStatus;
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
 * v3 partition reassignments: listing the ongoing ones as Confluent's {@code KafkaReassignment}
 * (with their progress added), and, beyond Confluent's API, starting and cancelling them as
 * {@code kafka-reassign-partitions --execute [--throttle]} and {@code --cancel} do.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/topics", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Reassignments (v3)", description = "Ongoing partition reassignments; start and cancel are Tributary's")
public class V3ReassignmentsController {

    private final ClusterAdmin cluster;
    private final ReassignmentsAdmin reassignments;

    public V3ReassignmentsController(ClusterAdmin cluster, ReassignmentsAdmin reassignments) {
        this.cluster = cluster;
        this.reassignments = reassignments;
    }

    @GetMapping("/-/partitions/-/reassignment")
    @Operation(summary = "List every ongoing reassignment", description = "As Confluent's, with target_replica_ids (the "
        + "replicas once done), isr_ids, leader_id and progress: each added replica's bytes on disk against the leader's and "
        + "whether it joined the ISR (sizes null without DESCRIBE on the cluster). Errors: 404 unknown cluster.")
    public ResourceList<Reassignment> all(@PathVariable String clusterId) {
        cluster.checkCluster(clusterId);
        return list(clusterId, "/topics/-/partitions/-/reassignment", reassignments.ongoing(Optional.empty()));
    }

    @GetMapping("/{topic}/partitions/-/reassignment")
    @Operation(summary = "List a topic's ongoing reassignments", description = "Errors: 404 unknown cluster.")
    public ResourceList<Reassignment> ofTopic(@PathVariable String clusterId, @PathVariable String topic) {
        cluster.checkCluster(clusterId);
        return list(clusterId, "/topics/" + topic + "/partitions/-/reassignment",
            reassignments.ongoing(Optional.of(topic)));
    }

    @GetMapping("/{topic}/partitions/{partitionId}/reassignment")
    @Operation(summary = "Get a partition's ongoing reassignment", description = "Errors: 404 none in progress.")
    public Reassignment ofPartition(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable int partitionId) {
        cluster.checkCluster(clusterId);
        return reassignments.ongoing(Optional.of(topic)).stream().filter(r -> r.partition().partition() == partitionId)
            .findFirst().map(r -> reassignment(clusterId, r))
            .orElseThrow(() -> RestError.NOT_FOUND.exception("No reassignment of " + topic + "-" + partitionId
                + " is in progress."));
    }

    @PostMapping(path = "/-/partitions/-/reassignment", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Start reassignments (Tributary; Confluent has none)",
        description = "Body {\"partitions\": [{\"topic_name\", \"partition_id\", \"replica_ids\": [target brokers, the "
            + "preferred leader first]}], \"throttle_bytes_per_second\": optional}. With a throttle, as "
            + "kafka-reassign-partitions --throttle: leader/follower.replication.throttled.rate on the brokers "
            + "involved and leader/follower.replication.throttled.replicas on the topics, cleared once the topics' "
            + "reassignments are over. Answers 202; GET the list for progress. Needs ALTER on the cluster (and "
            + "ALTER_CONFIGS with a throttle). Errors: 40401 unknown topic, 400 bad partition or replicas.")
    public ResponseEntity<Void> start(@PathVariable String clusterId, @RequestBody StartReassignmentRequest request) {
        cluster.checkCluster(clusterId);
        if (request.partitions() == null || request.partitions().isEmpty()) {
            throw RestError.BAD_REQUEST.exception("partitions is required");
        }
        Map<TopicPartition, List<Integer>> targets = new LinkedHashMap<>();
        for (TargetReplicas target : request.partitions()) {
            if (target == null || target.topicName() == null || target.topicName().isBlank()
                    || target.partitionId() == null || target.replicaIds() == null || target.replicaIds().isEmpty()) {
                throw RestError.BAD_REQUEST.exception("Every partition needs topic_name, partition_id and replica_ids");
            }
            if (targets.put(new TopicPartition(target.topicName(), target.partitionId()),
                    List.copyOf(target.replicaIds())) != null) {
                throw RestError.BAD_REQUEST.exception(target.topicName() + "-" + target.partitionId() + " twice");
            }
        }
        Long throttle = request.throttleBytesPerSecond();
        if (throttle != null && throttle <= 0) {
            throw RestError.BAD_REQUEST.exception("throttle_bytes_per_second must be positive");
        }
        reassignments.start(targets, throttle == null ? OptionalLong.empty() : OptionalLong.of(throttle));
        return ResponseEntity.status(HttpStatus.ACCEPTED).build();
    }

    @DeleteMapping("/{topic}/partitions/{partitionId}/reassignment")
    @Operation(summary = "Cancel a partition's reassignment (Tributary; Confluent has none)",
        description = "As kafka-reassign-partitions --cancel: the partition goes back to its replicas before it, and "
            + "throttles no longer needed are cleared. Errors: 404 none in progress, 40401 unknown topic.")
    public ResponseEntity<Void> cancel(@PathVariable String clusterId, @PathVariable String topic,
            @PathVariable int partitionId) {
        cluster.checkCluster(clusterId);
        reassignments.cancel(new TopicPartition(topic, partitionId));
        return ResponseEntity.noContent().build();
    }

    private static ResourceList<Reassignment> list(String clusterId, String path, List<Ongoing> ongoing) {
        return new ResourceList<>("KafkaReassignmentList", V3Links.self(clusterId, path),
            ongoing.stream().map(r -> reassignment(clusterId, r)).toList());
    }

    private static Reassignment reassignment(String clusterId, Ongoing r) {
        String path = "/topics/" + r.partition().topic() + "/partitions/" + r.partition().partition();
        List<ReplicaProgress> progress = r.progress().stream().map(p -> new ReplicaProgress(p.brokerId(),
            boxed(p.sizeBytes()), boxed(p.leaderSizeBytes()), p.inSync())).toList();
        return new Reassignment("KafkaReassignment", V3Links.self(clusterId, path + "/reassignment"), clusterId,
            r.partition().topic(), r.partition().partition(), r.reassignment().addingReplicas(),
            r.reassignment().removingReplicas(), V3Links.related(clusterId, path + "/replicas"),
            r.reassignment().replicas().stream().filter(b -> !r.reassignment().removingReplicas().contains(b)).toList(),
            r.isr(), r.leader(), progress);
    }

    private static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
