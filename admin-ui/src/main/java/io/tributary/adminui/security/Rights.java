package io.tributary.adminui.security;

import io.tributary.adminui.proxy.RestProxyClient;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.server.ResponseStatusException;

/**
 * What the signed-in user may do, as the brokers' ACLs say through the REST proxy's
 * {@code authorized_operations} (Kafka ACL operation names: WRITE to produce, DELETE to delete a
 * topic, ALTER to add partitions, ALTER_CONFIGS to change configs, CREATE on the cluster to create
 * topics). With sign-in on, the API refuses (403) what the user may not do before asking the proxy
 * to do it, as the pages hide those controls; with sign-in off there is no user, and the proxy's
 * own answer decides. A proxy that does not report operations (null) refuses nothing here.
 * Thread-safe. Wired by {@link SecurityConfiguration}.
 */
public class Rights {

    private final boolean enforced;
    private final RestProxyClient proxy;

    /** Enforced when {@code admin-ui.authentication.method} signs users in. */
    public Rights(AuthenticationProperties properties, RestProxyClient proxy) {
        this(properties.signInRequired(), proxy);
    }

    private Rights(boolean enforced, RestProxyClient proxy) {
        this.enforced = enforced;
        this.proxy = proxy;
    }

    /** Rights that refuse nothing (sign-in off), for tests that wire controllers by hand. */
    public static Rights unenforced() {
        return new Rights(false, null);
    }

    /** Whether {@code operations} (null: not reported) allow {@code operation}. */
    public static boolean allows(List<String> operations, String operation) {
        return operations == null || operations.contains(operation) || operations.contains("ALL");
    }

    /**
     * Refuses with 403 unless the user may do {@code operation} on {@code topic}; a topic the user may
     * not see is the proxy's 404.
     *
     * @param action what the user tried, for the message ("produce to")
     */
    public void requireTopic(String topic, String operation, String action) {
        if (!enforced) {
            return;
        }
        List<String> operations = proxy.topic(proxy.cluster().clusterId(), topic).authorizedOperations();
        if (!allows(operations, operation)) {
            throw forbidden("may not " + action + " topic " + topic + " (it needs " + operation
                + " on the topic)");
        }
    }

    /** Refuses with 403 unless the user may do {@code operation} on the cluster. */
    public void requireCluster(String operation, String action) {
        if (!enforced) {
            return;
        }
        if (!allows(proxy.clusterOperations(proxy.cluster().clusterId()), operation)) {
            throw forbidden("may not " + action + " (it needs " + operation + " on the cluster)");
        }
    }

    /**
     * Refuses with 403 unless {@code operations}, the caller's operations on a resource as the proxy
     * reported them (null: not reported), allow {@code operation}.
     *
     * @param what what the user tried, for the message ("delete share group g1")
     */
    public void require(List<String> operations, String operation, String what) {
        if (enforced && !allows(operations, operation)) {
            throw forbidden("may not " + what + " (it needs " + operation + ")");
        }
    }

    private static ResponseStatusException forbidden(String what) {
        Authentication user = SecurityContextHolder.getContext().getAuthentication();
        return new ResponseStatusException(HttpStatus.FORBIDDEN,
            (user == null ? "You" : "You (" + user.getName() + ")") + " " + what);
    }
}
