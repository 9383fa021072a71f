package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.tributary.broker.audit.RefusedRequestLog;
import io.tributary.broker.metrics.RequestMetrics;
import io.tributary.broker.network.RequestContext;
import io.tributary.broker.testing.LoggerEvents;
import io.tributary.broker.testing.MockTime;
import java.util.List;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request that trips a handler into an exception without a Kafka error code (issue 21's fuzzer, seed 1: a Fetch
 * with isolation level 16, an ElectLeaders with election type 114) is answered UNKNOWN_SERVER_ERROR and logged at
 * ERROR with its stack trace, but at most once per API and exception type per interval: a client repeating it in a
 * loop cannot flood the log.
 */
class KafkaApisFailureLogTest {

    @RegisterExtension
    final LoggerEvents log = new LoggerEvents(KafkaApis.class);

    @Test
    void unexpectedHandlerFailuresAreLoggedOncePerApiAndTypePerInterval() {
        MockTime time = new MockTime();
        FakeApiHandler metadata = new FakeApiHandler(ApiKeys.METADATA, 4, 12, (c, r) -> {
            throw new IllegalArgumentException("Unknown isolation level 16");
        });
        KafkaApis apis = new KafkaApis(List.of(metadata), RequestMetrics.noop(), new RefusedRequestLog(10_000, time),
            time);
        RequestContext context = Wire.context(new RequestHeader(ApiKeys.METADATA, (short) 12, "fuzzer", 1), Wire.ALICE);

        for (int i = 0; i < 100; i++) {
            apis.handle(context, Wire.body(new MetadataRequest(new MetadataRequestData(), (short) 12))).join();
        }
        assertThat(log.events()).hasSize(1);
        assertThat(log.events().get(0).getLevel()).isEqualTo(Level.ERROR);
        assertThat(log.events().get(0).getThrowableProxy()).as("the stack trace, once").isNotNull();

        time.advance(10_000);
        apis.handle(context, Wire.body(new MetadataRequest(new MetadataRequestData(), (short) 12))).join();

        assertThat(log.events()).hasSize(2);
        assertThat(log.events().get(1).getFormattedMessage()).contains("(99 more like it not logged in the last 10000 ms)");
    }
}
