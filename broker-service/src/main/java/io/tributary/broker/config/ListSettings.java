package io.tributary.broker.config;

import java.util.Map;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/** Kafka's map-valued broker settings, parsed as Kafka parses them. Stateless. */
public final class ListSettings {

    private ListSettings() {
    }

    /**
     * Parses {@code listener.security.protocol.map}: {@code NAME:PROTOCOL} entries between commas,
     * names upper-cased.
     *
     * @throws IllegalArgumentException a malformed entry, an unknown protocol or a name given twice
     */
    static Map<String, SecurityProtocol> parseProtocolMap(String value) {
        Map<String, SecurityProtocol> map = new java.util.LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return map;
        }
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon <= 0 || colon == entry.trim().length() - 1) {
                throw new IllegalArgumentException("broker.listener-security-protocol-map entry '" + entry.trim()
                    + "' is not of the form NAME:PROTOCOL");
            }
            String name = entry.substring(0, colon).trim().toUpperCase(java.util.Locale.ROOT);
            String protocol = entry.substring(colon + 1).trim().toUpperCase(java.util.Locale.ROOT);
            SecurityProtocol parsed;
            try {
                parsed = SecurityProtocol.forName(protocol);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("broker.listener-security-protocol-map: unknown security protocol "
                    + protocol + "; known ones are " + SecurityProtocol.names());
            }
            if (map.put(name, parsed) != null) {
                throw new IllegalArgumentException("broker.listener-security-protocol-map names " + name + " twice");
            }
        }
        return Map.copyOf(map);
    }

    /**
     * Parses {@code max.connections.per.ip.overrides} as Kafka does: {@code host:count} entries between
     * commas, the count after the last colon (so IPv6 addresses need no brackets).
     *
     * @throws IllegalArgumentException on an entry without a host, or with a count that is not a number &gt;= 0
     */
    public static Map<String, Integer> parseMaxConnectionsPerIpOverrides(String value) {
        Map<String, Integer> overrides = new java.util.LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return overrides;
        }
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.lastIndexOf(':');
            String host = colon < 0 ? "" : entry.substring(0, colon).trim();
            int count;
            try {
                count = colon < 0 ? -1 : Integer.parseInt(entry.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (host.isEmpty() || count < 0) {
                throw new IllegalArgumentException("max.connections.per.ip.overrides entry '" + entry.trim()
                    + "' is not of the form host:count with a count >= 0");
            }
            overrides.put(host, count);
        }
        return overrides;
    }

}
