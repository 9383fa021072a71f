package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.security.BrokerAuthorizer;
import io.tributary.broker.transaction.TransactionCoordinator;
import io.tributary.broker.transaction.TransactionMetadata;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ListTransactionsRequest;
import org.apache.kafka.common.requests.ListTransactionsResponse;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.coordinator.transaction.TransactionState;

/**
 * ListTransactions (v0-2; KIP-664, KIP-994, KIP-1152; {@code kafka-transactions list}): the ids
 * this broker coordinates, filtered by state, producer id, open duration and id pattern (a Java
 * regular expression the whole id must match; INVALID_REGULAR_EXPRESSION when it does not
 * compile). State names this broker does not know come back in {@code UnknownStateFilters}. Only
 * the ids the caller may DESCRIBE are listed.
 */
public final class ListTransactionsHandler extends VersionedHandler {

    private final TransactionCoordinator coordinator;
    private final BrokerAuthorizer authorizer;

    public ListTransactionsHandler(TransactionCoordinator coordinator, BrokerAuthorizer authorizer) {
        super(ApiKeys.LIST_TRANSACTIONS, 0, 2);
        this.coordinator = coordinator;
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest r) {
        ListTransactionsRequestData request = ((ListTransactionsRequest) r).data();
        ListTransactionsResponseData data = new ListTransactionsResponseData().setThrottleTimeMs(0);
        Set<String> states = new HashSet<>();
        for (String name : request.stateFilters()) {
            if (TransactionState.fromName(name).isPresent()) {
                states.add(name);
            } else {
                data.unknownStateFilters().add(name);
            }
        }
        if (states.isEmpty() && !request.stateFilters().isEmpty()) {
            return Responses.completed(context, new ListTransactionsResponse(data.setErrorCode(Errors.NONE.code())));
        }
        Pattern pattern;
        try {
            pattern = request.transactionalIdPattern() == null || request.transactionalIdPattern().isEmpty() ? null
                : Pattern.compile(request.transactionalIdPattern());
        } catch (PatternSyntaxException e) {
            return Responses.completed(context, new ListTransactionsResponse(
                data.setErrorCode(Errors.INVALID_REGULAR_EXPRESSION.code())));
        }
        for (TransactionMetadata m : coordinator.list(states, new HashSet<>(request.producerIdFilters()),
                request.durationFilter(), pattern)) {
            if (authorizer.authorize(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, m.transactionalId())) {
                data.transactionStates().add(new ListTransactionsResponseData.TransactionState()
                    .setTransactionalId(m.transactionalId()).setProducerId(m.producerId())
                    .setTransactionState(m.state().stateName()));
            }
        }
        return Responses.completed(context, new ListTransactionsResponse(data.setErrorCode(Errors.NONE.code())));
    }
}
