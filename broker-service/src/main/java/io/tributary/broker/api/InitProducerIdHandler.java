package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.security.BrokerAuthorizer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * InitProducerId (v0-5) for idempotent producers (KIP-98): a fresh producer id with epoch 0,
 * also when the producer asks to bump an existing one (KIP-360), as Kafka does for producers
 * without a transactional id. Producers with a transactional id get INVALID_REQUEST:
 * transactions are not supported yet and the transactional APIs are not advertised.
 */
public final class InitProducerIdHandler extends VersionedHandler {

    private final ProducerIdManager producerIdManager;

    public InitProducerIdHandler(ProducerIdManager producerIdManager, BrokerAuthorizer authorizer) {
        super(ApiKeys.INIT_PRODUCER_ID, 0, 5);
        this.producerIdManager = producerIdManager;
        this.authorizer = authorizer;
    }

    private final BrokerAuthorizer authorizer;

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        InitProducerIdRequest request = (InitProducerIdRequest) r;
        InitProducerIdResponseData data = new InitProducerIdResponseData().setThrottleTimeMs(0);
        if (request.data().transactionalId() != null) {
            data.setErrorCode(Errors.INVALID_REQUEST.code()).setProducerId(-1).setProducerEpoch((short) -1);
        } else if (!authorizer.authorizeCluster(context, AclOperation.IDEMPOTENT_WRITE)
                && !authorizer.authorizeByResourceType(context, AclOperation.WRITE, ResourceType.TOPIC)) {
            // An idempotent producer needs IDEMPOTENT_WRITE on the cluster, or WRITE on some topic (KIP-679).
            data.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).setProducerId(-1)
                .setProducerEpoch((short) -1);
        } else {
            data.setErrorCode(Errors.NONE.code()).setProducerId(producerIdManager.generateProducerId())
                .setProducerEpoch((short) 0);
        }
        return Responses.completed(context, new InitProducerIdResponse(data));
    }
}
