package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.group.GroupConfigManager;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.apache.kafka.common.requests.ApiError;

/**
 * AlterConfigs (v0-2, the legacy API that KafkaJS, kafka-python and librdkafka's
 * {@code alter_configs} speak): replaces a resource's whole config set, as Kafka's ZooKeeper-mode
 * {@code ZkAdminManager.alterConfigs} does. For a topic, the given entries become its overrides and
 * every other key goes back to its default ({@link AdminManager#replaceTopicConfig}); an entry with a
 * null value is left out, as Kafka does; a topic resource without a name is INVALID_REQUEST
 * ("Default topic resources are not allowed."). For a broker (its id, or the empty name for every
 * broker) the entries replace its dynamic broker configs
 * ({@link io.tributary.broker.cluster.BrokerConfigManager#replace}); for a group the entries replace
 * its group configs ({@link GroupConfigManager#replace}); other resource types are INVALID_REQUEST.
 *
 * <p>Authorization first, as for IncrementalAlterConfigs: ALTER_CONFIGS on the topic
 * (TOPIC_AUTHORIZATION_FAILED), on the cluster for a broker (CLUSTER_AUTHORIZATION_FAILED), on the
 * group for a group (GROUP_AUTHORIZATION_FAILED).
 *
 * <p>Runs on a request handler thread (it reads and writes ZooKeeper).
 */
public final class AlterConfigsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final BrokerAuthorizer authorizer;
    private final RefusedRequestLog refusals;
    private final GroupConfigManager groupConfigs;

    public AlterConfigsHandler(AdminManager adminManager, GroupConfigManager groupConfigs, BrokerAuthorizer authorizer,
            RefusedRequestLog refusals) {
        super(ApiKeys.ALTER_CONFIGS, 0, 2);
        this.groupConfigs = groupConfigs;
        this.refusals = refusals;
        this.adminManager = adminManager;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        AlterConfigsRequestData request = ((AlterConfigsRequest) r).data();
        AlterConfigsResponseData response = new AlterConfigsResponseData().setThrottleTimeMs(0);
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            ApiError error = alter(context, resource, request.validateOnly());
            ConfigRefusals.log(refusals, context, resource.resourceType(), resource.resourceName(), error);
            response.responses().add(new AlterConfigsResponseData.AlterConfigsResourceResponse()
                .setResourceType(resource.resourceType()).setResourceName(resource.resourceName())
                .setErrorCode(error.error().code()).setErrorMessage(error.message()));
        }
        return Responses.completed(context, new AlterConfigsResponse(response));
    }

    /** The entries with a value; one with a null value is left out, as Kafka does. */
    private static Map<String, String> nonNull(AlterConfigsRequestData.AlterConfigsResource resource) {
        Map<String, String> configs = new LinkedHashMap<>();
        for (AlterConfigsRequestData.AlterableConfig config : resource.configs()) {
            if (config.value() != null) {
                configs.put(config.name(), config.value());
            }
        }
        return configs;
    }

    private ApiError alter(RequestContext context, AlterConfigsRequestData.AlterConfigsResource resource,
                           boolean validateOnly) {
        ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
        Errors denied = ConfigAuthorization.check(authorizer, context, AclOperation.ALTER_CONFIGS, type,
            resource.resourceName());
        if (denied != Errors.NONE) {
            return new ApiError(denied, denied.message());
        }
        return switch (type) {
            case TOPIC -> {
                if (resource.resourceName().isEmpty()) {
                    yield new ApiError(Errors.INVALID_REQUEST, "Default topic resources are not allowed.");
                }
                yield adminManager.replaceTopicConfig(resource.resourceName(), nonNull(resource), validateOnly);
            }
            case BROKER -> adminManager.brokerConfigs().replace(resource.resourceName(), nonNull(resource), validateOnly);
            case GROUP -> groupConfigs.replace(resource.resourceName(), nonNull(resource), validateOnly);
            default -> new ApiError(Errors.INVALID_REQUEST,
                "AlterConfigs is only supported for topics, brokers and groups, but resource type is " + type);
        };
    }
}
