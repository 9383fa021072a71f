package io.tributary.broker.api;

import io.tributary.broker.audit.RefusedRequestLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.network.Response;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaApis} dispatch over hand-written handlers, with a direct request-handler pool: an
 * api no handler serves and a version outside the served range close the connection; ApiVersions
 * in an unserved version is answered UNSUPPORTED_VERSION in the v0 layout with the served ranges
 * (KIP-511); an advertised but unserved version (Produce v0-2, KAFKA-18659) gets
 * UNSUPPORTED_VERSION in its legacy layout; a body the codec cannot parse closes; an exception from
 * a handler, thrown or in its future, becomes the request's error response with the matching Kafka
 * error code; a handled request is counted in the request metrics once answered.
 */
class KafkaApisTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeApiHandler metadata = new FakeApiHandler(ApiKeys.METADATA, 1, 12,
        (context, request) -> Responses.completed(context, new MetadataResponse(new MetadataResponseData(),
            context.apiVersion())));
    private final FakeApiHandler produce = new FakeApiHandler(ApiKeys.PRODUCE, 3, 12, (context, request) -> {
        throw new AssertionError("not served below v3");
    }).advertisingFrom(0);
    private final FakeApiHandler listGroups = new FakeApiHandler(ApiKeys.LIST_GROUPS, 0, 5, (context, request) -> {
        throw new AssertionError("each test sets the answer");
    });
    private final ApiVersionsHandler apiVersions = new ApiVersionsHandler(List.of(metadata, produce, listGroups),
        () -> "cluster-1", 1);
    private final KafkaApis apis = new KafkaApis(apiVersions.allHandlers(),
        new RequestMetrics(registry), new RefusedRequestLog(0, Time.SYSTEM), Time.SYSTEM);

    private CompletableFuture<Response> handle(AbstractRequest request) {
        return apis.handle(Wire.context(request, KafkaPrincipal.ANONYMOUS), Wire.body(request));
    }

    private static MetadataRequest metadataRequest(int version) {
        return MetadataRequest.Builder.allTopics().build((short) version);
    }

    private static ListGroupsRequest listGroupsRequest() {
        return new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 4);
    }

    @Test
    void aServedRequestReachesItsHandlerAndIsAnswered() {
        MetadataRequest request = metadataRequest(12);
        RequestContext context = Wire.context(request, KafkaPrincipal.ANONYMOUS);

        Response response = apis.handle(context, Wire.body(request)).join();

        assertThat(Wire.parse(response, context)).isInstanceOf(MetadataResponse.class);
        assertThat(metadata.requests).singleElement().isInstanceOf(MetadataRequest.class);
    }

    @Test
    void anApiNoHandlerServesClosesTheConnection() {
        KafkaApis onlyApiVersions = new KafkaApis(new ApiVersionsHandler(List.of(), () -> "cluster-1", 1).allHandlers(),
            RequestMetrics.noop(), new RefusedRequestLog(0, Time.SYSTEM), Time.SYSTEM);
        MetadataRequest request = metadataRequest(12);

        Response response = onlyApiVersions.handle(Wire.context(request, KafkaPrincipal.ANONYMOUS), Wire.body(request))
            .join();

        assertThat(response).isInstanceOf(Response.CloseConnection.class);
    }

    @Test
    void aVersionOutsideTheServedRangeClosesTheConnection() {
        assertThat(handle(metadataRequest(13)).join()).isInstanceOf(Response.CloseConnection.class);
        RequestHeader v0 = new RequestHeader(ApiKeys.METADATA, (short) 0, "test-client", Wire.CORRELATION_ID);
        assertThat(apis.handle(Wire.context(v0, KafkaPrincipal.ANONYMOUS), ByteBuffer.allocate(4)).join())
            .isInstanceOf(Response.CloseConnection.class);
        assertThat(metadata.requests).isEmpty();
    }

    @Test
    void apiVersionsInAnUnservedVersionIsAnsweredInTheV0LayoutWithUnsupportedVersion() {
        // A client newer than this broker asks ApiVersions v6; the codec knows no v6 body, and needs none.
        RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 6, "future-client", Wire.CORRELATION_ID);

        ByteBuffer answer = Wire.bytes(apis.handle(Wire.context(header, KafkaPrincipal.ANONYMOUS),
            ByteBuffer.wrap(new byte[] {0, 0, 0})));

        assertThat(ResponseHeader.parse(answer, (short) 0).correlationId()).isEqualTo(Wire.CORRELATION_ID);
        ApiVersionsResponseData v0 = new ApiVersionsResponseData(new ByteBufferAccessor(answer), (short) 0);
        assertThat(answer.remaining()).as("nothing after the v0 fields").isZero();
        assertThat(v0.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code()).isEqualTo((short) 35);
        ApiVersionsResponseData.ApiVersion own = v0.apiKeys().find(ApiKeys.API_VERSIONS.id);
        assertThat(own.minVersion()).isZero();
        assertThat(own.maxVersion()).isEqualTo((short) 5);
        assertThat(v0.apiKeys().find(ApiKeys.METADATA.id).maxVersion()).isEqualTo((short) 12);
        assertThat(v0.apiKeys().find(ApiKeys.PRODUCE.id).minVersion()).isZero();
    }

    @Test
    void anAdvertisedButUnservedVersionIsAnsweredUnsupportedVersion() {
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, (short) 2, "old-librdkafka", Wire.CORRELATION_ID);

        ByteBuffer answer = Wire.bytes(apis.handle(Wire.context(header, KafkaPrincipal.ANONYMOUS),
            legacyProduceBody("orders", 0, 3)));

        // Produce v2 response: correlation id, [topic, [partition, error, base offset, log append time]], throttle.
        assertThat(answer.getInt()).isEqualTo(Wire.CORRELATION_ID);
        assertThat(answer.getInt()).isEqualTo(1);
        assertThat(string(answer)).isEqualTo("orders");
        assertThat(answer.getInt()).isEqualTo(2);
        for (int partition : new int[] {0, 3}) {
            assertThat(answer.getInt()).isEqualTo(partition);
            assertThat(answer.getShort()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(answer.getLong()).isEqualTo(-1L);
            assertThat(answer.getLong()).isEqualTo(-1L);
        }
        assertThat(answer.getInt()).as("throttle time").isZero();
        assertThat(answer.remaining()).isZero();
        assertThat(produce.requests).isEmpty();
    }

    @Test
    void aTruncatedLegacyBodyClosesTheConnection() {
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, (short) 2, "old-librdkafka", Wire.CORRELATION_ID);
        ByteBuffer body = legacyProduceBody("orders", 0, 3);
        body.limit(body.limit() - 6);

        Response response = apis.handle(Wire.context(header, KafkaPrincipal.ANONYMOUS), body).join();

        assertThat(response).isInstanceOf(Response.CloseConnection.class);
    }

    @Test
    void aBodyTheCodecCannotParseClosesTheConnection() {
        MetadataRequest request = metadataRequest(12);

        Response response = apis.handle(Wire.context(request, KafkaPrincipal.ANONYMOUS),
            ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1})).join();

        assertThat(response).isInstanceOf(Response.CloseConnection.class);
        assertThat(metadata.requests).isEmpty();
    }

    @Test
    void anExceptionAHandlerThrowsBecomesTheErrorResponseWithItsCode() {
        listGroups.answer = (context, request) -> {
            throw new CoordinatorNotAvailableException("loading");
        };

        assertThat(listGroupsError()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
    }

    @Test
    void aFailedHandlerFutureBecomesTheErrorResponseWithTheCausesCode() {
        listGroups.answer = (context, request) -> CompletableFuture.failedFuture(
            new CompletionException(new NotCoordinatorException("moved")));

        assertThat(listGroupsError()).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void anUnexpectedHandlerExceptionIsAnUnknownServerError() {
        listGroups.answer = (context, request) -> {
            throw new IllegalStateException("bug");
        };

        assertThat(listGroupsError()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
    }

    private Errors listGroupsError() {
        ListGroupsRequest request = listGroupsRequest();
        RequestContext context = Wire.context(request, KafkaPrincipal.ANONYMOUS);
        ListGroupsResponse response = (ListGroupsResponse) Wire.parse(apis.handle(context, Wire.body(request)).join(),
            context);
        return Errors.forCode(response.data().errorCode());
    }

    @Test
    void aHandledRequestIsCountedOnceAnswered() {
        CompletableFuture<Response> pending = new CompletableFuture<>();
        listGroups.answer = (context, request) -> pending;
        ListGroupsRequest request = listGroupsRequest();
        RequestContext context = Wire.context(request, KafkaPrincipal.ANONYMOUS);

        CompletableFuture<Response> response = apis.handle(context, Wire.body(request));
        assertThat(requestsCounted("ListGroups", 4)).isZero();
        pending.complete(Responses.of(context, new ListGroupsResponse(new ListGroupsResponseData())));

        assertThat(response).isDone();
        assertThat(requestsCounted("ListGroups", 4)).isEqualTo(1);
    }

    @Test
    void twoHandlersForOneApiAreRefused() {
        FakeApiHandler another = new FakeApiHandler(ApiKeys.METADATA, 1, 12, (context, request) -> null);

        assertThatThrownBy(() -> new KafkaApis(List.of(metadata, another), RequestMetrics.noop(),
            new RefusedRequestLog(0, Time.SYSTEM), Time.SYSTEM)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("METADATA");
    }

    private double requestsCounted(String request, int version) {
        Counter counter = registry.find("kafka.network.requestmetrics.requests").tag("request", request)
            .tag("version", String.valueOf(version)).counter();
        return counter == null ? 0 : counter.count();
    }

    /**
     * A Produce v0-2 body: acks, timeout, one topic with the given partitions, each with null records.
     * Kafka 4's codec no longer has these versions.
     */
    private static ByteBuffer legacyProduceBody(String topic, int... partitions) {
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(2 + 4 + 4 + 2 + name.length + 4 + partitions.length * 8);
        body.putShort((short) -1).putInt(30_000).putInt(1).putShort((short) name.length).put(name)
            .putInt(partitions.length);
        for (int partition : partitions) {
            body.putInt(partition).putInt(-1);
        }
        return body.flip();
    }

    private static String string(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.getShort()];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
