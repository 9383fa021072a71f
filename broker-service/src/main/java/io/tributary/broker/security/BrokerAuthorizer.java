package io.tributary.broker.security;

import io.tributary.broker.audit.RefusedRequestLog;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.metadata.authorizer.StandardAcl;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Decides whether a request's principal may do an operation on a resource, with Kafka's own
 * {@link StandardAuthorizer} (kafka-metadata) fed the ACLs this broker keeps from ZooKeeper: so
 * the rules are Kafka's to the letter (DENY wins over ALLOW; READ, WRITE, DELETE and ALTER imply
 * DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS; prefixed and wildcard patterns;
 * {@code super.users} may do anything; without a matching ACL only
 * {@code allow.everyone.if.no.acl.found} allows).
 *
 * <p>Without {@code authorizer.class.name} every request is allowed, as in Kafka. Names the
 * setting accepts: {@code org.apache.kafka.metadata.authorizer.StandardAuthorizer} and
 * {@code kafka.security.authorizer.AclAuthorizer} (Kafka 3's ZooKeeper-mode name), both this class.
 *
 * <p>A request whose client address is unknown (its connection already gone) is denied: host
 * ACLs could not be matched.
 *
 * <p>Thread-safe: ACL changes arrive from the ZooKeeper watch while network and request threads
 * authorize.
 */
public final class BrokerAuthorizer implements Closeable {

    /** The cluster resource's name, as in Kafka. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    private final StandardAuthorizer authorizer;
    private final RefusedRequestLog refusals;
    private final Map<AclBinding, Uuid> ids = new HashMap<>();

    private BrokerAuthorizer(StandardAuthorizer authorizer, RefusedRequestLog refusals) {
        this.authorizer = authorizer;
        this.refusals = refusals;
    }

    /** Allows everything: no {@code authorizer.class.name}. */
    public static BrokerAuthorizer allowAll() {
        return new BrokerAuthorizer(null, null);
    }

    /**
     * Kafka's authorizer with no ACLs yet; {@link #aclsChanged} loads them.
     *
     * @param superUsers                {@code super.users}: {@code User:a;User:b}
     * @param allowEveryoneIfNoAclFound {@code allow.everyone.if.no.acl.found}
     */
    public static BrokerAuthorizer standard(String superUsers, boolean allowEveryoneIfNoAclFound) {
        return standard(superUsers, allowEveryoneIfNoAclFound, null);
    }

    /**
     * As {@link #standard(String, boolean)}, logging denials of {@link #authorize} to {@code refusals}
     * (null: none).
     */
    public static BrokerAuthorizer standard(String superUsers, boolean allowEveryoneIfNoAclFound,
                                            RefusedRequestLog refusals) {
        StandardAuthorizer authorizer = new StandardAuthorizer();
        authorizer.withPluginMetrics(new PluginMetricsImpl(new Metrics(),
            Map.of("config", "authorizer.class.name", "class", StandardAuthorizer.class.getSimpleName())));
        authorizer.configure(Map.of(StandardAuthorizer.SUPER_USERS_CONFIG, superUsers == null ? "" : superUsers,
            StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG, String.valueOf(allowEveryoneIfNoAclFound)));
        authorizer.loadSnapshot(Map.of());
        authorizer.completeInitialLoad();
        return new BrokerAuthorizer(authorizer, refusals);
    }

    /**
     * The authorizer a broker's settings ask for.
     *
     * @throws IllegalArgumentException for an authorizer class this broker does not provide
     */
    public static BrokerAuthorizer fromSettings(String authorizerClassName, String superUsers,
                                                boolean allowEveryoneIfNoAclFound) {
        return fromSettings(authorizerClassName, superUsers, allowEveryoneIfNoAclFound, null);
    }

    /** As {@link #fromSettings(String, String, boolean)}, logging denials to {@code refusals} (null: none). */
    public static BrokerAuthorizer fromSettings(String authorizerClassName, String superUsers,
                                                boolean allowEveryoneIfNoAclFound, RefusedRequestLog refusals) {
        if (authorizerClassName == null || authorizerClassName.isBlank()) {
            return allowAll();
        }
        String name = authorizerClassName.strip();
        if (name.equals(StandardAuthorizer.class.getName()) || name.equals("kafka.security.authorizer.AclAuthorizer")) {
            return standard(superUsers, allowEveryoneIfNoAclFound, refusals);
        }
        throw new IllegalArgumentException("broker.authorizer-class-name " + name + " is not provided; use "
            + StandardAuthorizer.class.getName() + " (ACLs in ZooKeeper) or leave it empty (no authorization)");
    }

    /** Whether requests are checked at all. */
    public boolean enabled() {
        return authorizer != null;
    }

    /** Applies ACL changes (from the ZooKeeper-backed store). */
    public synchronized void aclsChanged(Collection<AclBinding> added, Collection<AclBinding> removed) {
        if (authorizer == null) {
            return;
        }
        for (AclBinding binding : removed) {
            Uuid id = ids.remove(binding);
            if (id != null) {
                authorizer.removeAcl(id);
            }
        }
        for (AclBinding binding : added) {
            if (!ids.containsKey(binding)) {
                Uuid id = Uuid.randomUuid();
                ids.put(binding, id);
                authorizer.addAcl(id, StandardAcl.fromAclBinding(binding));
            }
        }
    }

    /** Whether the request's principal may do {@code operation} on the named resource. */
    public boolean authorize(AuthorizableRequestContext context, AclOperation operation, ResourceType type, String name) {
        if (authorizer == null) {
            return true;
        }
        if (context.clientAddress() == null) {
            return false;
        }
        boolean allowed = authorizer.authorize(context, List.of(action(operation, type, name, true)))
            .get(0) == AuthorizationResult.ALLOWED;
        if (!allowed && refusals != null) {
            refusals.refused(RefusedRequestLog.Kind.AUTHORIZATION, context, "denied " + operation + " on " + type
                + " '" + name + "'");
        }
        return allowed;
    }

    /** Whether the request's principal may do {@code operation} on the cluster. */
    public boolean authorizeCluster(AuthorizableRequestContext context, AclOperation operation) {
        return authorize(context, operation, ResourceType.CLUSTER, CLUSTER_NAME);
    }

    /**
     * The names among {@code names} the principal may do {@code operation} on, in one call
     * ({@code logIfDenied} off: used to filter lists, where a hidden name is no denial).
     */
    public Set<String> filter(AuthorizableRequestContext context, AclOperation operation, ResourceType type,
                              Collection<String> names) {
        if (authorizer == null || names.isEmpty()) {
            return new LinkedHashSet<>(names);
        }
        if (context.clientAddress() == null) {
            return new LinkedHashSet<>();
        }
        List<String> ordered = new ArrayList<>(new LinkedHashSet<>(names));
        List<Action> actions = new ArrayList<>(ordered.size());
        for (String name : ordered) {
            actions.add(action(operation, type, name, false));
        }
        List<AuthorizationResult> results = authorizer.authorize(context, actions);
        Set<String> allowed = new LinkedHashSet<>();
        for (int i = 0; i < ordered.size(); i++) {
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                allowed.add(ordered.get(i));
            }
        }
        return allowed;
    }

    /**
     * The operations among {@code candidates} the principal may do on the named resource, in one
     * call and without logging either outcome (Kafka's {@code AuthHelper.authorizedOperations},
     * KIP-430: a report, not a request to do anything). Allow-all returns every candidate.
     */
    public Set<AclOperation> authorizedOperations(AuthorizableRequestContext context, ResourceType type, String name,
                                                  Collection<AclOperation> candidates) {
        if (authorizer == null || candidates.isEmpty()) {
            return new LinkedHashSet<>(candidates);
        }
        if (context.clientAddress() == null) {
            return new LinkedHashSet<>();
        }
        List<AclOperation> ordered = new ArrayList<>(new LinkedHashSet<>(candidates));
        List<Action> actions = new ArrayList<>(ordered.size());
        for (AclOperation operation : ordered) {
            actions.add(new Action(operation, new ResourcePattern(type, name, PatternType.LITERAL), 1, false, false));
        }
        List<AuthorizationResult> results = authorizer.authorize(context, actions);
        Set<AclOperation> allowed = new LinkedHashSet<>();
        for (int i = 0; i < ordered.size(); i++) {
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                allowed.add(ordered.get(i));
            }
        }
        return allowed;
    }

    /**
     * Whether the principal may do {@code operation} on some resource of {@code type}: an ALLOW
     * ACL on one without a DENY covering it (Kafka's {@code authorizeByResourceType}, KIP-679:
     * an idempotent producer with WRITE on any topic needs no IDEMPOTENT_WRITE on the cluster).
     */
    public boolean authorizeByResourceType(AuthorizableRequestContext context, AclOperation operation, ResourceType type) {
        if (authorizer == null) {
            return true;
        }
        if (context.clientAddress() == null) {
            return false;
        }
        return authorizer.authorizeByResourceType(context, operation, type) == AuthorizationResult.ALLOWED;
    }

    /** The ACLs the authorizer holds (for tests and DescribeAcls cross-checks). */
    public int aclCount() {
        return authorizer == null ? 0 : authorizer.aclCount();
    }

    private static Action action(AclOperation operation, ResourceType type, String name, boolean logIfDenied) {
        return new Action(operation, new ResourcePattern(type, name, PatternType.LITERAL), 1, true, logIfDenied);
    }

    @Override
    public void close() throws IOException {
        if (authorizer != null) {
            authorizer.close();
        }
    }
}
