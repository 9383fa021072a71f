package io.tributary.adminui.access;

import io.tributary.adminui.access.AccessViews.ScramUser;
import io.tributary.adminui.access.AccessViews.SetPassword;
import io.tributary.adminui.proxy.RestProxyClient;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/users}: the SCRAM users page. Lists users with their mechanisms and iteration counts,
 * sets a password (creating a user, or changing its password), deletes a user. Passwords pass
 * through to the proxy in a request body; they are never answered nor logged.
 */
@RestController
@RequestMapping("/api/users")
public class ScramUsersController {

    private static final Set<String> MECHANISMS = Set.of("SCRAM-SHA-256", "SCRAM-SHA-512");

    private final RestProxyClient cluster;
    private final AccessProxyClient proxy;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's SCRAM user calls
     */
    public ScramUsersController(RestProxyClient cluster, AccessProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** Every SCRAM user, sorted by name. */
    @GetMapping
    public List<ScramUser> list() {
        return proxy.users(cluster.cluster().clusterId());
    }

    /**
     * Sets the user's password for a mechanism; answers the user as it is now (mechanisms only). 400 for
     * an empty name or password or an unknown mechanism; the proxy's 400 for iterations out of bounds.
     */
    @PutMapping("/{name}")
    public ScramUser setPassword(@PathVariable String name, @RequestBody SetPassword request) {
        String mechanism = request.mechanism() == null ? "" : request.mechanism().strip().toUpperCase(Locale.ROOT);
        if (name.isBlank() || request.password() == null || request.password().isEmpty()
                || !MECHANISMS.contains(mechanism)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "a user name, a password and a mechanism (SCRAM-SHA-256 or SCRAM-SHA-512) are needed");
        }
        String clusterId = cluster.cluster().clusterId();
        proxy.setPassword(clusterId, name, mechanism, request.password(),
            request.iterations() == null ? 4096 : request.iterations());
        return proxy.user(clusterId, name);
    }

    /** Deletes every SCRAM credential of the user: 204; the proxy's 404 when it has none. */
    @DeleteMapping("/{name}")
    public ResponseEntity<Void> delete(@PathVariable String name) {
        proxy.deleteUser(cluster.cluster().clusterId(), name);
        return ResponseEntity.noContent().build();
    }
}
