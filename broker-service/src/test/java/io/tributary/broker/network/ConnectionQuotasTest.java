package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tributary.broker.network.ConnectionQuotas.Admission;
import io.tributary.broker.network.ConnectionQuotas.Connection;
import io.tributary.broker.network.ConnectionQuotas.Outcome;
import io.tributary.broker.testing.MockTime;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The connection limits of Kafka's {@code ConnectionQuotas} (KIP-402, KIP-612) without sockets: per
 * address, per listener and broker-wide counts, the protected inter-broker listener, creation rate
 * throttles as Kafka computes them, and limits replaced live. Time is a {@link MockTime}.
 */
class ConnectionQuotasTest {

    private static final String INTERNAL = "INTERNAL";
    private static final String EXTERNAL = "EXTERNAL";
    private static final String ADMIN = "ADMIN";
    private static final InetAddress CLIENT_A = address("10.0.0.1");
    private static final InetAddress CLIENT_B = address("10.0.0.2");

    private final MockTime time = new MockTime();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** Wake-ups each listener got. */
    private final Map<String, AtomicInteger> wakes = new HashMap<>();
    /** Connections closed by the quotas (evicted), in order, by the name given when admitted. */
    private final List<String> evicted = new ArrayList<>();

    private ConnectionQuotas quotas(ConnectionLimits limits, String... listeners) {
        ConnectionQuotas quotas = new ConnectionQuotas(limits, INTERNAL, 11, 1, 0, time, registry);
        for (String listener : listeners) {
            AtomicInteger woken = new AtomicInteger();
            wakes.put(listener, woken);
            quotas.addListener(listener, woken::incrementAndGet);
        }
        return quotas;
    }

    private Admission admit(ConnectionQuotas quotas, String listener, InetAddress address, String name) {
        return quotas.admit(listener, address, () -> evicted.add(name));
    }

    private Connection admitted(ConnectionQuotas quotas, String listener, InetAddress address, String name) {
        Admission admission = admit(quotas, listener, address, name);
        assertThat(admission.outcome()).as(name).isEqualTo(Outcome.ADMITTED);
        return admission.connection();
    }

