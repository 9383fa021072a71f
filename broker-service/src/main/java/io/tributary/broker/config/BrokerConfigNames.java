package io.tributary.broker.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The mapping between Kafka's broker setting names ({@code log.segment.bytes}) and this
 * broker's properties ({@code broker.log-segment-bytes}, the component {@code logSegmentBytes}
 * of {@link BrokerProperties}): dots become dashes under the {@code broker.} prefix;
 * {@code broker.id} (or KRaft's {@code node.id}) and {@code broker.rack} keep their names. Derived from the record,
 * so a new setting is mapped by adding it there.
 */
public final class BrokerConfigNames {

    /** Settings whose Kafka name keeps a {@code broker.} prefix: {@code broker.id}, {@code broker.rack}. */
    private static final java.util.Set<String> KAFKA_PREFIXED = java.util.Set.of("id", "rack");

    private static final Map<String, String> KAFKA_TO_COMPONENT;
    private static final Map<String, String> COMPONENT_TO_KAFKA;
    private static final Map<String, String> DEFAULTS;

    static {
        Map<String, String> kafkaToComponent = new LinkedHashMap<>();
        Map<String, String> componentToKafka = new LinkedHashMap<>();
        Map<String, String> defaults = new LinkedHashMap<>();
        Constructor<?> canonical = canonicalConstructor();
        RecordComponent[] components = BrokerProperties.class.getRecordComponents();
        Parameter[] parameters = canonical.getParameters();
        for (int i = 0; i < components.length; i++) {
            String component = components[i].getName();
            String kafka = KAFKA_PREFIXED.contains(component) ? "broker." + component : toDotted(component);
            kafkaToComponent.put(kafka, component);
            componentToKafka.put(component, kafka);
            DefaultValue defaultValue = parameters[i].getAnnotation(DefaultValue.class);
            defaults.put(kafka, defaultValue == null || defaultValue.value().length == 0 ? null
                : String.join(",", defaultValue.value()));
        }
        KAFKA_TO_COMPONENT = Collections.unmodifiableMap(kafkaToComponent);
        COMPONENT_TO_KAFKA = Collections.unmodifiableMap(componentToKafka);
        DEFAULTS = Collections.unmodifiableMap(defaults);
    }

    private BrokerConfigNames() {
    }

    private static Constructor<?> canonicalConstructor() {
        Class<?>[] types = java.util.Arrays.stream(BrokerProperties.class.getRecordComponents())
            .map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            return BrokerProperties.class.getDeclaredConstructor(types);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String toDotted(String camel) {
        StringBuilder sb = new StringBuilder();
        for (char c : camel.toCharArray()) {
            if (Character.isUpperCase(c)) {
                sb.append('.').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * The Spring property for a Kafka broker setting, e.g. {@code broker.log-segment-bytes} for
     * {@code log.segment.bytes}; empty when the setting is not supported.
     */
    public static Optional<String> propertyFor(String kafkaName) {
        String key = kafkaName.trim();
        if (key.equals("node.id")) {
            key = "broker.id";
        }
        String component = KAFKA_TO_COMPONENT.get(key);
        if (component == null) {
            return securityPropertyFor(key);
        }
        return Optional.of("broker." + toDotted(component).replace('.', '-'));
    }

    /**
     * The {@link BrokerSecurityProperties} property of a Kafka TLS or SASL setting: {@code ssl.keystore.location}
     * is {@code broker.ssl-keystore-location}, and {@code listener.name.<listener>.<mechanism>.sasl.jaas.config}
     * is {@code broker.listener-sasl-jaas-config[<listener>.<mechanism>]}; the share-group settings of
     * {@link ShareGroupProperties} the same way ({@code group.share.max.size} is {@code broker.group-share-max-size}). These stay out of
     * {@link #describe(BrokerProperties)}: DescribeConfigs never shows passwords or JAAS entries.
     */
    private static Optional<String> securityPropertyFor(String key) {
        java.util.regex.Matcher listenerJaas = java.util.regex.Pattern
            .compile("listener\\.name\\.([^.]+)\\.([^.]+)\\.sasl\\.jaas\\.config").matcher(key);
        if (listenerJaas.matches()) {
            return Optional.of("broker.listener-sasl-jaas-config[" + listenerJaas.group(1).toLowerCase(java.util.Locale.ROOT)
                + "." + listenerJaas.group(2).toLowerCase(java.util.Locale.ROOT) + "]");
        }
        for (Class<?> settings : List.of(BrokerSecurityProperties.class, ShareGroupProperties.class)) {
            for (RecordComponent component : settings.getRecordComponents()) {
                if ((component.getType() == String.class || component.getType().isPrimitive())
                        && toDotted(component.getName()).equals(key)) {
                    return Optional.of("broker." + key.replace('.', '-'));
                }
            }
        }
        return Optional.empty();
    }

    /** Every supported setting with its value, keyed by Kafka name, in declaration order. */
    public static Map<String, String> describe(BrokerProperties properties) {
        Map<String, String> out = new LinkedHashMap<>();
        for (RecordComponent component : BrokerProperties.class.getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(properties);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            String text = value == null ? null : value instanceof List<?> list
                ? String.join(",", list.stream().map(Object::toString).toList()) : value.toString();
            out.put(COMPONENT_TO_KAFKA.get(component.getName()), text);
        }
        return out;
    }

    /**
     * The TLS and SASL settings Kafka also names, with their values, keyed by Kafka name
     * ({@code sasl.enabled.mechanisms}, {@code ssl.client.auth}, {@code connections.max.reauth.ms}, ...).
     * Passwords and JAAS entries are left out, whatever their name: Kafka marks them sensitive.
     */
    public static Map<String, String> describeSecurity(BrokerSecurityProperties security) {
        Map<String, String> out = new LinkedHashMap<>();
        for (RecordComponent component : BrokerSecurityProperties.class.getRecordComponents()) {
            String name = toDotted(component.getName());
            Optional<KafkaBrokerConfigs.Key> key = KafkaBrokerConfigs.key(name);
            if (key.isEmpty() || key.get().sensitive() || name.contains("jaas") || name.contains("password")
                    || !(component.getType() == String.class || component.getType().isPrimitive())) {
                continue;
            }
            try {
                Object value = component.getAccessor().invoke(security);
                out.put(name, value == null ? null : value.toString());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    /** The default of a setting, by Kafka name, or null when it has none. */
    public static String defaultValue(String kafkaName) {
        return DEFAULTS.get(kafkaName);
    }

    /** Whether {@code kafkaName} names a supported setting. */
    public static boolean isSupported(String kafkaName) {
        return propertyFor(kafkaName).isPresent();
    }
}
