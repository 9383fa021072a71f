package io.tributary.broker;

import io.tributary.broker.config.BrokerProperties;
import io.tributary.broker.config.EndPoint;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/** The addresses a broker gives out for its bound listeners: to clients (registration) and to itself. */
final class BrokerListeners {

    private BrokerListeners() {
    }

    /**
     * The advertised listeners, with ephemeral ports replaced by the bound ones and wildcard or
     * empty hosts by this machine's canonical host name; the bound listeners when none are set.
     */
    static List<EndPoint> advertised(BrokerProperties properties, List<EndPoint> bound) {
        List<EndPoint> advertised = properties.advertisedEndPoints();
        List<EndPoint> source = advertised.isEmpty() ? bound : advertised;
        List<EndPoint> out = new ArrayList<>();
        for (EndPoint e : source) {
            EndPoint endPoint = e;
            if (endPoint.port() == 0) {
                int port = bound.stream().filter(b -> b.listenerName().equals(e.listenerName()))
                    .mapToInt(EndPoint::port).findFirst().orElse(0);
                endPoint = endPoint.withPort(port);
            }
            if (isWildcard(endPoint.host())) {
                endPoint = endPoint.withHost(localHostName());
            }
            out.add(endPoint);
        }
        return out;
    }

    /** {@code host:port} of the inter-broker listener as bound (loopback for a wildcard), for the broker's own clients. */
    static String interBrokerBootstrap(BrokerProperties properties, List<EndPoint> bound) {
        EndPoint e = bound.stream().filter(b -> b.listenerName().equals(properties.interBrokerListener()))
            .findFirst().orElse(bound.get(0));
        String host = isWildcard(e.host()) ? InetAddress.getLoopbackAddress().getHostAddress() : e.host();
        return host + ":" + e.port();
    }

    private static boolean isWildcard(String host) {
        return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::");
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return InetAddress.getLoopbackAddress().getHostAddress();
        }
    }
}
