package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;

/**
 * SaslAuthenticate (v0-2) that reaches the request handler, i.e. outside a SASL exchange (the
 * network layer's authenticator takes those): ILLEGAL_SASL_STATE, as Kafka answers.
 */
public final class SaslAuthenticateHandler extends VersionedHandler {

    public SaslAuthenticateHandler() {
        super(ApiKeys.SASL_AUTHENTICATE, 0, 2);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest request) {
        return Responses.completed(context, new SaslAuthenticateResponse(new SaslAuthenticateResponseData()
            .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
            .setErrorMessage("SaslAuthenticate outside a SASL exchange on listener " + context.listenerName())));
    }
}
