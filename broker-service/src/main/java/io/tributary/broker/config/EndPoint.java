package io.tributary.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * One listener of a broker, as written in Kafka's {@code listeners} setting:
 * {@code NAME://host:port}, for example {@code PLAINTEXT://127.0.0.1:9092}.
 *
 * <p>The listener name doubles as the security protocol when no protocol map is configured,
 * as in Kafka. An empty host ({@code PLAINTEXT://:9092}) binds every interface; port 0 binds
 * an ephemeral port, which the broker then registers and advertises.
 *
 * @param listenerName     upper-case listener name, e.g. {@code PLAINTEXT}
 * @param securityProtocol the protocol spoken on it
 * @param host             host or address; empty for all interfaces
 * @param port             TCP port, 0 for ephemeral
 */
public record EndPoint(String listenerName, SecurityProtocol securityProtocol, String host, int port) {

    /**
     * Parses a comma-separated listener list.
     *
     * @throws IllegalArgumentException on a malformed entry, an unknown protocol or a duplicate name
     */
    public static List<EndPoint> parseList(String value) {
        return parseList(value, java.util.Map.of());
    }

    /**
     * Parses a comma-separated listener list, taking each listener's security protocol from
     * {@code protocolMap} ({@code listener.security.protocol.map}), or from its name when the map
     * does not name it.
     *
     * @throws IllegalArgumentException on a malformed entry, an unknown protocol or a duplicate name
     */
    public static List<EndPoint> parseList(String value, java.util.Map<String, SecurityProtocol> protocolMap) {
        List<EndPoint> endPoints = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return endPoints;
        }
        for (String item : value.split(",")) {
            String trimmed = item.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            EndPoint endPoint = parse(trimmed, protocolMap);
            if (endPoints.stream().anyMatch(e -> e.listenerName.equals(endPoint.listenerName))) {
                throw new IllegalArgumentException("Listener name " + endPoint.listenerName + " appears twice in '" + value + "'");
            }
            endPoints.add(endPoint);
        }
        return endPoints;
    }

    /** Parses one {@code NAME://host:port} entry; IPv6 hosts go in brackets. */
    public static EndPoint parse(String value) {
        return parse(value, java.util.Map.of());
    }

    /** Parses one {@code NAME://host:port} entry with the protocol of its name from {@code protocolMap}. */
    public static EndPoint parse(String value, java.util.Map<String, SecurityProtocol> protocolMap) {
        int schemeEnd = value.indexOf("://");
        int portSeparator = value.lastIndexOf(':');
        if (schemeEnd <= 0 || portSeparator <= schemeEnd + 2) {
            throw new IllegalArgumentException("Listener '" + value + "' is not of the form NAME://host:port");
        }
        String name = value.substring(0, schemeEnd).toUpperCase(Locale.ROOT);
        String host = value.substring(schemeEnd + 3, portSeparator);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(portSeparator + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Listener '" + value + "' has no valid port");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("Listener '" + value + "' has port " + port + " outside 0..65535");
        }
        SecurityProtocol protocol = protocolMap.get(name);
        if (protocol == null) {
            try {
                protocol = SecurityProtocol.forName(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Listener '" + value + "' names no known security protocol and "
                    + "listener.security.protocol.map does not map it; known protocols are " + SecurityProtocol.names());
            }
        }
        return new EndPoint(name, protocol, host, port);
    }

    /** This end point with another port (used once an ephemeral port is bound). */
    public EndPoint withPort(int newPort) {
        return new EndPoint(listenerName, securityProtocol, host, newPort);
    }

    /** This end point with another host. */
    public EndPoint withHost(String newHost) {
        return new EndPoint(listenerName, securityProtocol, newHost, port);
    }

    /** The {@code NAME://host:port} form, as written in ZooKeeper's broker registration. */
    public String connectionString() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return listenerName + "://" + h + ":" + port;
    }
}
