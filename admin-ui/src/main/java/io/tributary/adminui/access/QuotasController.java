package io.tributary.adminui.access;

import io.tributary.adminui.access.AccessViews.AlterQuotas;
import io.tributary.adminui.access.AccessViews.ClientQuota;
import io.tributary.adminui.proxy.RestProxyClient;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/quotas}: the client quotas page. Lists every entity's quotas (users, client ids, their
 * defaults) and sets / removes values of one entity in one call.
 */
@RestController
@RequestMapping("/api/quotas")
public class QuotasController {

    private final RestProxyClient cluster;
    private final AccessProxyClient proxy;

    /**
     * @param cluster the proxy client that knows the cluster id
     * @param proxy   the proxy's client quota calls
     */
    public QuotasController(RestProxyClient cluster, AccessProxyClient proxy) {
        this.cluster = cluster;
        this.proxy = proxy;
    }

    /** The quotas of every entity, or of those of the user / client id given ({@code <default>}: the default). */
    @GetMapping
    public List<ClientQuota> list(@RequestParam(required = false) String user,
            @RequestParam(required = false) String clientId) {
        return proxy.quotas(cluster.cluster().clusterId(), blankToNull(user), blankToNull(clientId));
    }

    /** Sets and removes values of one entity: 204; 400 when it names no entity or changes nothing. */
    @PutMapping
    public ResponseEntity<Void> alter(@RequestBody AlterQuotas request) {
        Map<String, Double> set = request.set() == null ? Map.of() : request.set();
        List<String> remove = request.remove() == null ? List.of() : request.remove();
        if (request.entity() == null || request.entity().isEmpty() || (set.isEmpty() && remove.isEmpty())) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "name an entity (user and/or client id) and a value to set or remove");
        }
        proxy.alterQuotas(cluster.cluster().clusterId(), request.entity(), set, remove);
        return ResponseEntity.noContent().build();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
