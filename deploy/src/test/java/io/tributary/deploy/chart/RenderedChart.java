package io.tributary.deploy.chart;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The documents of one render, parsed into the fabric8 Kubernetes model (custom resources such as
 * ServiceMonitor as generic resources), with look-ups by kind and name.
 */
public final class RenderedChart {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final String text;
    private final List<HasMetadata> resources;

    private RenderedChart(String text, List<HasMetadata> resources) {
        this.text = text;
        this.resources = resources;
    }

    /**
     * Parses {@code helm template} output.
     *
     * @throws IllegalArgumentException when a document is not a Kubernetes resource, or has a field
     *                                  the Kubernetes model does not know (a typo in a template)
     */
    public static RenderedChart parse(String text) {
        List<HasMetadata> resources = new ArrayList<>();
        for (String document : text.split("(?m)^---\\s*$")) {
            if (document.lines().allMatch(line -> line.isBlank() || line.startsWith("#"))) {
                continue;
            }
            KubernetesResource parsed = SERIALIZATION.unmarshal(document, KubernetesResource.class);
            if (!(parsed instanceof HasMetadata resource)) {
                throw new IllegalArgumentException("Not a Kubernetes resource:\n" + document);
            }
            if (!(resource instanceof GenericKubernetesResource)) {
                List<String> unknown = new ArrayList<>();
                unknownFields(resource, resource.getKind(), unknown);
                if (!unknown.isEmpty()) {
                    throw new IllegalArgumentException(resource.getKind() + " " + resource.getMetadata().getName()
                        + " has fields the Kubernetes API does not know: " + unknown);
                }
            }
            resources.add(resource);
        }
        return new RenderedChart(text, List.copyOf(resources));
    }

    /** The text Helm printed. */
    public String text() {
        return text;
    }

    /** Every resource, in render order. */
    public List<HasMetadata> resources() {
        return resources;
    }

    /** All resources of a model type. */
    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * The resource of a type with a name.
     *
     * @throws AssertionError when there is none
     */
    public <T extends HasMetadata> T get(Class<T> type, String name) {
        return all(type).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("No " + type.getSimpleName() + " named " + name + " in the render; "
                + "there are " + resources.stream().map(r -> r.getKind() + "/" + r.getMetadata().getName()).toList()));
    }

    /** Whether a resource of the kind exists (custom kinds included). */
    public boolean hasKind(String kind) {
        return resources.stream().anyMatch(r -> r.getKind().equals(kind));
    }

    /** Custom resources of a kind, e.g. ServiceMonitor. */
    public List<GenericKubernetesResource> custom(String kind) {
        return resources.stream().filter(r -> r.getKind().equals(kind) && r instanceof GenericKubernetesResource)
            .map(GenericKubernetesResource.class::cast).toList();
    }

    /** The server.properties of broker {@code ordinal}, from the brokers' ConfigMap. */
    public Properties brokerProperties(int ordinal) {
        ConfigMap configMap = get(ConfigMap.class, HelmChart.RELEASE + "-broker-config");
        String key = HelmChart.RELEASE + "-broker-" + ordinal + ".properties";
        String file = configMap.getData().get(key);
        if (file == null) {
            throw new AssertionError("The brokers' ConfigMap has no " + key + "; it has " + configMap.getData().keySet());
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** The value of a container's environment variable, or null when it is not set by value. */
    public static String env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
            .map(EnvVar::getValue).orElse(null);
    }

    /** The environment variable itself (for those that come from the downward API). */
    public static EnvVar envVar(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
            .orElseThrow(() -> new AssertionError("Container " + container.getName() + " has no variable " + name));
    }

    /**
     * Collects the paths of fields that ended up in the model's catch-all additionalProperties:
     * fields the Kubernetes API would reject or ignore.
     */
    private static void unknownFields(Object node, String path, List<String> unknown) {
        if (node == null) {
            return;
        }
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", unknown);
            }
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> unknownFields(v, path + "." + k, unknown));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getName().equals("getClass")) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(node);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    extra.keySet().forEach(k -> unknown.add(path + "." + k));
                }
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
            unknownFields(value, path + "." + field, unknown);
        }
    }
}
