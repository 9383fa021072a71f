package io.tributary.restproxy.forwarding;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Hidden;
import io.tributary.restproxy.consumer.ConsumerManager;
import io.tributary.restproxy.share.ShareInstanceManager;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** What proxy replicas ask each other to route consumer instance requests; not part of the public API. */
@Hidden
@RestController
public class InternalController {

    static final String REPLICA_PATH = "/internal/v1/replica";
    static final String INSTANCES_PATH = "/internal/v1/consumers/{group}/instances/{instance}";
    static final String SHARE_INSTANCES_PATH = "/internal/v1/share-groups/{group}/instances/{instance}";

    /** This replica's id. */
    public record ReplicaBody(@JsonProperty("replica_id") String replicaId) {
    }

    private final PeerDirectory directory;
    private final ConsumerManager consumers;
    private final ShareInstanceManager shareInstances;

    public InternalController(PeerDirectory directory, ConsumerManager consumers,
            ShareInstanceManager shareInstances) {
        this.directory = directory;
        this.consumers = consumers;
        this.shareInstances = shareInstances;
    }

    @GetMapping(REPLICA_PATH)
    public ReplicaBody replica() {
        return new ReplicaBody(directory.replicaId());
    }

    /** 200 when this replica holds the instance, 404 otherwise. */
    @GetMapping(INSTANCES_PATH)
    public ResponseEntity<Void> holds(@PathVariable String group, @PathVariable String instance) {
        return consumers.contains(group, instance) ? ResponseEntity.ok().build() : ResponseEntity.notFound().build();
    }

    /** 200 when this replica holds the share consumer instance, 404 otherwise. */
    @GetMapping(SHARE_INSTANCES_PATH)
    public ResponseEntity<Void> holdsShareInstance(@PathVariable String group, @PathVariable String instance) {
        return shareInstances.contains(group, instance) ? ResponseEntity.ok().build()
            : ResponseEntity.notFound().build();
    }
}
