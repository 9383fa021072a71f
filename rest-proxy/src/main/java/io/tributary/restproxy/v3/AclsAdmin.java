package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.error.KafkaFutures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteAclsResult.FilterResults;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.springframework.stereotype.Service;

/**
 * The Admin client's ACL operations behind the v3 ACL API: DescribeAcls, CreateAcls and DeleteAcls
 * with Kafka's {@link AclBindingFilter} semantics (ANY matches every value; pattern type MATCH matches
 * the literal name, the wildcard {@code *} and every prefix of the name). The brokers authorize them:
 * DESCRIBE on the cluster to list, ALTER to create or delete. Knows nothing of HTTP. Thread-safe.
 */
@Service
public class AclsAdmin {

    /** Sort order of answers: resource type, name, pattern type, principal, host, operation, permission. */
    static final Comparator<AclBinding> ORDER = Comparator
        .comparing((AclBinding b) -> b.pattern().resourceType().name())
        .thenComparing(b -> b.pattern().name())
        .thenComparing(b -> b.pattern().patternType().name())
        .thenComparing(b -> b.entry().principal())
        .thenComparing(b -> b.entry().host())
        .thenComparing(b -> b.entry().operation().name())
        .thenComparing(b -> b.entry().permissionType().name());

    private final Admin admin;

    public AclsAdmin(Admin admin) {
        this.admin = admin;
    }

    /** The ACLs matching {@code filter}, sorted by {@link #ORDER}. */
    public List<AclBinding> describe(AclBindingFilter filter) {
        List<AclBinding> found = new ArrayList<>(KafkaFutures.get(admin.describeAcls(filter).values()));
        found.sort(ORDER);
        return found;
    }

    /** Creates the ACLs, all or (if the brokers refuse one) the others only; the first failure is thrown. */
    public void create(Collection<AclBinding> acls) {
        KafkaFutures.get(admin.createAcls(acls).all());
    }

    /** Deletes the ACLs matching {@code filter}; answers those deleted, sorted by {@link #ORDER}. */
    public List<AclBinding> delete(AclBindingFilter filter) {
        FilterResults result = KafkaFutures.get(admin.deleteAcls(List.of(filter)).values().get(filter));
        List<AclBinding> deleted = new ArrayList<>();
        for (var each : result.values()) {
            if (each.exception() != null) {
                throw KafkaErrors.wrap(each.exception());
            }
            deleted.add(each.binding());
        }
        deleted.sort(ORDER);
        return deleted;
    }
}
