package io.tributary.broker.api;

import io.tributary.broker.cluster.AdminManager;
import io.tributary.broker.group.GroupConfigManager;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;

/**
 * DescribeConfigs (v1-4): a topic's effective configs (overrides read from ZooKeeper, so a
 * change just made is seen; broker defaults; Kafka defaults; with synonyms and documentation
 * on request), or this broker's settings by their Kafka names (static, and the dynamic ones with
 * their values in effect), or the cluster-wide dynamic defaults (the empty broker name), or a group's
 * configs (KIP-848, KIP-932; {@link GroupConfigDescriber}; any group name, as Kafka, whether or not the
 * group exists; an empty name INVALID_REQUEST). Other resources get INVALID_REQUEST; an unknown topic
 * UNKNOWN_TOPIC_OR_PARTITION; another broker's id INVALID_REQUEST (ask that broker).
 *
 * <p>Authorization as Kafka's {@code ConfigHelper}: a topic needs DESCRIBE_CONFIGS on it (else
 * TOPIC_AUTHORIZATION_FAILED, whether or not it exists); a broker, broker logger or client-metrics
 * resource DESCRIBE_CONFIGS on the cluster (else CLUSTER_AUTHORIZATION_FAILED); a group
 * DESCRIBE_CONFIGS on the group (else GROUP_AUTHORIZATION_FAILED). A denied resource gets no configs.
 */
public final class DescribeConfigsHandler extends VersionedHandler {

    private final AdminManager adminManager;
    private final ConfigDescriber configDescriber;
    private final int brokerId;
    private final BrokerAuthorizer authorizer;
    private final GroupConfigManager groupConfigs;

    DescribeConfigsHandler(AdminManager adminManager, ConfigDescriber configDescriber, GroupConfigManager groupConfigs,
                           int brokerId, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_CONFIGS, 1, 4);
        this.groupConfigs = groupConfigs;
        this.adminManager = adminManager;
        this.configDescriber = configDescriber;
        this.brokerId = brokerId;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeConfigsRequest request = (DescribeConfigsRequest) r;
        DescribeConfigsRequestData data = request.data();
        DescribeConfigsResponseData response = new DescribeConfigsResponseData().setThrottleTimeMs(0);
        for (DescribeConfigsRequestData.DescribeConfigsResource resource : data.resources()) {
            DescribeConfigsResult result = new DescribeConfigsResult().setResourceType(resource.resourceType())
                .setResourceName(resource.resourceName()).setErrorCode(Errors.NONE.code());
            ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
            Errors denied = ConfigAuthorization.check(authorizer, context, AclOperation.DESCRIBE_CONFIGS, type, resource.resourceName());
            if (denied != Errors.NONE) {
                response.results().add(result.setErrorCode(denied.code()).setErrorMessage(denied.message())
                    .setConfigs(List.of()));
                continue;
            }
            try {
                if (type == ConfigResource.Type.TOPIC) {
                    java.util.Optional<java.util.Map<String, String>> overrides =
                        adminManager.topicConfigOverrides(resource.resourceName());
                    if (overrides.isEmpty()) {
                        result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                            .setErrorMessage("Topic " + resource.resourceName() + " does not exist");
                    } else {
                        result.setConfigs(configDescriber.topicConfigs(overrides.get(), resource.configurationKeys(),
                            data.includeSynonyms(), data.includeDocumentation()));
                    }
                } else if (type == ConfigResource.Type.BROKER) {
                    if (!resource.resourceName().isEmpty() && !resource.resourceName().equals(Integer.toString(brokerId))) {
                        result.setErrorCode(Errors.INVALID_REQUEST.code())
                            .setErrorMessage("Describe the configs of broker " + resource.resourceName() + " on that broker");
                    } else {
                        result.setConfigs(configDescriber.brokerConfigs(resource.resourceName().isEmpty(),
                            resource.configurationKeys(), data.includeSynonyms(),
                            data.includeDocumentation()));
                    }
                } else if (type == ConfigResource.Type.GROUP) {
                    if (resource.resourceName().isEmpty()) {
                        result.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage("Group name must not be empty");
                    } else {
                        result.setConfigs(GroupConfigDescriber.describe(groupConfigs.defaults(),
                            groupConfigs.overrides(resource.resourceName()), resource.configurationKeys(),
                            data.includeSynonyms(), data.includeDocumentation()));
                    }
                } else {
                    result.setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Configs of " + type + " resources are not supported");
                }
            } catch (org.apache.kafka.common.errors.ApiException e) {
                result.setErrorCode(Errors.forException(e).code()).setErrorMessage(e.getMessage());
            }
            response.results().add(result);
        }
        return Responses.completed(context, new DescribeConfigsResponse(response));
    }
}
