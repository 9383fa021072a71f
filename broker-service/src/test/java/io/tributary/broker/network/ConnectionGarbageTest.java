package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tributary.broker.testing.LoggerEvents;
import io.tributary.broker.testing.MockTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What issue 21's fuzzer found on the broker's connections: a client that sends garbage and reconnects in a loop
 * made one WARN or INFO line per dropped connection (31,181 lines in 32 s, fuzzer seed 1), and a request handler
 * that threw an {@link Error} (an OutOfMemoryError decompressing a corrupt snappy batch, seed 1) left its
 * connection waiting for an answer for ever. Now the lines about closing go through the listener's
 * {@link IntervalLog}, one per kind per interval with a count of those left out, and an Error closes the connection.
 */
class ConnectionGarbageTest {

    @RegisterExtension
    final LoggerEvents log = new LoggerEvents(ConnectionHandler.class);
    private final MockTime time = new MockTime();
    private final IntervalLog closeLog = new IntervalLog(10_000, time);
    private final ControlledRequestHandler handler = new ControlledRequestHandler();

    /** A frame whose header names api key 9999, which no Kafka version defines: the header cannot be parsed. */
    private static ByteBuf unknownApiKeyFrame() {
        ByteBuf frame = Unpooled.buffer();
        frame.writeInt(2 + 2 + 4 + 2);
        frame.writeShort(9999).writeShort(0).writeInt(1).writeShort(-1);
        return frame;
    }

    @Test
    void garbageFromManyConnectionsIsLoggedOncePerKindPerInterval() {
        List<EmbeddedConnection> connections = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            EmbeddedConnection c = EmbeddedConnection.plaintext(handler, closeLog);
            c.write(unknownApiKeyFrame());
            connections.add(c);
        }
        assertThat(connections).noneMatch(EmbeddedConnection::isOpen);
        assertThat(log.events()).as("lines about 100 dropped connections within one interval").hasSize(1);
        assertThat(log.events().get(0).getFormattedMessage()).contains("request header could not be parsed");

        time.advance(10_000);
        EmbeddedConnection next = EmbeddedConnection.plaintext(handler, closeLog);
        next.write(unknownApiKeyFrame());

        assertThat(next.isOpen()).isFalse();
        assertThat(log.events()).hasSize(2);
        assertThat(log.events().get(1).getFormattedMessage()).contains("(99 more like it not logged in the last 10000 ms)");
        assertThat(handler.calls()).as("no garbage reached the handler").isEmpty();
    }

    @Test
    void anUnknownApiKeyIsLoggedWithTheClientIdApiAndReasonOncePerInterval() {
        byte[] clientId = "mystery-app".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < 3; i++) {
            ByteBuf frame = Unpooled.buffer();
            frame.writeInt(2 + 2 + 4 + 2 + clientId.length + 1);
            frame.writeShort(9999).writeShort(3).writeInt(i).writeShort(clientId.length).writeBytes(clientId).writeByte(0);
            EmbeddedConnection c = EmbeddedConnection.plaintext(handler, closeLog);
            c.write(frame);
            assertThat(c.isOpen()).isFalse();
        }
        assertThat(log.messages()).hasSize(1);
        assertThat(log.messages().get(0)).startsWith("WARN Closing connection")
            .contains("request header could not be parsed").contains("API key 9999 v3 from client 'mystery-app'");
        assertThat(handler.calls()).isEmpty();
    }

    @Test
    void closesAskedForByTheHandlerAreLoggedOncePerInterval() {
        for (int i = 0; i < 50; i++) {
            EmbeddedConnection c = EmbeddedConnection.plaintext(handler, closeLog);
            c.send(new ApiVersionsRequest.Builder().build((short) 3));
            handler.calls().get(handler.calls().size() - 1).future().complete(Response.close("refused"));
            assertThat(c.isOpen()).isFalse();
        }
        assertThat(log.events()).hasSize(1);
    }

    @Test
    void aHandlerThatThrowsAnErrorClosesTheConnectionInsteadOfLeavingItWaiting() {
        handler.throwErrorOnCall(new OutOfMemoryError("test: a corrupt snappy chunk"));
        // A request handler thread runs the request and, as RequestHandlerPool does, survives what it throws.
        RequestQueue handlerThread = new RequestQueue() {
            @Override
            public boolean offer(Runnable request) {
                try {
                    request.run();
                } catch (Throwable t) {
                    // RequestHandlerPool logs it and takes the next request
                }
                return true;
            }

            @Override
            public void whenSpace(Runnable waiter) {
                waiter.run();
            }
        };
        EmbeddedConnection c = EmbeddedConnection.plaintext(handler, handlerThread);

        c.send(new ApiVersionsRequest.Builder().build((short) 3));

        assertThat(c.isOpen()).isFalse();
        assertThat(c.frames()).isEmpty();
        c.channel().checkException();
    }
}
