package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.tributary.broker.testing.TestBroker;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression test of a security review: connections that have not authenticated cannot make the
 * broker buffer their pipelined frames. Six clients each send a refused handshake (answered only
 * after a 10 s delay) followed by 34 frames of 500 KiB; before the fix the broker queued them all
 * (about 180 MiB); now each connection holds at most the frame after the one in flight.
 */
class PreAuthenticationMemoryTest {

    @TempDir
    static Path dir;

    private static long used() {
        ByteBufAllocator a = ByteBufAllocator.DEFAULT;
        if (a instanceof ByteBufAllocatorMetricProvider p) {
            return p.metric().usedDirectMemory() + p.metric().usedHeapMemory();
        }
        return -1;
    }

    @Test
    void unauthenticatedConnectionsCannotMakeTheBrokerBufferTheirFrames() throws Exception {
        try (TestBroker broker = TestBroker.start(dir.resolve("b"), Map.of(
                "broker.listeners", "SASL_PLAINTEXT://127.0.0.1:" + TestBroker.freePort(),
                "broker.listener-security-protocol-map", "SASL_PLAINTEXT:SASL_PLAINTEXT",
                "broker.sasl-enabled-mechanisms", "PLAIN",
                "broker.sasl-mechanism-inter-broker-protocol", "PLAIN",
                "broker.sasl-jaas-config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                    + " username=\"admin\" password=\"pw\" user_admin=\"pw\";",
                "broker.connection-failed-authentication-delay-ms", "10000"))) {
            String[] hp = broker.bootstrapServers().split(":");
            long before = used();
            int connections = 6;
            List<Socket> sockets = new ArrayList<>();
            List<Thread> writers = new ArrayList<>();
            AtomicLong written = new AtomicLong();
            for (int i = 0; i < connections; i++) {
                Socket s = new Socket(hp[0], Integer.parseInt(hp[1]));
                sockets.add(s);
                Thread t = new Thread(() -> {
                    try {
                        DataOutputStream out = new DataOutputStream(s.getOutputStream());
                        ByteBuffer hs = new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("NOPE"))
                            .build((short) 1).serializeWithHeader(new RequestHeader(ApiKeys.SASL_HANDSHAKE, (short) 1, "x", 1));
                        out.writeInt(hs.remaining());
                        out.write(hs.array(), hs.arrayOffset() + hs.position(), hs.remaining());
                        byte[] junk = new byte[500 * 1024];
                        for (int f = 0; f < 34; f++) {
                            out.writeInt(junk.length);
                            for (int offset = 0; offset < junk.length; offset += 50 * 1024) {
                                out.write(junk, offset, 50 * 1024);
                                written.addAndGet(50 * 1024);
                            }
                        }
                        out.flush();
                    } catch (Exception e) {
                        // the broker may close the connection while this writes
                    }
                });
                t.setDaemon(true);
                t.start();
                writers.add(t);
            }
            // Until the broker has stopped reading (before its 10 s delay answers the handshakes): the writers,
            // all done or blocked, have written nothing for a second. One that buffered would read to the end.
            AtomicLong seen = new AtomicLong(-1);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    long now = written.get();
                    return seen.getAndSet(now) == now;
                });
            long after = used();
            for (Socket s : sockets) {
                s.close();
            }
            assertThat(after - before).as("bytes buffered for %d unauthenticated connections", connections)
                .isLessThan(40L * 1024 * 1024);
        }
    }
}