    @Test
    void connectionOverItsAddressLimitIsRefusedAndCounted() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionsPerIp(2, Map.of()), EXTERNAL, ADMIN);
        Connection first = admitted(quotas, EXTERNAL, CLIENT_A, "a1");
        admitted(quotas, ADMIN, CLIENT_A, "a2");

        Admission third = admit(quotas, EXTERNAL, CLIENT_A, "a3");
        assertThat(third.outcome()).isEqualTo(Outcome.TOO_MANY_FROM_ADDRESS);
        assertThat(third.limit()).isEqualTo(2);
        assertThat(quotas.connectionCount(CLIENT_A)).isEqualTo(2);
        assertThat(quotas.connectionCount(EXTERNAL)).isEqualTo(1);
        assertThat(registry.get("tributary.network.connections.refused").tag("listener", EXTERNAL).counter().count())
            .isEqualTo(1);
        admitted(quotas, EXTERNAL, CLIENT_B, "b1");

        quotas.closed(first);
        admitted(quotas, EXTERNAL, CLIENT_A, "a4");
        assertThat(evicted).isEmpty();
    }

    @Test
    void overridesSetTheLimitOfAnAddressGivenByIpOrHostName() {
        InetAddress localhost = address("localhost");
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionsPerIp(2,
            Map.of("10.0.0.1", 1, "localhost", 3)), EXTERNAL);

        admitted(quotas, EXTERNAL, CLIENT_A, "a1");
        assertThat(admit(quotas, EXTERNAL, CLIENT_A, "a2").limit()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            admitted(quotas, EXTERNAL, localhost, "local" + i);
        }
        assertThat(admit(quotas, EXTERNAL, localhost, "local3").outcome()).isEqualTo(Outcome.TOO_MANY_FROM_ADDRESS);
        admitted(quotas, EXTERNAL, CLIENT_B, "b1");
        admitted(quotas, EXTERNAL, CLIENT_B, "b2");
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "b3").limit()).as("the default").isEqualTo(2);
    }

    @Test
    void perIpZeroOnlyWithOverrides() {
        assertThatThrownBy(() -> ConnectionLimits.UNLIMITED.withMaxConnectionsPerIp(0, Map.of()))
            .hasMessageContaining("max.connections.per.ip.overrides");
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionsPerIp(0, Map.of("10.0.0.1", 1)),
            EXTERNAL);
        admitted(quotas, EXTERNAL, CLIENT_A, "a1");
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "b1").outcome()).isEqualTo(Outcome.TOO_MANY_FROM_ADDRESS);
    }

    @Test
    void atTheBrokerMaxNoListenerHasASlotUntilAConnectionCloses() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(2), EXTERNAL, ADMIN);
        Connection first = admitted(quotas, EXTERNAL, CLIENT_A, "e1");
        admitted(quotas, ADMIN, CLIENT_B, "a1");

        assertThat(admit(quotas, EXTERNAL, CLIENT_A, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);
        assertThat(admit(quotas, ADMIN, CLIENT_A, "a2").outcome()).isEqualTo(Outcome.NO_SLOT);
        assertThat(wakes.get(EXTERNAL)).hasValue(0);

        quotas.closed(first);
        assertThat(wakes.get(EXTERNAL)).hasValue(1);
        assertThat(wakes.get(ADMIN)).hasValue(1);
        admitted(quotas, ADMIN, CLIENT_A, "a2");
        assertThat(admit(quotas, EXTERNAL, CLIENT_A, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);
        quotas.closed(first); // twice: counted once
        assertThat(quotas.totalConnectionCount()).isEqualTo(2);
        assertThat(evicted).isEmpty();
    }

    @Test
    void listenerMaxBlocksThatListenerOnly() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(EXTERNAL, 1), EXTERNAL, ADMIN);
        Connection first = admitted(quotas, EXTERNAL, CLIENT_A, "e1");
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);
        admitted(quotas, ADMIN, CLIENT_B, "a1");
        admitted(quotas, ADMIN, CLIENT_B, "a2");
        assertThat(registry.get("kafka.server.socket.server.metrics.connection.count").tag("listener", ADMIN).gauge()
            .value()).isEqualTo(2);

        quotas.closed(first);
        assertThat(wakes.get(EXTERNAL)).hasValue(1);
        assertThat(wakes.get(ADMIN)).as("it never waited").hasValue(0);
        admitted(quotas, EXTERNAL, CLIENT_B, "e2");
    }

    @Test
    void interBrokerConnectionAboveTheBrokerMaxEvictsTheLeastRecentlyActiveConnectionOfAnotherListener() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(3), INTERNAL, EXTERNAL, ADMIN);
        Connection internal = admitted(quotas, INTERNAL, CLIENT_A, "i1");
        time.advance(10);
        Connection external = admitted(quotas, EXTERNAL, CLIENT_B, "e1");
        time.advance(10);
        Connection admin = admitted(quotas, ADMIN, CLIENT_B, "a1");
        time.advance(10);
        external.recordActivity(); // e1 is now more recent than a1; i1, the oldest, is protected
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);

        admitted(quotas, INTERNAL, CLIENT_A, "i2");
        assertThat(evicted).containsExactly("a1");
        // Another before a1 has closed: a1 is closing already, so e1 goes too.
        admitted(quotas, INTERNAL, CLIENT_A, "i3");
        assertThat(evicted).containsExactly("a1", "e1");
        assertThat(quotas.totalConnectionCount()).isEqualTo(5);

        quotas.closed(admin);
        quotas.closed(external);
        assertThat(quotas.totalConnectionCount()).isEqualTo(3);
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);
        admitted(quotas, INTERNAL, CLIENT_A, "i4");
        assertThat(evicted).as("no connection of another listener is left").containsExactly("a1", "e1");
        quotas.closed(internal);
    }

    @Test
    void theInterBrokerListenerAloneIsNotProtected() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(1), INTERNAL);
        admitted(quotas, INTERNAL, CLIENT_A, "i1");
        assertThat(admit(quotas, INTERNAL, CLIENT_A, "i2").outcome()).isEqualTo(Outcome.NO_SLOT);
        quotas.addListener(EXTERNAL, () -> { });
        assertThat(wakes.get(INTERNAL)).as("woken: it may be protected now").hasValue(1);
        admitted(quotas, INTERNAL, CLIENT_A, "i2");
    }

    /**
     * Kafka's {@code Rate} over 11 windows of 1 s measures at least 10 s, so 20 connections at once are
     * 2/s; the 21st makes 2.1/s, which takes (2.1 - 2) / 2 * 10 s = 500 ms to fall back to 2/s; the
     * 22nd (2.2 - 2) / 2 * 10 s = 1 s; later ones would take longer but wait at most one window (1 s).
     */
    @Test
    void creationRateThrottleIsTheTimeTheRateTakesToFallBackToTheLimit() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionCreationRate(2), INTERNAL, EXTERNAL);
        for (int i = 0; i < 20; i++) {
            assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).as("connection %d", i).isZero();
        }
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).isEqualTo(500);
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).isEqualTo(1000);
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).isEqualTo(1000);
        assertThat(registry.get("kafka.server.socket.server.metrics.connection.accept.throttle.time")
            .tag("listener", EXTERNAL).gauge().value()).isEqualTo((500 + 1000 + 1000) / 3.0);

        for (int i = 0; i < 50; i++) {
            assertThat(quotas.recordConnectionAndGetThrottleTimeMs(INTERNAL)).as("exempt from the broker rate").isZero();
        }
        time.advance(11_000); // every window has rolled over
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).isZero();
    }

    @Test
    void listenerCreationRateAppliesToTheInterBrokerListenerToo() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnectionCreationRate(INTERNAL, 4)
            .withMaxConnectionCreationRate(1000), INTERNAL, EXTERNAL);
        for (int i = 0; i < 40; i++) {
            assertThat(quotas.recordConnectionAndGetThrottleTimeMs(INTERNAL)).isZero();
        }
        // 41 in at least 10 s is 4.1/s: (4.1 - 4) / 4 * 10 s.
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(INTERNAL)).isEqualTo(250);
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(EXTERNAL)).isZero();
    }

    @Test
    void updatedLimitsApplyToNewConnections() {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED.withMaxConnections(1);
        ConnectionQuotas quotas = quotas(limits, EXTERNAL, ADMIN);
        admitted(quotas, EXTERNAL, CLIENT_A, "e1");
        assertThat(admit(quotas, EXTERNAL, CLIENT_A, "e2").outcome()).isEqualTo(Outcome.NO_SLOT);

        quotas.updateLimits(limits.withMaxConnections(3));
        assertThat(wakes.get(EXTERNAL)).hasValue(1);
        time.advance(10);
        admitted(quotas, EXTERNAL, CLIENT_A, "e2");
        time.advance(10);
        admitted(quotas, ADMIN, CLIENT_A, "a1");
        time.advance(10);

        quotas.updateLimits(limits.withMaxConnections(3).withMaxConnectionsPerIp(3, Map.of("10.0.0.1", 1)));
        assertThat(admit(quotas, ADMIN, CLIENT_B, "b1").outcome()).as("the broker max").isEqualTo(Outcome.NO_SLOT);
        quotas.updateLimits(limits.withMaxConnections(5).withMaxConnectionsPerIp(3, Map.of("10.0.0.1", 1)));
        assertThat(admit(quotas, ADMIN, CLIENT_A, "a2").outcome()).isEqualTo(Outcome.TOO_MANY_FROM_ADDRESS);
        admitted(quotas, ADMIN, CLIENT_B, "b1");

        quotas.updateLimits(limits.withMaxConnections(2).withMaxConnectionCreationRate(1));
        assertThat(evicted).as("the two least recently active").containsExactly("e1", "e2");
        assertThat(quotas.totalConnectionCount()).as("counted until they have closed").isEqualTo(4);
        assertThat(admit(quotas, ADMIN, CLIENT_B, "b2").outcome()).isEqualTo(Outcome.NO_SLOT);
        for (int i = 0; i < 10; i++) {
            assertThat(quotas.recordConnectionAndGetThrottleTimeMs(ADMIN)).isZero();
        }
        assertThat(quotas.recordConnectionAndGetThrottleTimeMs(ADMIN)).as("(1.1 - 1) / 1 * 10 s, at most 1 s")
            .isEqualTo(1000);
        assertThat(quotas.limits()).isEqualTo(limits.withMaxConnections(2).withMaxConnectionCreationRate(1));
    }

    @Test
    void loweringTheBrokerMaxClosesTheLeastRecentlyActiveConnectionsAboveIt() {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED;
        ConnectionQuotas quotas = quotas(limits, INTERNAL, EXTERNAL);
        Map<String, Connection> connections = new HashMap<>();
        for (int i = 1; i <= 5; i++) {
            connections.put("e" + i, admitted(quotas, EXTERNAL, CLIENT_A, "e" + i));
            time.advance(10);
        }
        connections.get("e1").recordActivity();
        time.advance(10);
        connections.get("e3").recordActivity();
        time.advance(10);
        connections.get("e5").recordActivity(); // least recently active now: e2, then e4

        quotas.updateLimits(limits.withMaxConnections(3));
        assertThat(evicted).containsExactlyInAnyOrder("e2", "e4");
        assertThat(quotas.totalConnectionCount()).as("counted until they have closed").isEqualTo(5);
        quotas.updateLimits(limits.withMaxConnections(3).withMaxConnectionsPerIp(100, Map.of()));
        assertThat(evicted).as("those closing already are not counted: none more").hasSize(2);

        quotas.closed(connections.get("e2"));
        quotas.closed(connections.get("e4"));
        assertThat(quotas.connectionCount(EXTERNAL)).isEqualTo(3);
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "e6").outcome()).isEqualTo(Outcome.NO_SLOT);
        assertThat(evicted).hasSize(2);
    }

    @Test
    void loweringTheBrokerMaxNeverClosesConnectionsOfTheProtectedInterBrokerListener() {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED;
        ConnectionQuotas quotas = quotas(limits, INTERNAL, EXTERNAL, ADMIN);
        for (int i = 1; i <= 3; i++) {
            admitted(quotas, INTERNAL, CLIENT_A, "i" + i); // the least recently active of all
            time.advance(10);
        }
        Connection external = admitted(quotas, EXTERNAL, CLIENT_B, "e1");
        time.advance(10);
        Connection admin = admitted(quotas, ADMIN, CLIENT_B, "a1");
        time.advance(10);

        quotas.updateLimits(limits.withMaxConnections(2));
        assertThat(evicted).as("every other connection, and still above the max").containsExactlyInAnyOrder("e1", "a1");
        quotas.closed(external);
        quotas.closed(admin);
        assertThat(quotas.connectionCount(INTERNAL)).isEqualTo(3);
        assertThat(quotas.totalConnectionCount()).isEqualTo(3);
        admitted(quotas, INTERNAL, CLIENT_A, "i4");
        assertThat(evicted).hasSize(2);
    }

    /** As in Kafka: a listener's own max.connections (and an address's) only keeps new connections out. */
    @Test
    void loweringAListenerMaxOrAnAddressMaxClosesNothing() {
        ConnectionLimits limits = ConnectionLimits.UNLIMITED;
        ConnectionQuotas quotas = quotas(limits, INTERNAL, EXTERNAL, ADMIN);
        for (int i = 1; i <= 3; i++) {
            admitted(quotas, INTERNAL, CLIENT_A, "i" + i);
            admitted(quotas, EXTERNAL, CLIENT_A, "e" + i);
            time.advance(10);
        }
        quotas.updateLimits(limits.withMaxConnections(EXTERNAL, 1).withMaxConnections(INTERNAL, 1)
            .withMaxConnectionsPerIp(2, Map.of()));
        assertThat(evicted).isEmpty();
        assertThat(quotas.totalConnectionCount()).isEqualTo(6);
        assertThat(admit(quotas, EXTERNAL, CLIENT_B, "e4").outcome()).isEqualTo(Outcome.NO_SLOT);
        assertThat(admit(quotas, INTERNAL, CLIENT_B, "i4").outcome()).isEqualTo(Outcome.NO_SLOT);
        admitted(quotas, ADMIN, CLIENT_B, "a1");
    }

    @Test
    void interBrokerListenerLeftAloneAboveTheBrokerMaxHasItsLeastRecentlyActiveConnectionsClosed() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(1), INTERNAL, EXTERNAL);
        for (int i = 1; i <= 3; i++) {
            admitted(quotas, INTERNAL, CLIENT_A, "i" + i); // protected: admitted above the max
            time.advance(10);
        }
        assertThat(evicted).isEmpty();

        quotas.removeListener(EXTERNAL);
        assertThat(evicted).containsExactlyInAnyOrder("i1", "i2");
    }

    @Test
    void removedListenerTakesItsMetersAndItsConnectionsStillCountUntilClosed() {
        ConnectionQuotas quotas = quotas(ConnectionLimits.UNLIMITED.withMaxConnections(1), EXTERNAL, ADMIN);
        Connection connection = admitted(quotas, EXTERNAL, CLIENT_A, "e1");
        quotas.removeListener(EXTERNAL);
        assertThat(registry.find("kafka.server.socket.server.metrics.connection.count").tag("listener", EXTERNAL)
            .gauge()).isNull();
        assertThat(admit(quotas, ADMIN, CLIENT_A, "a1").outcome()).isEqualTo(Outcome.NO_SLOT);
        quotas.closed(connection);
        admitted(quotas, ADMIN, CLIENT_A, "a1");
        assertThatThrownBy(() -> admit(quotas, EXTERNAL, CLIENT_A, "e2")).isInstanceOf(IllegalStateException.class);
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
