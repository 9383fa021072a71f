package io.tributary.adminui.access;

import io.tributary.adminui.access.AccessViews.Access;
import io.tributary.adminui.access.AccessViews.Acl;
import io.tributary.adminui.access.AccessViews.PageAccess;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/access}: which security pages the caller may open, found by asking the proxy, as
 * the caller, for a read of each that matches next to nothing (ACLs of one made-up principal, one
 * made-up SCRAM user, quotas of one made-up user). A refusal (403: no DESCRIBE / DESCRIBE_CONFIGS on
 * the cluster) or any other error (brokers without an authorizer) hides the page, with the proxy's
 * message as the reason; a 404 of the made-up user means the read was allowed (a 404 of the
 * others: a proxy without those endpoints).
 */
@RestController
public class AccessController {

    /** A name no one has, asked for so that the answer is small. */
    static final String PROBE = "tributary-admin-ui-access-check";

    private final RestProxyClient cluster;
    private final AccessProxyClient proxy;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's security calls
     */
    public AccessController(RestProxyClient cluster, AccessProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** The caller's access to the ACLs, SCRAM users and client quotas pages. */
    @GetMapping("/api/access")
    public Access access() {
        String clusterId = cluster.cluster().clusterId();
        return new Access(
            check(() -> proxy.acls(clusterId, new Acl(null, null, null, "User:" + PROBE, null, null, null)), false),
            check(() -> proxy.user(clusterId, PROBE), true),
            check(() -> proxy.quotas(clusterId, PROBE, null), false));
    }

    /** @param notFoundIsAllowed whether a 404 answers the made-up name (allowed), not a missing endpoint */
    private static PageAccess check(Runnable read, boolean notFoundIsAllowed) {
        try {
            read.run();
            return new PageAccess(true, null);
        } catch (RestProxyException e) {
            return e.status() == 404 && notFoundIsAllowed ? new PageAccess(true, null)
                : new PageAccess(false, e.getMessage());
        }
    }
}
