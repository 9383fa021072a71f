package io.tributary.restproxy.v3;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.v3.ScramUsersAdmin.ScramUser;
import io.tributary.restproxy.v3.V3Resources.Metadata;
import io.tributary.restproxy.v3.V3Resources.ResourceList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * SCRAM users over HTTP: Tributary's own endpoints (the Confluent REST Proxy has none), over
 * DescribeUserScramCredentials / AlterUserScramCredentials. A user's credentials are listed as
 * mechanism and iterations only; passwords are write-only.
 */
@RestController
@RequestMapping(path = "/v3/clusters/{clusterId}/scram-users", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "SCRAM users (v3, Tributary)",
    description = "Tributary's own: SCRAM users and their mechanisms, set a password, delete (not in Confluent's API)")
public class V3ScramUsersController {

    /** A SCRAM credential: its mechanism and iteration count. */
    public record Credential(String mechanism, int iterations) {
    }

    /** {@code KafkaScramUser}: a user and its credentials. */
    public record User(String kind, Metadata metadata, @JsonProperty("cluster_id") String clusterId,
            @JsonProperty("user_name") String userName, List<Credential> credentials) {
    }

    private final ClusterAdmin cluster;
    private final ScramUsersAdmin users;

    public V3ScramUsersController(ClusterAdmin cluster, ScramUsersAdmin users) {
        this.cluster = cluster;
        this.users = users;
    }

    @GetMapping
    @Operation(summary = "List SCRAM users (Tributary)",
        description = "Every user with SCRAM credentials, with each mechanism and iteration count. Needs DESCRIBE on "
            + "the cluster.")
    public ResourceList<User> list(@PathVariable String clusterId) {
        cluster.checkCluster(clusterId);
        return new ResourceList<>("KafkaScramUserList", V3Links.self(clusterId, "/scram-users"),
            users.users().stream().map(u -> view(clusterId, u)).toList());
    }

    @GetMapping("/{user}")
    @Operation(summary = "Describe a SCRAM user (Tributary)", description = "Errors: 404 no SCRAM credential.")
    public User user(@PathVariable String clusterId, @PathVariable String user) {
        cluster.checkCluster(clusterId);
        return view(clusterId, users.user(user));
    }

    @PutMapping(path = "/{user}/credentials/{mechanism}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a SCRAM user's password (Tributary)",
        description = "Body {\"password\", \"iterations\" (4096..16384, default 4096)}; creates the user when new, "
            + "else replaces the credential of that mechanism (SCRAM-SHA-256 or SCRAM-SHA-512). 204. Needs ALTER on "
            + "the cluster. The password is never answered nor logged.")
    public ResponseEntity<Void> upsert(@PathVariable String clusterId, @PathVariable String user,
            @PathVariable String mechanism, @RequestBody JsonNode body) {
        cluster.checkCluster(clusterId);
        JsonNode password = body == null ? null : body.get("password");
        JsonNode iterations = body == null ? null : body.get("iterations");
        if (password == null || !password.isString() || password.asString().isEmpty()) {
            throw RestError.BAD_REQUEST.exception("password must be a non-empty string");
        }
        if (iterations != null && !iterations.isNull() && !iterations.isIntegralNumber()) {
            throw RestError.BAD_REQUEST.exception("iterations must be an integer");
        }
        if (user.isBlank()) {
            throw RestError.BAD_REQUEST.exception("the user name must not be blank");
        }
        users.upsert(user, mechanism(mechanism),
            iterations == null || iterations.isNull() ? ScramUsersAdmin.MIN_ITERATIONS : iterations.asInt(),
            password.asString());
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/{user}/credentials/{mechanism}")
    @Operation(summary = "Delete one SCRAM credential of a user (Tributary)", description = "204; 404 none.")
    public ResponseEntity<Void> deleteCredential(@PathVariable String clusterId, @PathVariable String user,
            @PathVariable String mechanism) {
        cluster.checkCluster(clusterId);
        users.delete(user, mechanism(mechanism));
        return ResponseEntity.noContent().build();
    }

    @DeleteMapping("/{user}")
    @Operation(summary = "Delete a SCRAM user (Tributary)", description = "Deletes all its credentials. 204; 404 none.")
    public ResponseEntity<Void> delete(@PathVariable String clusterId, @PathVariable String user) {
        cluster.checkCluster(clusterId);
        users.delete(user);
        return ResponseEntity.noContent().build();
    }

    private static ScramMechanism mechanism(String name) {
        ScramMechanism mechanism = ScramMechanism.fromMechanismName(name.strip().toUpperCase(Locale.ROOT));
        if (mechanism == ScramMechanism.UNKNOWN) {
            throw RestError.BAD_REQUEST.exception("mechanism must be SCRAM-SHA-256 or SCRAM-SHA-512");
        }
        return mechanism;
    }

    private static User view(String clusterId, ScramUser user) {
        return new User("KafkaScramUser", V3Links.self(clusterId, "/scram-users/" + user.name()), clusterId,
            user.name(), user.credentials().stream()
                .map(c -> new Credential(c.mechanism().mechanismName(), c.iterations())).toList());
    }
}
