package io.tributary.broker.network;

import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ResponseHeader;

/** What the network layer does once a request is handled. */
public sealed interface Response {

    /** Write {@code send} (a size-prefixed response frame, possibly with file slices). */
    record SendResponse(Send send) implements Response {
    }

    /**
     * A response not serialized yet, so that the request-time quota (KIP-124) can still set its
     * {@code throttle_time_ms} once the time the request took is known; {@link #toSend} serializes it.
     */
    record Unserialized(AbstractResponse body, ResponseHeader header, short version) implements Response {
        public Send toSend() {
            return body.toSend(header, version);
        }
    }

    /** Write nothing (Produce with acks=0) and go on with the next request. */
    record NoResponse() implements Response {
    }

    /** Close the connection, e.g. after an acks=0 produce failed, as Kafka does. */
    record CloseConnection(String reason) implements Response {
    }

    /**
     * Write {@code send}, then close the connection once it is written, e.g. after a failed
     * authentication, whose answer the client must read before the connection goes.
     */
    record SendThenClose(Send send, String reason) implements Response {
    }

    /**
     * {@code response}, after which the connection is muted for {@code throttleMs}: no further
     * request of it is read or handled until then (a client over its quota, KIP-219).
     */
    record Throttled(Response response, int throttleMs) implements Response {
    }

    static Response send(Send send) {
        return new SendResponse(send);
    }

    static Response none() {
        return new NoResponse();
    }

    static Response close(String reason) {
        return new CloseConnection(reason);
    }
}
