package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.config.BrokerSecurityProperties;
import io.tributary.broker.config.EndPoint;
import io.tributary.broker.security.ListenerSecurity;
import io.tributary.broker.testing.WireClient;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ResponseHeader;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SocketServer}s on 127.0.0.1 sharing one {@link ConnectionQuotas}, with clients over real
 * sockets whose ApiVersions requests are answered on the event loop: a connection over its
 * address's limit is closed once accepted; at {@code max.connections} a new connection waits
 * unanswered until another closes or the limit is raised; an inter-broker connection above the
 * limit closes the least recently active connection of another listener; lowering the limit below
 * the count closes as many of the least recently active connections as the count is above it; above
 * the creation rate the listener takes new connections in after the throttle time.
 */
class SocketServerConnectionQuotasTest {

    /** Long enough for a served connection to have been answered many times over. */
    private static final int UNANSWERED_FOR_MS = 500;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void connectionOverItsAddressLimitIsClosedAndTheOthersAreServed() throws Exception {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionsPerIp(Integer.MAX_VALUE,
            Map.of("127.0.0.1", 2)));
        int port = listen("PLAINTEXT", quotas);
        WireClient first = connect(port);
        WireClient second = connect(port);
        assertAnswered(first);
        assertAnswered(second);

        try (Socket third = new Socket()) {
            third.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            third.setSoTimeout(10_000);
            assertThat(third.getInputStream().read()).as("closed by the broker").isEqualTo(-1);
        }
        assertAnswered(first);
        assertAnswered(second);
        assertThat(registry.get("tributary.network.connections.refused").tag("listener", "PLAINTEXT").counter().count())
            .isEqualTo(1);
        assertThat(registry.get("kafka.server.socket.server.metrics.connection.count").tag("listener", "PLAINTEXT")
            .gauge().value()).isEqualTo(2);
    }

    @Test
    void atTheBrokerMaxANewConnectionWaitsUntilAnotherCloses() throws Exception {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(2));
        int port = listen("PLAINTEXT", quotas);
        WireClient first = connect(port);
        WireClient second = connect(port);
        assertAnswered(first);
        assertAnswered(second);

        WireClient third = connect(port);
        third.sendOnly(apiVersions());
        assertUnanswered(third);

        first.close();
        assertThat(readApiVersions(third, 10_000).data().errorCode()).isEqualTo(Errors.NONE.code());
        assertAnswered(second);
        assertAnswered(third);
        await().atMost(Duration.ofSeconds(10)).until(() -> quotas.connectionCount("PLAINTEXT") == 2);
    }

    @Test
    void raisingTheMaxLetsTheWaitingConnectionInAndClosesNothing() throws Exception {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED.withMaxConnections(2);
        ConnectionQuotas quotas = quotas(limits);
        int port = listen("PLAINTEXT", quotas);
        WireClient first = connect(port);
        WireClient second = connect(port);
        assertAnswered(first);
        assertAnswered(second);
        WireClient third = connect(port);
        third.sendOnly(apiVersions());
        assertUnanswered(third);

        quotas.updateLimits(limits.withMaxConnections(3));
        assertThat(readApiVersions(third, 10_000).data().errorCode()).isEqualTo(Errors.NONE.code());
        assertAnswered(first);
        assertAnswered(second);
        assertThat(quotas.totalConnectionCount()).isEqualTo(3);
    }

    @Test
    void interBrokerConnectionAtTheMaxClosesTheLeastRecentlyActiveConnectionOfAnotherListener() throws Exception {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(2));
        int external = listen("EXTERNAL", quotas);
        int internal = listen("INTERNAL", quotas);
        WireClient idle = connect(external);
        WireClient busy = connect(external);
        assertAnswered(idle);
        assertAnswered(busy);
        assertAnswered(busy);

        WireClient replica = connect(internal);
        assertAnswered(replica);
        assertThatThrownBy(() -> idle.send(apiVersions())).as("closed by the broker").isInstanceOf(IOException.class);
        assertAnswered(busy);
        await().atMost(Duration.ofSeconds(10)).until(() -> quotas.totalConnectionCount() == 2);
    }

    @Test
    void loweringTheMaxClosesTheLeastRecentlyUsedConnectionsAndServesTheOthers() throws Exception {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED;
        ConnectionQuotas quotas = quotas(limits);
        int port = listen("PLAINTEXT", quotas);
        List<WireClient> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            WireClient client = connect(port);
            assertAnswered(client); // admitted
            clients.add(client);
        }
        WireClient oldest = clients.get(0);
        WireClient old = clients.get(1);
        assertAnswered(clients.get(2));
        assertAnswered(clients.get(3));

        quotas.updateLimits(limits.withMaxConnections(2));
        assertClosedByBroker(oldest);
        assertClosedByBroker(old);
        assertAnswered(clients.get(2));
        assertAnswered(clients.get(3));
        await().atMost(Duration.ofSeconds(10)).until(() -> quotas.connectionCount("PLAINTEXT") == 2);
    }

    /**
     * At 1 connection/s over 11 windows of 1 s, the 11th connection within 10 s is above the rate: the
     * listener stops accepting for the throttle time, then takes it in and it is served.
     */
    @Test
    void connectionAboveTheCreationRateIsServedAfterTheThrottle() throws Exception {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionCreationRate(1));
        int port = listen("PLAINTEXT", quotas);
        for (int i = 0; i < 10; i++) {
            assertAnswered(connect(port));
        }
        WireClient throttled = connect(port);
        assertThat(readApiVersionsAfterSending(throttled).data().errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(registry.get("kafka.server.socket.server.metrics.connection.accept.throttle.time")
            .tag("listener", "PLAINTEXT").gauge().value()).as("ms the listener waited").isPositive();
        assertThat(quotas.connectionCount("PLAINTEXT")).isEqualTo(11);
    }

    private ConnectionQuotas quotas(ConnectionLimits limits) {
        ConnectionQuotas quotas = new ConnectionQuotas(limits, "INTERNAL", 11, 1, 0, Time.SYSTEM, registry);
        resources.add(quotas::close);
        return quotas;
    }

    /** Starts a PLAINTEXT listener named {@code listener} on an ephemeral port of 127.0.0.1; returns the port. */
    private int listen(String listener, ConnectionQuotas quotas) {
        EndPoint endPoint = new EndPoint(listener, SecurityProtocol.PLAINTEXT, "127.0.0.1", 0);
        ListenerSecurity security = new ListenerSecurity(endPoint, BrokerSecurityProperties.bind(Map.of()),
            new CredentialCache(), registry, Time.SYSTEM);
        resources.add(security);
        SocketServer server = new SocketServer(endPoint, 1, 1024 * 1024, 600_000, new ApiVersionsOnEventLoop(),
            new RequestChannel(10), security, quotas);
        resources.add(server);
        return server.start();
    }

    private WireClient connect(int port) throws IOException {
        WireClient client = new WireClient("127.0.0.1", port);
        resources.add(client);
        return client;
    }

    private static ApiVersionsRequest apiVersions() {
        return new ApiVersionsRequest.Builder().build((short) 3);
    }

    private static void assertAnswered(WireClient client) throws IOException {
        ApiVersionsResponse response = client.send(apiVersions());
        assertThat(response.data().errorCode()).isEqualTo(Errors.NONE.code());
    }

    /** No byte of an answer arrives for a while (the request was sent). */
    private static void assertUnanswered(WireClient client) throws IOException {
        client.setReadTimeoutMs(UNANSWERED_FOR_MS);
        assertThatThrownBy(client::readFrame).isInstanceOf(SocketTimeoutException.class);
    }

    /** The broker closes the connection: its end of stream arrives, not a timeout. */
    private static void assertClosedByBroker(WireClient client) throws IOException {
        client.setReadTimeoutMs(10_000);
        assertThatThrownBy(client::readFrame).as("closed by the broker")
            .isInstanceOfAny(EOFException.class, SocketException.class); // not a SocketTimeoutException
    }

    private static ApiVersionsResponse readApiVersionsAfterSending(WireClient client) throws IOException {
        client.sendOnly(apiVersions());
        return readApiVersions(client, 10_000);
    }

    private static ApiVersionsResponse readApiVersions(WireClient client, int timeoutMs) throws IOException {
        client.setReadTimeoutMs(timeoutMs);
        ByteBuffer frame = client.readFrame();
        ResponseHeader.parse(frame, ApiKeys.API_VERSIONS.responseHeaderVersion((short) 3));
        return (ApiVersionsResponse) AbstractResponse.parseResponse(ApiKeys.API_VERSIONS, new ByteBufferAccessor(frame),
            (short) 3);
    }

    /** Answers ApiVersions at once, on the network thread; no request handler threads needed. */
    private static final class ApiVersionsOnEventLoop implements RequestHandler {
        @Override
        public CompletableFuture<Response> handle(RequestContext context, ByteBuffer body) {
            return CompletableFuture.completedFuture(ControlledRequestHandler.okResponse(context));
        }

        @Override
        public CompletableFuture<Response> handleWithoutBlocking(RequestContext context, ByteBuffer body) {
            return handle(context, body);
        }
    }
}
