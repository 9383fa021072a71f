package io.tributary.broker.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Accepts a Kafka {@code server.properties} file given as {@code --server-properties=PATH}
 * (or the {@code SERVER_PROPERTIES} environment variable): each known Kafka setting is mapped
 * to its {@code broker.*} property ({@link BrokerConfigNames}), {@code log.retention.hours} /
 * {@code .minutes}, {@code log.roll.hours} and {@code log.roll.jitter.hours} are converted to milliseconds, and every unknown
 * key is named in one log line. The file ranks below command-line arguments and environment
 * variables, above application.yml.
 *
 * @throws IllegalArgumentException (at start) when the file cannot be read
 */
public class ServerPropertiesEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String PROPERTY = "server-properties";
    static final String SOURCE_NAME = "kafkaServerProperties";

    private final Log log;

    public ServerPropertiesEnvironmentPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(ServerPropertiesEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String path = environment.getProperty(PROPERTY);
        if (path == null || path.isBlank()) {
            return;
        }
        Properties kafka = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            kafka.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read the server properties file " + path + ": " + e.getMessage(), e);
        }
        Map<String, Object> mapped = map(kafka, unknown -> log.info("Ignoring settings of " + path
            + " that this broker does not support: " + unknown));
        log.info("Read " + mapped.size() + " setting(s) from " + path);
        MapPropertySource source = new MapPropertySource(SOURCE_NAME, mapped);
        if (environment.getPropertySources().contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
            environment.getPropertySources().addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, source);
        } else {
            environment.getPropertySources().addLast(source);
        }
    }

    /**
     * Maps Kafka settings to {@code broker.*} properties.
     *
     * @param unknownKeys receives the sorted unknown keys once, if there are any
     */
    static Map<String, Object> map(Properties kafka, java.util.function.Consumer<List<String>> unknownKeys) {
        Map<String, Object> mapped = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        // Sorted keys put log.retention.hours before .minutes before .ms (and log.roll.hours, log.roll.jitter.hours before their .ms),
        // so the finer unit wins, as in Kafka.
        for (String key : kafka.stringPropertyNames().stream().sorted().toList()) {
            String value = kafka.getProperty(key).trim();
            String target = switch (key) {
                case "log.retention.hours" -> putMs(mapped, "broker.log-retention-ms", value, TimeUnit.HOURS);
                case "log.retention.minutes" -> putMs(mapped, "broker.log-retention-ms", value, TimeUnit.MINUTES);
                case "log.roll.hours" -> putMs(mapped, "broker.log-roll-ms", value, TimeUnit.HOURS);
                case "log.roll.jitter.hours" -> putMs(mapped, "broker.log-roll-jitter-ms", value, TimeUnit.HOURS);
                case "log.dir" -> put(mapped, "broker.log-dirs", value);
                default -> BrokerConfigNames.propertyFor(key).map(p -> put(mapped, p, value)).orElse(null);
            };
            if (target == null) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            unknownKeys.accept(unknown);
        }
        return mapped;
    }

    private static String put(Map<String, Object> mapped, String property, String value) {
        mapped.put(property, value);
        return property;
    }

    private static String putMs(Map<String, Object> mapped, String property, String value, TimeUnit unit) {
        long amount = Long.parseLong(value);
        mapped.put(property, Long.toString(amount < 0 ? -1 : unit.toMillis(amount)));
        return property;
    }
}
