package io.tributary.broker.api;

import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.TransactionCoordinator;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnRequest;
import org.apache.kafka.common.requests.AddOffsetsToTxnResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * AddOffsetsToTxn (v0-4, KIP-98; {@code sendOffsetsToTransaction}): the group's
 * {@code __consumer_offsets} partition joins the producer's transaction, so its offsets commit or
 * abort with it. Needs WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED) and
 * READ on the group (GROUP_AUTHORIZATION_FAILED).
 *
 * <p>Runs on a request handler thread.
 */
public final class AddOffsetsToTxnHandler extends VersionedHandler {

    private final TransactionCoordinator coordinator;
    private final GroupCoordinator groupCoordinator;
    private final BrokerAuthorizer authorizer;

    public AddOffsetsToTxnHandler(TransactionCoordinator coordinator, GroupCoordinator groupCoordinator,
                                  BrokerAuthorizer authorizer) {
        super(ApiKeys.ADD_OFFSETS_TO_TXN, 0, 4);
        this.coordinator = coordinator;
        this.groupCoordinator = groupCoordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        AddOffsetsToTxnRequest request = (AddOffsetsToTxnRequest) r;
        String transactionalId = request.data().transactionalId();
        if (!authorizer.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return respond(context, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!authorizer.authorize(context, AclOperation.READ, ResourceType.GROUP, request.data().groupId())) {
            return respond(context, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        TopicPartition offsets = new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME,
            groupCoordinator.partitionFor(request.data().groupId()));
        return coordinator.addPartitions(transactionalId, request.data().producerId(), request.data().producerEpoch(),
            Set.of(offsets)).thenApply(error -> Responses.of(context, response(error)));
    }

    private static CompletableFuture<Response> respond(RequestContext context, Errors error) {
        return Responses.completed(context, response(error));
    }

    private static AddOffsetsToTxnResponse response(Errors error) {
        return new AddOffsetsToTxnResponse(new AddOffsetsToTxnResponseData().setThrottleTimeMs(0)
            .setErrorCode(error.code()));
    }
}
