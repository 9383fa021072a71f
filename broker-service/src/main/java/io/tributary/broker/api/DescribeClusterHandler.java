package io.tributary.broker.api;

import io.tributary.broker.cluster.BrokerInfo;
import io.tributary.broker.cluster.MetadataCache;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;

/**
 * DescribeCluster (v0-2, KIP-700): the cluster id, the controller and the live brokers on the
 * request's listener. Asking for controller end points (KIP-919) gets UNSUPPORTED_ENDPOINT_TYPE,
 * as from a Kafka broker. Not gated by the authorizer, as in Kafka; the cluster's authorized
 * operations, when asked for, are those the principal's ACLs allow, or none without DESCRIBE on
 * the cluster.
 */
public final class DescribeClusterHandler extends VersionedHandler {

    private static final byte BROKER_ENDPOINTS = 1;

    private final MetadataCache metadataCache;
    private final BrokerAuthorizer authorizer;

    public DescribeClusterHandler(MetadataCache metadataCache, BrokerAuthorizer authorizer) {
        super(ApiKeys.DESCRIBE_CLUSTER, 0, 2);
        this.metadataCache = metadataCache;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        DescribeClusterRequest request = (DescribeClusterRequest) r;
        DescribeClusterResponseData data = new DescribeClusterResponseData().setThrottleTimeMs(0)
            .setEndpointType(request.data().endpointType());
        if (request.data().endpointType() != BROKER_ENDPOINTS) {
            data.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                .setErrorMessage("Brokers only describe broker end points");
            return Responses.completed(context, new DescribeClusterResponse(data));
        }
        data.setErrorCode(Errors.NONE.code()).setClusterId(metadataCache.clusterId())
            .setControllerId(metadataCache.controllerId())
            .setClusterAuthorizedOperations(request.data().includeClusterAuthorizedOperations()
                ? AuthorizedOperations.cluster(authorizer, context) : Integer.MIN_VALUE);
        for (BrokerInfo broker : metadataCache.aliveBrokers()) {
            broker.endPoint(context.listenerName()).ifPresent(e -> data.brokers().add(
                new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(broker.id()).setHost(e.host())
                    .setPort(e.port()).setRack(broker.rack()).setIsFenced(false)));
        }
        return Responses.completed(context, new DescribeClusterResponse(data));
    }
}
