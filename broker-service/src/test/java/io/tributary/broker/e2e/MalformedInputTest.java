package io.tributary.broker.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.testing.TestBroker;
import io.tributary.broker.testing.WireClient;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad bytes on one connection close that connection only: the broker logs it and goes on
 * serving every other client.
 */
class MalformedInputTest {

    @TempDir
    static Path dir;
    static TestBroker broker;

    @BeforeAll
    static void start() {
        broker = TestBroker.start(dir, Map.of("broker.socket-request-max-bytes", "1048576"));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void randomFramesCloseTheConnectionAndTheBrokerKeepsServing() throws Exception {
        Random random = new Random(42);
        try (WireClient healthy = WireClient.connect(broker.bootstrapServers())) {
            for (int i = 0; i < 50; i++) {
                byte[] body = new byte[random.nextInt(200)];
                random.nextBytes(body);
                try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                    client.writeFrame(ByteBuffer.wrap(body));
                    // Either the frame happened to parse as a request and was answered, or the broker closed.
                    client.setReadTimeoutMs(10_000);
                    try {
                        client.readFrame();
                    } catch (java.io.IOException expected) {
                        // closed
                    }
                }
                assertServes(healthy);
            }
        }
    }

    @Test
    void truncatedFrameIsNotServedAndDoesNotDisturbOthers() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ByteBuffer frame = ByteBuffer.allocate(4 + 10).putInt(100).put(new byte[10]);
            client.writeRaw(frame.array());
        }
        try (WireClient other = WireClient.connect(broker.bootstrapServers())) {
            assertServes(other);
        }
    }

    @Test
    void oversizedAndNegativeLengthPrefixesCloseTheConnection() throws Exception {
        for (int length : new int[]{Integer.MAX_VALUE, 1048577, -5}) {
            try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
                client.writeRaw(ByteBuffer.allocate(8).putInt(length).putInt(0).array());
                assertThat(client.isClosedByBroker()).as("length %d", length).isTrue();
            }
        }
        try (WireClient other = WireClient.connect(broker.bootstrapServers())) {
            assertServes(other);
        }
    }

    @Test
    void unknownApiKeyClosesTheConnection() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ByteBuffer header = ByteBuffer.allocate(2 + 2 + 4 + 2);
            header.putShort((short) 999).putShort((short) 0).putInt(7).putShort((short) -1).flip();
            client.writeFrame(header);
            assertThat(client.isClosedByBroker()).isTrue();
        }
        try (WireClient other = WireClient.connect(broker.bootstrapServers())) {
            assertServes(other);
        }
    }

    @Test
    void knownApiWithAGarbageBodyClosesTheConnection() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            // Metadata v12 header (flexible, header v2), then a body that claims a huge topic array.
            ByteBuffer frame = ByteBuffer.allocate(64);
            frame.putShort((short) 3).putShort((short) 12).putInt(9).putShort((short) -1).put((byte) 0);
            frame.put(new byte[]{(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f});
            frame.flip();
            client.writeFrame(frame);
            assertThat(client.isClosedByBroker()).isTrue();
        }
        try (WireClient other = WireClient.connect(broker.bootstrapServers())) {
            assertServes(other);
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (WireClient client = WireClient.connect(broker.bootstrapServers())) {
            ByteBuffer[] frames = new ByteBuffer[20];
            for (int i = 0; i < frames.length; i++) {
                org.apache.kafka.common.requests.RequestHeader header = new org.apache.kafka.common.requests.RequestHeader(
                    org.apache.kafka.common.protocol.ApiKeys.METADATA, (short) 12, "pipeline", 1000 + i);
                frames[i] = new MetadataRequest(new MetadataRequestData().setTopics(null), (short) 12)
                    .serializeWithHeader(header);
            }
            for (ByteBuffer f : frames) {
                client.writeFrame(f);
            }
            for (int i = 0; i < frames.length; i++) {
                ByteBuffer response = client.readFrame();
                assertThat(response.getInt(0)).isEqualTo(1000 + i);
            }
        }
    }

    private static void assertServes(WireClient client) throws Exception {
        ApiVersionsResponse versions = client.send(new ApiVersionsRequest(new ApiVersionsRequestData()
            .setClientSoftwareName("malformed-input-test").setClientSoftwareVersion("1"), (short) 3));
        assertThat(Errors.forCode(versions.data().errorCode())).isEqualTo(Errors.NONE);
        MetadataResponse metadata = client.send(new MetadataRequest(new MetadataRequestData().setTopics(null), (short) 12));
        assertThat(metadata.data().brokers()).hasSize(1);
    }
}
