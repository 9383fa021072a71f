package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.group.GroupConfigManager;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;

/**
 * IncrementalAlterConfigs (v0-1, KIP-339): SET, DELETE, APPEND and SUBTRACT on topic configs,
 * validated like CreateTopics, and on dynamic broker configs (a broker's id, or the empty name for
 * every broker; {@link io.tributary.broker.cluster.BrokerConfigManager}), and on group configs
 * (KIP-848, KIP-932; {@link GroupConfigManager}), stored in ZooKeeper, from where every broker
 * applies them. Other resource types get INVALID_REQUEST.
 *
 * <p>Authorization before anything else, as Kafka: a topic needs ALTER_CONFIGS on it (else
 * TOPIC_AUTHORIZATION_FAILED, whether or not it exists); a broker, broker logger or client-metrics
 * resource ALTER_CONFIGS on the cluster (else CLUSTER_AUTHORIZATION_FAILED); a group ALTER_CONFIGS
 * on the group (else GROUP_AUTHORIZATION_FAILED).
 */
public final class IncrementalAlterConfigsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final BrokerAuthorizer authorizer;
    private final RefusedRequestLog refusals;
    private final GroupConfigManager groupConfigs;

    public IncrementalAlterConfigsHandler(AdminManager adminManager, GroupConfigManager groupConfigs,
            BrokerAuthorizer authorizer, RefusedRequestLog refusals) {
        super(ApiKeys.INCREMENTAL_ALTER_CONFIGS, 0, 1);
        this.groupConfigs = groupConfigs;
        this.refusals = refusals;
        this.adminManager = adminManager;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        IncrementalAlterConfigsRequest request = (IncrementalAlterConfigsRequest) r;
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData().setThrottleTimeMs(0);
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource resource : request.data().resources()) {
            ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
            ApiError error;
            Errors denied = ConfigAuthorization.check(authorizer, context, AclOperation.ALTER_CONFIGS, type,
                resource.resourceName());
            if (denied != Errors.NONE) {
                error = new ApiError(denied, denied.message());
            } else if (type == ConfigResource.Type.TOPIC || type == ConfigResource.Type.BROKER
                    || type == ConfigResource.Type.GROUP) {
                List<AdminManager.ConfigChange> changes = new ArrayList<>();
                for (IncrementalAlterConfigsRequestData.AlterableConfig config : resource.configs()) {
                    AlterConfigOp.OpType op = AlterConfigOp.OpType.forId(config.configOperation());
                    if (op == null) {
                        changes = null;
                        break;
                    }
                    changes.add(new AdminManager.ConfigChange(config.name(), op, config.value()));
                }
                error = changes == null ? new ApiError(Errors.INVALID_REQUEST, "Unknown config operation")
                    : switch (type) {
                        case TOPIC -> adminManager.alterTopicConfig(resource.resourceName(), changes,
                            request.data().validateOnly());
                        case GROUP -> groupConfigs.alter(resource.resourceName(), changes, request.data().validateOnly());
                        default -> adminManager.brokerConfigs().alter(resource.resourceName(), changes,
                            request.data().validateOnly());
                    };
            } else {
                error = new ApiError(Errors.INVALID_REQUEST, "Configs of " + type + " resources are not supported");
            }
            ConfigRefusals.log(refusals, context, resource.resourceType(), resource.resourceName(), error);
            response.responses().add(new AlterConfigsResourceResponse().setResourceType(resource.resourceType())
                .setResourceName(resource.resourceName()).setErrorCode(error.error().code()).setErrorMessage(error.message()));
        }
        return Responses.completed(context, new IncrementalAlterConfigsResponse(response));
    }
}
