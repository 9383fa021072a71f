package io.tributary.adminui.access;

import io.tributary.adminui.access.AccessViews.Acl;
import io.tributary.adminui.access.AccessViews.ClientQuota;
import io.tributary.adminui.access.AccessViews.EntityPart;
import io.tributary.adminui.access.AccessViews.ScramUser;
import io.tributary.adminui.proxy.ProxyResources.ResourceList;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyConfiguration;
import io.tributary.adminui.proxy.RestProxyLocator;
import io.tributary.adminui.proxy.RestProxyProperties;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The REST proxy's v3 ACL (Confluent's), SCRAM user and client quota (Tributary's) calls, made as the
 * signed-in user. Errors as in {@link RestProxyClient}: the proxy's status and message, 502 when it
 * cannot be reached. Passwords go into request bodies only, never into URLs or logs. Thread-safe.
 */
@Component
public class AccessProxyClient {

    private final RestClient http;

    /**
     * @param properties the proxy's timeouts, as for {@link RestProxyClient}
     * @param locator    which proxy to call
     */
    public AccessProxyClient(RestProxyProperties properties, RestProxyLocator locator) {
        this.http = RestProxyConfiguration.restClient(properties, locator);
    }

    /** The ACLs matching {@code filter}'s non-null fields. */
    public List<Acl> acls(String clusterId, Acl filter) {
        Query query = aclQuery(clusterId, filter);
        return list(query.template(), query.variables(), new ParameterizedTypeReference<ResourceList<Acl>>() { });
    }

    /** Creates an ACL. */
    public void createAcl(String clusterId, Acl acl) {
        RestProxyClient.call(() -> http.post().uri("/v3/clusters/{c}/acls", clusterId)
            .contentType(MediaType.APPLICATION_JSON).body(snakeCase(acl)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** Deletes the ACLs matching {@code filter} (its resource type given); answers those deleted. */
    public List<Acl> deleteAcls(String clusterId, Acl filter) {
        Query query = aclQuery(clusterId, filter);
        ResourceList<Acl> deleted = RestProxyClient.call(() -> http.delete().uri(query.template(), query.variables())
            .retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail)
            .body(new ParameterizedTypeReference<ResourceList<Acl>>() { }));
        return deleted == null || deleted.data() == null ? List.of() : deleted.data();
    }

    /** Every SCRAM user with its mechanisms. */
    public List<ScramUser> users(String clusterId) {
        return list("/v3/clusters/{c}/scram-users", Map.of("c", clusterId),
            new ParameterizedTypeReference<ResourceList<ScramUser>>() { });
    }

    /** One user; the proxy's 404 when it has no credentials. */
    public ScramUser user(String clusterId, String name) {
        return RestProxyClient.call(() -> http.get().uri("/v3/clusters/{c}/scram-users/{u}", clusterId, name)
            .retrieve().onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(ScramUser.class));
    }

    /** Sets a user's password for one mechanism (creating the user when new). */
    public void setPassword(String clusterId, String name, String mechanism, String password, int iterations) {
        RestProxyClient.call(() -> http.put().uri("/v3/clusters/{c}/scram-users/{u}/credentials/{m}", clusterId, name,
                mechanism).contentType(MediaType.APPLICATION_JSON)
            .body(Map.of("password", password, "iterations", iterations)).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** Deletes every SCRAM credential of a user. */
    public void deleteUser(String clusterId, String name) {
        RestProxyClient.call(() -> http.delete().uri("/v3/clusters/{c}/scram-users/{u}", clusterId, name).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** The quotas of every entity, or of those with the user / client id given ({@code <default>} for defaults). */
    public List<ClientQuota> quotas(String clusterId, String user, String clientId) {
        Query query = new Query("/v3/clusters/{c}/client-quotas", clusterId);
        query.param("user", user);
        query.param("client_id", clientId);
        return list(query.template(), query.variables(),
            new ParameterizedTypeReference<ResourceList<ClientQuota>>() { });
    }

    /** Sets and removes quota values of one entity. */
    public void alterQuotas(String clusterId, List<EntityPart> entity, Map<String, Double> set, List<String> remove) {
        List<Map<String, String>> parts = entity.stream().map(p -> {
            Map<String, String> part = new LinkedHashMap<>();
            part.put("entity_type", p.type());
            part.put("entity_name", p.name());
            return part;
        }).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("entity", parts);
        body.put("set", set);
        body.put("remove", remove);
        RestProxyClient.call(() -> http.post().uri("/v3/clusters/{c}/client-quotas:alter", clusterId)
            .contentType(MediaType.APPLICATION_JSON).body(body).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).toBodilessEntity());
    }

    /** A URI template with a variable per query parameter, so that values are encoded once. */
    private static final class Query {
        private final StringBuilder template;
        private final Map<String, Object> variables = new LinkedHashMap<>();

        Query(String path, String clusterId) {
            template = new StringBuilder(path);
            variables.put("c", clusterId);
        }

        void param(String name, String value) {
            if (value != null && !value.isBlank()) {
                template.append(variables.size() == 1 ? '?' : '&').append(name).append("={").append(name).append('}');
                variables.put(name, value.strip());
            }
        }

        String template() {
            return template.toString();
        }

        Map<String, Object> variables() {
            return variables;
        }
    }

    private static Query aclQuery(String clusterId, Acl filter) {
        Query query = new Query("/v3/clusters/{c}/acls", clusterId);
        query.param("resource_type", filter.resourceType());
        query.param("resource_name", filter.resourceName());
        query.param("pattern_type", filter.patternType());
        query.param("principal", filter.principal());
        query.param("host", filter.host());
        query.param("operation", filter.operation());
        query.param("permission", filter.permission());
        return query;
    }

    private static Map<String, String> snakeCase(Acl acl) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("resource_type", acl.resourceType());
        body.put("resource_name", acl.resourceName());
        body.put("pattern_type", acl.patternType());
        body.put("principal", acl.principal());
        body.put("host", acl.host());
        body.put("operation", acl.operation());
        body.put("permission", acl.permission());
        return body;
    }

    private <T> List<T> list(String template, Map<String, ?> variables,
            ParameterizedTypeReference<ResourceList<T>> type) {
        ResourceList<T> list = RestProxyClient.call(() -> http.get().uri(template, variables).retrieve()
            .onStatus(HttpStatusCode::isError, RestProxyClient::fail).body(type));
        return list == null || list.data() == null ? List.of() : list.data();
    }
}
