package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.TransactionCoordinator;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.requests.EndTxnResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * EndTxn (v0-4, KIP-98): commits or aborts the producer's transaction at its coordinator
 * ({@link TransactionCoordinator#endTransaction}); the answer comes once the outcome is durable,
 * the markers follow. Needs WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED).
 * Version 5 (KIP-890's transaction version 2, which bumps the epoch at every end) is not served.
 *
 * <p>Runs on a request handler thread.
 */
public final class EndTxnHandler extends VersionedHandler {

    private final TransactionCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    public EndTxnHandler(TransactionCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.END_TXN, 0, 4);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        EndTxnRequest request = (EndTxnRequest) r;
        String transactionalId = request.data().transactionalId();
        if (!authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return Responses.completed(context, response(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
        }
        return coordinator.endTransaction(transactionalId, request.data().producerId(), request.data().producerEpoch(),
            request.data().committed()).thenApply(error -> Responses.of(context, response(error)));
    }

    private static EndTxnResponse response(Errors error) {
        return new EndTxnResponse(new EndTxnResponseData().setThrottleTimeMs(0).setErrorCode(error.code())
            .setProducerId(RecordBatch.NO_PRODUCER_ID).setProducerEpoch(RecordBatch.NO_PRODUCER_EPOCH));
    }
}
