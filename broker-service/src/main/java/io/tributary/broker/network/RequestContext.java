package io.tributary.broker.network;

import java.net.InetAddress;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;

/**
 * Who sent a request and how: the parsed header, the connection and the listener. It is the
 * context Kafka's authorizer interface asks for, so the authorizer needs nothing of this package.
 *
 * @param header           request header (api key, version, correlation id, client id)
 * @param connectionId     {@code local-remote} address pair, for logs
 * @param clientAddress    the client's address
 * @param listenerName     the listener the request arrived on
 * @param securityProtocol that listener's protocol
 * @param principal        the authenticated principal (ANONYMOUS on PLAINTEXT)
 */
public record RequestContext(RequestHeader header, String connectionId, InetAddress clientAddress, String listenerName,
                             SecurityProtocol securityProtocol, KafkaPrincipal principal)
    implements AuthorizableRequestContext {

    public ApiKeys apiKey() {
        return header.apiKey();
    }

    public short apiVersion() {
        return header.apiVersion();
    }

    @Override
    public String clientId() {
        return header.clientId();
    }

    @Override
    public int requestType() {
        return header.apiKey().id;
    }

    @Override
    public int requestVersion() {
        return header.apiVersion();
    }

    @Override
    public int correlationId() {
        return header.correlationId();
    }

    /** The response header for this request's api and version. */
    public ResponseHeader responseHeader() {
        return new ResponseHeader(header.correlationId(), header.apiKey().responseHeaderVersion(header.apiVersion()));
    }
}
