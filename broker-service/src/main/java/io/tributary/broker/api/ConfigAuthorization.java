package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.security.BrokerAuthorizer;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Which ACL resource guards a config resource, and the error a denial gets, as Kafka's
 * {@code ConfigHelper} and {@code ControllerApis.authorizeAlterResource}: broker, broker-logger and
 * client-metrics configs are the cluster's (CLUSTER_AUTHORIZATION_FAILED), topic configs the
 * topic's (TOPIC_AUTHORIZATION_FAILED), group configs the group's (GROUP_AUTHORIZATION_FAILED).
 */
final class ConfigAuthorization {

    private ConfigAuthorization() {
    }

    /**
     * @param operation DESCRIBE_CONFIGS or ALTER_CONFIGS
     * @return NONE when allowed, else the resource type's authorization error; NONE for a type
     *         no ACL guards (UNKNOWN), which the handler rejects on its own
     */
    static Errors check(BrokerAuthorizer authorizer, RequestContext context, AclOperation operation,
                        ConfigResource.Type type, String name) {
        return switch (type) {
            case BROKER, BROKER_LOGGER, CLIENT_METRICS -> authorizer.authorizeCluster(context, operation)
                ? Errors.NONE : Errors.CLUSTER_AUTHORIZATION_FAILED;
            case TOPIC -> authorizer.authorize(context, operation, ResourceType.TOPIC, name)
                ? Errors.NONE : Errors.TOPIC_AUTHORIZATION_FAILED;
            case GROUP -> authorizer.authorize(context, operation, ResourceType.GROUP, name)
                ? Errors.NONE : Errors.GROUP_AUTHORIZATION_FAILED;
            default -> Errors.NONE;
        };
    }
}
