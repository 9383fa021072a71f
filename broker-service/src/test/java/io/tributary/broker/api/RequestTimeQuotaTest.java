package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import io.tributary.broker.quota.ClientQuotaEntity;
import io.tributary.broker.quota.ClientQuotaLookup;
import io.tributary.broker.quota.ClientQuotaManager;
import io.tributary.broker.quota.QuotaType;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

/**
 * The request-time quota (KIP-124) on a mock clock: a client over its {@code request_percentage}
 * is told to wait in the response's {@code throttle_time_ms} (the longer of that and a byte-rate
 * throttle, at most one quota window) and muted as long; inter-broker requests, follower fetches
 * and acks=0 produce are exempt; another client is unaffected.
 */
class RequestTimeQuotaTest {

    private final MockTime time = new MockTime();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** request_percentage=10 for client id "busy": a tenth of one thread. */
    private final ClientQuotaLookup quotas = new ClientQuotaLookup() {
        @Override
        public OptionalDouble quota(ClientQuotaEntity entity, String key) {
            return key.equals(QuotaType.REQUEST.key()) && entity.equals(new ClientQuotaEntity(null, "busy"))
                ? OptionalDouble.of(10) : OptionalDouble.empty();
        }

        @Override
        public boolean isEmpty() {
            return false;
        }
    };
    private final RequestTimeQuota quota = new RequestTimeQuota(
        new ClientQuotaManager(QuotaType.REQUEST, quotas, 11, 1, time, registry));

    private static RequestContext context(AbstractRequest request, String clientId) {
        return Wire.context(new org.apache.kafka.common.requests.RequestHeader(request.apiKey(), request.version(),
            clientId, 7), KafkaPrincipal.ANONYMOUS);
    }

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private Response answer(AbstractRequest request, String clientId, AbstractResponse body, long threadNanos) {
        RequestContext context = context(request, clientId);
        return quota.complete(context, request, Responses.of(context, body), threadNanos);
    }

    private static int throttleInBody(Response response, AbstractRequest request, String clientId) {
        Response sent = response instanceof Response.Throttled t ? t.response() : response;
        return Wire.parse(sent, context(request, clientId)).throttleTimeMs();
    }

    @Test
    void aClientOverItsShareOfAThreadIsToldToWaitAtMostOneWindowAndMuted() {
        MetadataRequest metadata = new MetadataRequest(new MetadataRequestData(), (short) 12);
        Response first = answer(metadata, "busy", new MetadataResponse(new MetadataResponseData(), (short) 12),
            SECOND / 1000);
        assertThat(first).as("1 ms of a thread: within 10%").isInstanceOf(Response.SendResponse.class);

        Response heavy = answer(metadata, "busy", new MetadataResponse(new MetadataResponseData(), (short) 12),
            5 * SECOND);
        assertThat(heavy).isInstanceOf(Response.Throttled.class);
        int throttleMs = ((Response.Throttled) heavy).throttleMs();
        assertThat(throttleMs).as("bounded by one quota window").isEqualTo(1000);
        assertThat(throttleInBody(heavy, metadata, "busy")).isEqualTo(throttleMs);

        Response other = answer(metadata, "idle", new MetadataResponse(new MetadataResponseData(), (short) 12),
            5 * SECOND);
        assertThat(other).as("another client id has no quota").isInstanceOf(Response.SendResponse.class);
        assertThat(throttleInBody(other, metadata, "idle")).isZero();
        assertThat(registry.get("kafka.server.request.request.time").tag("client-id", "busy").gauge().value())
            .isPositive();
    }

    @Test
    void theLongerOfTheByteRateAndRequestThrottlesIsAnswered() {
        ProduceRequest produce = ProduceRequest.builder(new ProduceRequestData().setAcks((short) 1)).build((short) 9);
        RequestContext context = context(produce, "busy");
        ProduceResponse byteRateThrottled = new ProduceResponse(new ProduceResponseData().setThrottleTimeMs(5_000));
        Response response = quota.complete(context, produce,
            new Response.Throttled(Responses.of(context, byteRateThrottled), 5_000), 5 * SECOND);
        assertThat(((Response.Throttled) response).throttleMs()).isEqualTo(5_000);
        assertThat(throttleInBody(response, produce, "busy")).isEqualTo(5_000);

        time.sleep(60_000);
        ProduceResponse small = new ProduceResponse(new ProduceResponseData().setThrottleTimeMs(10));
        response = quota.complete(context, produce, new Response.Throttled(Responses.of(context, small), 10),
            5 * SECOND);
        assertThat(((Response.Throttled) response).throttleMs()).isEqualTo(1_000);
        assertThat(throttleInBody(response, produce, "busy")).isEqualTo(1_000);
    }

    @Test
    void interBrokerRequestsFollowerFetchesAndAcksZeroProduceAreExempt() {
        WriteTxnMarkersRequest markers = new WriteTxnMarkersRequest.Builder(new WriteTxnMarkersRequestData())
            .build((short) 1);
        assertThat(answer(markers, "busy", new WriteTxnMarkersResponse(new WriteTxnMarkersResponseData()), 5 * SECOND))
            .isInstanceOf(Response.SendResponse.class);

        FetchRequest follower = FetchRequest.Builder.forReplica((short) 13, 2, 0, 500, 1, java.util.Map.of())
            .build((short) 13);
        assertThat(answer(follower, "busy", FetchResponse.of(org.apache.kafka.common.protocol.Errors.NONE, 0, 0,
            new java.util.LinkedHashMap<>(), List.of()), 5 * SECOND)).isInstanceOf(Response.SendResponse.class);

        ProduceRequest acksZero = ProduceRequest.builder(new ProduceRequestData().setAcks((short) 0)).build((short) 9);
        RequestContext context = context(acksZero, "busy");
        assertThat(quota.complete(context, acksZero, Response.none(), 5 * SECOND)).isInstanceOf(Response.NoResponse.class);
        assertThat(registry.get("kafka.server.request.exempt.request.time").gauge().value()).isPositive();
        assertThat(registry.find("kafka.server.request.request.time").gauges()).as("nothing counted for busy").isEmpty();
    }
}
