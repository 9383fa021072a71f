package io.tributary.adminui.access;

import io.tributary.adminui.access.AccessViews.Acl;
import io.tributary.adminui.proxy.RestProxyClient;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/acls}: the ACLs page's list (the proxy's filters, Kafka's semantics: an absent field or ANY
 * matches all, pattern type MATCH finds what applies to a name), create, and delete by filter. The
 * brokers decide who may (DESCRIBE / ALTER on the cluster); their refusal is passed on as 403.
 */
@RestController
@RequestMapping("/api/acls")
public class AclsController {

    private final RestProxyClient cluster;
    private final AccessProxyClient proxy;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's ACL calls
     */
    public AclsController(RestProxyClient cluster, AccessProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** The ACLs matching the filter, sorted by resource, principal, operation. */
    @GetMapping
    public List<Acl> list(@RequestParam(required = false) String resourceType,
            @RequestParam(required = false) String resourceName, @RequestParam(required = false) String patternType,
            @RequestParam(required = false) String principal, @RequestParam(required = false) String host,
            @RequestParam(required = false) String operation, @RequestParam(required = false) String permission) {
        return proxy.acls(cluster.cluster().clusterId(), new Acl(resourceType, resourceName, patternType, principal,
            host, operation, permission));
    }

    /** Creates an ACL: 201; 400 (from the proxy) for a missing or unknown field. */
    @PostMapping
    public ResponseEntity<Acl> create(@RequestBody Acl acl) {
        proxy.createAcl(cluster.cluster().clusterId(), acl);
        return ResponseEntity.status(HttpStatus.CREATED).body(acl);
    }

    /**
     * Deletes the ACLs matching the filter; answers those deleted. A filter without a resource type is
     * refused (400), so that no request deletes every ACL by mistake; ANY is explicit.
     */
    @DeleteMapping
    public List<Acl> delete(@RequestParam(required = false) String resourceType,
            @RequestParam(required = false) String resourceName, @RequestParam(required = false) String patternType,
            @RequestParam(required = false) String principal, @RequestParam(required = false) String host,
            @RequestParam(required = false) String operation, @RequestParam(required = false) String permission) {
        if (resourceType == null || resourceType.isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "resourceType is required (ANY for every type)");
        }
        return proxy.deleteAcls(cluster.cluster().clusterId(), new Acl(resourceType, resourceName, patternType,
            principal, host, operation, permission));
    }
}
