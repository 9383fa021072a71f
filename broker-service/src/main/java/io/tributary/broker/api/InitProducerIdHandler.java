package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.producer.ProducerIdManager;
import io.tributary.broker.transaction.TransactionCoordinator;
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
 * InitProducerId (v0-5, KIP-98). An idempotent producer gets a fresh producer id with epoch 0,
 * also when it asks to bump an existing one (KIP-360), as Kafka does for producers without a
 * transactional id. A transactional producer gets its id and epoch from the transaction
 * coordinator ({@link TransactionCoordinator#initProducerId}), which fences older instances;
 * it needs WRITE on its transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED otherwise).
 * Runs on the request handler pool: taking an id may wait on ZooKeeper.
 */
public final class InitProducerIdHandler extends VersionedHandler {

    private final ProducerIdManager producerIdManager;
    private final TransactionCoordinator transactionCoordinator;
    private final BrokerAuthorizer authorizer;

    public InitProducerIdHandler(ProducerIdManager producerIdManager, TransactionCoordinator transactionCoordinator,
                                 BrokerAuthorizer authorizer) {
        super(ApiKeys.INIT_PRODUCER_ID, 0, 5);
        this.producerIdManager = producerIdManager;
        this.transactionCoordinator = transactionCoordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        InitProducerIdRequest request = (InitProducerIdRequest) r;
        InitProducerIdResponseData data = new InitProducerIdResponseData().setThrottleTimeMs(0);
        String transactionalId = request.data().transactionalId();
        if (transactionalId != null) {
            if (!authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
                data.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()).setProducerId(-1)
                    .setProducerEpoch((short) -1);
                return Responses.completed(context, new InitProducerIdResponse(data));
            }
            return transactionCoordinator.initProducerId(transactionalId, request.data().transactionTimeoutMs(),
                    request.data().producerId(), request.data().producerEpoch())
                .thenApply(result -> Responses.of(context, new InitProducerIdResponse(data
                    .setErrorCode(result.error().code()).setProducerId(result.producerId())
                    .setProducerEpoch(result.producerEpoch()))));
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
