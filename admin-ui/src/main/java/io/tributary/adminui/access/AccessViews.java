package io.tributary.adminui.access;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Bodies of the security pages' endpoints ({@code /api/acls}, {@code /api/users}, {@code /api/quotas},
 * {@code /api/access}). The ACL and quota records read the proxy's snake_case fields too, so they serve
 * both sides.
 */
public final class AccessViews {

    private AccessViews() {
    }

    /**
     * A Kafka ACL with Kafka's enum names.
     *
     * @param patternType LITERAL or PREFIXED (in filters also ANY and MATCH)
     * @param principal   e.g. {@code User:alice}
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Acl(@JsonAlias("resource_type") String resourceType, @JsonAlias("resource_name") String resourceName,
            @JsonAlias("pattern_type") String patternType, String principal, String host, String operation,
            String permission) {
    }

    /** A SCRAM credential: mechanism and iteration count (never a password). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Credential(String mechanism, int iterations) {
    }

    /** A SCRAM user and its credentials. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ScramUser(@JsonAlias("user_name") String name, List<Credential> credentials) {
    }

    /**
     * Body of {@code PUT /api/users/{name}}: sets the user's password for a mechanism (creating the user).
     * Its {@code toString} leaves the password out.
     *
     * @param mechanism  SCRAM-SHA-256 or SCRAM-SHA-512
     * @param iterations 4096..16384, null for 4096
     */
    public record SetPassword(String mechanism, String password, Integer iterations) {
        @Override
        public String toString() {
            return "SetPassword[mechanism=" + mechanism + ", iterations=" + iterations + "]";
        }
    }

    /** One part of a quota entity: type {@code user} or {@code client-id}; a null name is the type's default. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record EntityPart(@JsonAlias("entity_type") String type,
            @JsonAlias("entity_name") @JsonInclude(JsonInclude.Include.ALWAYS) String name) {
    }

    /** An entity's quota values by Kafka's names (producer_byte_rate, ...). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ClientQuota(List<EntityPart> entity, Map<String, Double> values) {
    }

    /** Body of {@code PUT /api/quotas}: values to set and names to remove on one entity. */
    public record AlterQuotas(List<EntityPart> entity, Map<String, Double> set, List<String> remove) {
    }

    /**
     * Whether the caller may use a security page, and if not, why (for the page to say).
     *
     * @param allowed whether the proxy answered the page's read for this user
     * @param reason  the proxy's refusal, null when allowed
     */
    public record PageAccess(boolean allowed, String reason) {
    }

    /** {@code GET /api/access}: which of the security pages the signed-in user may open. */
    public record Access(PageAccess acls, PageAccess users, PageAccess quotas) {
    }
}
