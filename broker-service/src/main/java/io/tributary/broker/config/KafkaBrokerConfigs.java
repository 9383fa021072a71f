package io.tributary.broker.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The broker settings Apache Kafka 3.9 in ZooKeeper mode lists in DescribeConfigs, with their
 * types and defaults, from the resource {@code kafka-3.9-broker-configs.tsv} beside this class. Kafka
 * 3.9 is the last release with ZooKeeper mode, so it is the Kafka version Tributary presents itself
 * as in broker configs ({@code inter.broker.protocol.version} 3.9-IV0): tools and UIs that guess the
 * version from those keys see a ZooKeeper-mode 3.9 broker, while ApiVersions advertises the APIs
 * (and their Kafka 4 versions) Tributary serves. Immutable; thread-safe.
 */
public final class KafkaBrokerConfigs {

    /** One setting: its ConfigDef type and Kafka's default (null for none). */
    public record Key(String name, ConfigDef.Type type, String defaultValue) {

        /** Whether Kafka hides its value (passwords): DescribeConfigs sends null and marks it sensitive. */
        public boolean sensitive() {
            return type == ConfigDef.Type.PASSWORD;
        }
    }

    private static final String RESOURCE = "kafka-3.9-broker-configs.tsv";
    private static final Map<String, Key> KEYS = load();

    private KafkaBrokerConfigs() {
    }

    private static Map<String, Key> load() {
        Map<String, Key> keys = new LinkedHashMap<>();
        try (InputStream in = KafkaBrokerConfigs.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the broker jar");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                if (fields.length != 3) {
                    throw new IllegalStateException(RESOURCE + ": malformed line '" + line + "'");
                }
                String value = switch (fields[2]) {
                    case "<null>", "<none>" -> null;
                    default -> fields[2];
                };
                keys.put(fields[0], new Key(fields[0], ConfigDef.Type.valueOf(fields[1]), value));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(keys);
    }

    /** Every setting, by name, in name order. */
    public static Map<String, Key> all() {
        return KEYS;
    }

    /** The setting named {@code name}, if Kafka 3.9 has it. */
    public static Optional<Key> key(String name) {
        return Optional.ofNullable(KEYS.get(name));
    }
}
