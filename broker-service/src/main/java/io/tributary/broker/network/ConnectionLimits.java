package io.tributary.broker.network;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The limits {@link ConnectionQuotas} enforces, as Kafka's settings name them (KIP-402, KIP-612). A
 * value of {@link Integer#MAX_VALUE} is no limit, as in Kafka. Listener names are upper case (Kafka's
 * normalised {@code ListenerName}); keys given in another case are converted. Immutable.
 *
 * @param maxConnections                       {@code max.connections}: connections on all listeners together
 * @param maxConnectionsPerListener            {@code listener.name.<listener>.max.connections}, by listener name
 * @param maxConnectionsPerIp                  {@code max.connections.per.ip}: connections from one IP address
 * @param maxConnectionsPerIpOverrides         {@code max.connections.per.ip.overrides}: per-address limits by host
 *                                             name or IP address, resolved when the limits are applied
 * @param maxConnectionCreationRate            {@code max.connection.creation.rate}: new connections per second on
 *                                             all listeners but the inter-broker one
 * @param maxConnectionCreationRatePerListener {@code listener.name.<listener>.max.connection.creation.rate}, new
 *                                             connections per second, by listener name
 */
public record ConnectionLimits(int maxConnections, Map<String, Integer> maxConnectionsPerListener,
                               int maxConnectionsPerIp, Map<String, Integer> maxConnectionsPerIpOverrides,
                               int maxConnectionCreationRate, Map<String, Integer> maxConnectionCreationRatePerListener) {

    /** No limit of any kind: Kafka's defaults. */
    public static final ConnectionLimits UNLIMITED = new ConnectionLimits(Integer.MAX_VALUE, Map.of(), Integer.MAX_VALUE,
        Map.of(), Integer.MAX_VALUE, Map.of());

    /**
     * Checks the limits as Kafka checks its settings.
     *
     * @throws IllegalArgumentException on a negative broker-wide or per-address limit, a listener limit below
     *                                  1, or {@code max.connections.per.ip} 0 without overrides
     */
    public ConnectionLimits {
        maxConnectionsPerListener = byListener(maxConnectionsPerListener, "max.connections");
        maxConnectionCreationRatePerListener = byListener(maxConnectionCreationRatePerListener,
            "max.connection.creation.rate");
        maxConnectionsPerIpOverrides = Map.copyOf(maxConnectionsPerIpOverrides);
        if (maxConnections < 0 || maxConnectionsPerIp < 0 || maxConnectionCreationRate < 0) {
            throw new IllegalArgumentException("max.connections, max.connections.per.ip and max.connection.creation.rate "
                + "must not be negative, were " + maxConnections + ", " + maxConnectionsPerIp + " and "
                + maxConnectionCreationRate);
        }
        maxConnectionsPerIpOverrides.forEach((host, count) -> {
            if (count < 0) {
                throw new IllegalArgumentException("max.connections.per.ip.overrides gives " + host + " a negative limit "
                    + count);
            }
        });
        if (maxConnectionsPerIp == 0 && maxConnectionsPerIpOverrides.isEmpty()) {
            throw new IllegalArgumentException("max.connections.per.ip can be 0 only if max.connections.per.ip.overrides "
                + "is set");
        }
    }

    private static Map<String, Integer> byListener(Map<String, Integer> limits, String name) {
        Map<String, Integer> normalised = new LinkedHashMap<>();
        limits.forEach((listener, limit) -> {
            if (limit <= 0) {
                throw new IllegalArgumentException("listener.name." + listener.toLowerCase(Locale.ROOT) + "." + name
                    + " must be positive, was " + limit);
            }
            normalised.put(listener.toUpperCase(Locale.ROOT), limit);
        });
        return Map.copyOf(normalised);
    }

    /** {@code listener.name.<listener>.max.connections}, or no limit. */
    public int maxConnections(String listener) {
        return maxConnectionsPerListener.getOrDefault(listener, Integer.MAX_VALUE);
    }

    /** {@code listener.name.<listener>.max.connection.creation.rate}, or no limit. */
    public int maxConnectionCreationRate(String listener) {
        return maxConnectionCreationRatePerListener.getOrDefault(listener, Integer.MAX_VALUE);
    }

    /** These limits with {@code max.connections} set to {@code max}. */
    public ConnectionLimits withMaxConnections(int max) {
        return new ConnectionLimits(max, maxConnectionsPerListener, maxConnectionsPerIp, maxConnectionsPerIpOverrides,
            maxConnectionCreationRate, maxConnectionCreationRatePerListener);
    }

    /** These limits with {@code listener.name.<listener>.max.connections} set to {@code max}. */
    public ConnectionLimits withMaxConnections(String listener, int max) {
        return new ConnectionLimits(maxConnections, with(maxConnectionsPerListener, listener, max), maxConnectionsPerIp,
            maxConnectionsPerIpOverrides, maxConnectionCreationRate, maxConnectionCreationRatePerListener);
    }

    /** These limits with {@code max.connections.per.ip} and its overrides (host name or IP to limit) replaced. */
    public ConnectionLimits withMaxConnectionsPerIp(int max, Map<String, Integer> overrides) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerListener, max, overrides, maxConnectionCreationRate,
            maxConnectionCreationRatePerListener);
    }

    /** These limits with {@code max.connection.creation.rate} set to {@code perSecond}. */
    public ConnectionLimits withMaxConnectionCreationRate(int perSecond) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerListener, maxConnectionsPerIp,
            maxConnectionsPerIpOverrides, perSecond, maxConnectionCreationRatePerListener);
    }

    /** These limits with {@code listener.name.<listener>.max.connection.creation.rate} set to {@code perSecond}. */
    public ConnectionLimits withMaxConnectionCreationRate(String listener, int perSecond) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerListener, maxConnectionsPerIp,
            maxConnectionsPerIpOverrides, maxConnectionCreationRate,
            with(maxConnectionCreationRatePerListener, listener, perSecond));
    }

    private static Map<String, Integer> with(Map<String, Integer> map, String key, int value) {
        Map<String, Integer> copy = new LinkedHashMap<>(map);
        copy.put(key.toUpperCase(Locale.ROOT), value);
        return copy;
    }

    /**
     * {@code max.connections.per.ip.overrides} with each host name resolved to its address (may block on DNS).
     *
     * @throws IllegalArgumentException a host name that does not resolve
     */
    public Map<java.net.InetAddress, Integer> resolvedPerIpOverrides() {
        Map<String, Integer> overrides = maxConnectionsPerIpOverrides;
        Map<java.net.InetAddress, Integer> resolved = new java.util.HashMap<>();
        overrides.forEach((host, count) -> {
            try {
                resolved.put(java.net.InetAddress.getByName(host), count);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException("max.connections.per.ip.overrides names " + host
                    + ", which does not resolve: " + e.getMessage(), e);
            }
        });
        return Map.copyOf(resolved);
    }

}
