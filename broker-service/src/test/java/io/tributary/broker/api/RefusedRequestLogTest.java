package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.testing.LoggerEvents;
import io.tributary.broker.testing.MockTime;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Refused requests leave a log line an operator can act on (API, version, client id, principal,
 * reason), at most one per kind per interval, and the next line counts the ones left out.
 */
class RefusedRequestLogTest {

    @RegisterExtension
    final LoggerEvents log = new LoggerEvents(RefusedRequestLog.class);


    private static RequestContext context(ApiKeys api, short version) {
        return Wire.context(new RequestHeader(api, version, "billing-app", 3), Wire.ALICE);
    }

    @Test
    void oneLinePerKindPerIntervalAndTheNextCountsTheOnesLeftOut() {
        MockTime time = new MockTime();
        RefusedRequestLog refusals = new RefusedRequestLog(10_000, time);
        RequestContext context = context(ApiKeys.METADATA, (short) 12);

        assertThat(refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "bad value")).isTrue();
        assertThat(refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "bad value")).isFalse();
        assertThat(refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "bad value")).isFalse();
        assertThat(refusals.refused(RefusedRequestLog.Kind.MALFORMED, context, "cut short")).as("its own kind").isTrue();
        time.advance(10_000);
        assertThat(refusals.refused(RefusedRequestLog.Kind.CONFIG, context, "bad again")).isTrue();

        assertThat(log.messages()).containsExactly(
            "INFO Refused METADATA v12 from client 'billing-app' (User:alice at 127.0.0.1): bad value",
            "WARN Refused METADATA v12 from client 'billing-app' (User:alice at 127.0.0.1): cut short",
            "INFO Refused METADATA v12 from client 'billing-app' (User:alice at 127.0.0.1): bad again"
                + " (2 more refusal(s) of this kind not logged in the last 10000 ms)");
    }

    @Test
    void kafkaApisLogsAnUnsupportedVersionAndAMalformedRequest() {
        RefusedRequestLog refusals = new RefusedRequestLog(0, Time.SYSTEM);
        FakeApiHandler metadata = new FakeApiHandler(ApiKeys.METADATA, 4, 12, (c, r) ->
            java.util.concurrent.CompletableFuture.completedFuture(io.tributary.broker.network.Response.close("served")));
        KafkaApis apis = new KafkaApis(List.of(metadata), io.tributary.broker.metrics.RequestMetrics.noop(), refusals,
            Time.SYSTEM);

        apis.handle(context(ApiKeys.METADATA, (short) 13), ByteBuffer.allocate(0)).join();
        apis.handle(context(ApiKeys.METADATA, (short) 12), ByteBuffer.wrap(new byte[] {1, 2, 3})).join();
        apis.handle(context(ApiKeys.METADATA, (short) 12), Wire.body(new MetadataRequest(new MetadataRequestData(),
            (short) 12))).join();

        assertThat(log.messages()).hasSize(2);
        assertThat(log.messages().get(0)).startsWith("INFO Refused METADATA v13 from client 'billing-app'")
            .endsWith("served versions are 4 to 12; the connection is closed");
        assertThat(log.messages().get(1)).startsWith("WARN Refused METADATA v12 from client 'billing-app'")
            .contains("could not be parsed");
    }

    /**
     * An API this broker does not serve at all (Vote and BeginQuorumEpoch are KRaft controllers' APIs):
     * one INFO line with the client id, API and reason per interval, however often it is asked.
     */
    @Test
    void anApiTheBrokerDoesNotServeIsLoggedOncePerInterval() {
        MockTime time = new MockTime();
        RefusedRequestLog refusals = new RefusedRequestLog(10_000, time);
        FakeApiHandler metadata = new FakeApiHandler(ApiKeys.METADATA, 4, 12, (c, r) ->
            java.util.concurrent.CompletableFuture.completedFuture(io.tributary.broker.network.Response.close("served")));
        KafkaApis apis = new KafkaApis(List.of(metadata), io.tributary.broker.metrics.RequestMetrics.noop(), refusals, time);

        for (int i = 0; i < 3; i++) {
            assertThat(apis.handle(context(ApiKeys.VOTE, (short) 1), ByteBuffer.allocate(0)).join())
                .isInstanceOf(io.tributary.broker.network.Response.CloseConnection.class);
        }
        apis.handle(context(ApiKeys.BEGIN_QUORUM_EPOCH, (short) 0), ByteBuffer.allocate(0)).join();
        time.advance(10_000);
        apis.handle(context(ApiKeys.BEGIN_QUORUM_EPOCH, (short) 0), ByteBuffer.allocate(0)).join();

        assertThat(log.messages()).containsExactly(
            "INFO Refused VOTE v1 from client 'billing-app' (User:alice at 127.0.0.1): the API is not served by this"
                + " broker; the connection is closed",
            "INFO Refused BEGIN_QUORUM_EPOCH v0 from client 'billing-app' (User:alice at 127.0.0.1): the API is not"
                + " served by this broker; the connection is closed (3 more refusal(s) of this kind not logged in the"
                + " last 10000 ms)");
    }
}
