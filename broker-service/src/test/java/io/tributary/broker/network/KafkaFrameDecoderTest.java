package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.Test;

/**
 * Kafka's request framing on a PLAINTEXT connection ({@link KafkaFrameDecoder} in front of
 * {@link ConnectionHandler}, over an embedded channel): a frame split across many reads is
 * reassembled; a frame of {@code socket.request.max.bytes} is taken and a larger one closes the
 * connection, as a negative size does; a frame whose header cannot be parsed (unknown api key,
 * too short, empty) closes that connection only, without an exception escaping the pipeline.
 */
class KafkaFrameDecoderTest {

    private static final int MAX_REQUEST_BYTES = 1024;

    private final ControlledRequestHandler handler = new ControlledRequestHandler();
    private final EmbeddedConnection connection = EmbeddedConnection.open(handler,
        EmbeddedConnection.plaintextListener(), MAX_REQUEST_BYTES);

    private static ApiVersionsRequest apiVersions() {
        return new ApiVersionsRequest.Builder().build((short) 3);
    }

    @Test
    void aFrameSplitAcrossManyReadsIsReassembled() {
        ByteBuf frame = connection.frame(MetadataRequest.Builder.allTopics().build((short) 12), 7);
        int size = frame.readableBytes();

        for (int i = 0; i < size - 1; i++) {
            connection.write(frame.readRetainedSlice(1));
        }
        assertThat(handler.calls()).isEmpty();
        connection.write(frame.readRetainedSlice(1));
        frame.release();

        assertThat(handler.correlationIds()).containsExactly(7);
        assertThat(MetadataRequest.parse(new ByteBufferAccessor(handler.lastCall().body()), (short) 12).isAllTopics())
            .isTrue();
        handler.lastCall().respond();
        assertThat(connection.responseCorrelationIds()).containsExactly(7);
    }

    @Test
    void twoFramesInOneReadAreTwoRequests() {
        connection.sendPipelined(apiVersions(), apiVersions());
        handler.lastCall().respond();
        handler.lastCall().respond();

        assertThat(handler.correlationIds()).containsExactly(1, 2);
        assertThat(connection.responseCorrelationIds()).containsExactly(1, 2);
    }

    @Test
    void aFrameOfSocketRequestMaxBytesIsTaken() {
        // Kafka refuses a receive whose size prefix is above socket.request.max.bytes; the prefix
        // itself does not count (NetworkReceive).
        connection.write(connection.frameOfSize(apiVersions(), 1, MAX_REQUEST_BYTES));

        assertThat(connection.isOpen()).isTrue();
        assertThat(handler.calls()).hasSize(1);
        assertThat(handler.lastCall().body().remaining()).isGreaterThan(MAX_REQUEST_BYTES - 100);
    }

    @Test
    void aFrameOverSocketRequestMaxBytesClosesTheConnection() {
        ByteBuf frame = connection.frameOfSize(apiVersions(), 1, MAX_REQUEST_BYTES + 1);

        // The size alone is enough: the connection goes before the rest of the frame arrives.
        connection.write(frame.readRetainedSlice(8));

        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.calls()).isEmpty();
        connection.channel().checkException();
        frame.release();
    }

    @Test
    void aNegativeSizeClosesTheConnection() {
        connection.write(Unpooled.buffer().writeInt(-1).writeLong(0));

        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.calls()).isEmpty();
        connection.channel().checkException();
    }

    @Test
    void aFrameWhoseHeaderCannotBeParsedClosesThatConnectionOnly() {
        EmbeddedConnection other = EmbeddedConnection.open(handler, EmbeddedConnection.plaintextListener(),
            MAX_REQUEST_BYTES);

        connection.write(EmbeddedConnection.sizePrefixed(header((short) 999, (short) 0)));

        assertThat(connection.isOpen()).isFalse();
        connection.channel().checkException();
        assertThat(handler.calls()).isEmpty();

        other.send(apiVersions());
        handler.lastCall().respond();
        assertThat(other.isOpen()).isTrue();
        assertThat(other.responseCorrelationIds()).containsExactly(1);
    }

    @Test
    void aFrameTooShortForAHeaderClosesTheConnection() {
        connection.write(EmbeddedConnection.sizePrefixed(ByteBuffer.wrap(new byte[] {0, 18, 0})));

        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.calls()).isEmpty();
        connection.channel().checkException();
    }

    @Test
    void anEmptyFrameClosesTheConnection() {
        connection.write(Unpooled.buffer().writeInt(0));

        assertThat(connection.isOpen()).isFalse();
        assertThat(handler.calls()).isEmpty();
        connection.channel().checkException();
    }

    @Test
    void aParseFailureAfterAnsweredRequestsLeavesTheirResponsesWritten() {
        ByteBuf reads = Unpooled.buffer();
        ByteBuf good = connection.frame(apiVersions(), 1);
        reads.writeBytes(good);
        good.release();
        reads.writeBytes(EmbeddedConnection.sizePrefixed(header((short) 999, (short) 0)));
        connection.write(reads);
        assertThat(connection.isOpen()).isTrue();

        handler.lastCall().respond();

        assertThat(connection.responseCorrelationIds()).containsExactly(1);
        assertThat(connection.isOpen()).isFalse();
    }

    /** A request header (v2) with an api key and version of our choosing, and no body. */
    private static ByteBuffer header(short apiKey, short apiVersion) {
        RequestHeaderData data = new RequestHeaderData().setRequestApiKey(apiKey).setRequestApiVersion(apiVersion)
            .setClientId("test-client").setCorrelationId(1);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(data.size(cache, (short) 2));
        data.write(new ByteBufferAccessor(buffer), cache, (short) 2);
        return buffer.flip();
    }
}
