package io.tributary.broker.api;

import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * SaslHandshake (v0-1) that reaches the request handler: on a SASL listener the network layer's
 * authenticator answers the handshake before authentication, so one arriving here came on a
 * listener without SASL, or after authentication. Kafka answers both ILLEGAL_SASL_STATE; so does
 * this. Served so ApiVersions advertises the versions SASL clients look for.
 */
public final class SaslHandshakeHandler extends VersionedHandler {

    public SaslHandshakeHandler() {
        super(ApiKeys.SASL_HANDSHAKE, 0, 1);
    }

    @Override
    public CompletableFuture<Response> handle(RequestContext context, AbstractRequest request) {
        return Responses.completed(context, new SaslHandshakeResponse(new SaslHandshakeResponseData()
            .setErrorCode(Errors.ILLEGAL_SASL_STATE.code()).setMechanisms(List.of())));
    }
}
