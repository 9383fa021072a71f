package io.tributary.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tributary.deploy.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientProperties;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Every setting the chart gives the apps is one they have: each Kafka name in the brokers'
 * server.properties maps to a component of {@code BrokerProperties} (as {@code BrokerConfigNames}
 * maps them), and each environment variable to a component of the apps' configuration records,
 * read from their sources. A misspelt name would otherwise be ignored silently by the app.
 */
class AppSettingsTest {

    private static final Path BROKER_PROPERTIES =
        Path.of("broker-service/src/main/java/io/tributary/broker/config/BrokerProperties.java");
    private static final Path REST_PROXY_PROPERTIES =
        Path.of("rest-proxy/src/main/java/io/tributary/restproxy/config/RestProxyProperties.java");
    private static final Path KAFKA_CLIENT_PROPERTIES =
        Path.of("rest-proxy/src/main/java/io/tributary/restproxy/config/KafkaClientProperties.java");
    private static final Path BROKER_SECURITY_PROPERTIES =
        Path.of("broker-service/src/main/java/io/tributary/broker/config/BrokerSecurityProperties.java");
    private static final Path BROKER_BOOTSTRAP_PROPERTIES =
        Path.of("broker-service/src/main/java/io/tributary/broker/config/BrokerBootstrapProperties.java");
    private static final Path REST_PROXY_AUTHENTICATION_PROPERTIES =
        Path.of("rest-proxy/src/main/java/io/tributary/restproxy/security/AuthenticationProperties.java");
    private static final Path ADMIN_UI_PROXY_PROPERTIES =
        Path.of("admin-ui/src/main/java/io/tributary/adminui/proxy/RestProxyProperties.java");
    private static final Path ADMIN_UI_THROUGHPUT_PROPERTIES =
        Path.of("admin-ui/src/main/java/io/tributary/adminui/throughput/ThroughputProperties.java");
    private static final Path ADMIN_UI_AUTHENTICATION_PROPERTIES =
        Path.of("admin-ui/src/main/java/io/tributary/adminui/security/AuthenticationProperties.java");

    /** Kafka names the broker's server.properties reader accepts besides the mapped components. */
    private static final Set<String> BROKER_ALIASES =
        Set.of("node.id", "log.dir", "log.retention.hours", "log.retention.minutes", "log.roll.hours");

    /**
     * Spring Boot's own settings the chart sets: the port, the proxy's HTTPS key store, the proxy's
     * JWT resource server (bearer), and the admin UI's SSL bundle "restproxy" (the trust store of the
     * proxy's certificate, as {@code admin-ui.rest-proxy-ssl-bundle} names it).
     */
    private static final Set<String> SPRING_SETTINGS = Set.of("server.port", "server.ssl.key-store",
        "server.ssl.key-store-type", "server.ssl.key-store-password",
        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri", "spring.security.oauth2.resourceserver.jwt.issuer-uri",
        "spring.security.oauth2.resourceserver.jwt.audiences",
        "spring.ssl.bundle.jks.restproxy.truststore.location", "spring.ssl.bundle.jks.restproxy.truststore.type",
        "spring.ssl.bundle.jks.restproxy.truststore.password", "spring.ssl.bundle.pem.restproxy.truststore.certificate");

    /**
     * The chart's own variables: each only carries a Secret's value into another variable's value
     * through Kubernetes' {@code $(NAME)}, so no app setting holds a password in the pod spec.
     */
    private static final Pattern CHART_VARIABLE = Pattern.compile("TRIBUTARY_[A-Z_]+");

    /**
     * The admin UI's OAuth2 client (Spring Boot's {@code spring.security.oauth2.client.*}): a map keyed by
     * the registration id, so each variable is checked by binding it as the app would.
     */
    private static final String OAUTH2_CLIENT_VARIABLES = "SPRING_SECURITY_OAUTH2_CLIENT_";

    /** Kubernetes' reference to another variable in a value: {@code $(NAME)}. */
    private static final Pattern KUBERNETES_REFERENCE = Pattern.compile("\\$\\(([A-Z_]+)\\)");

    static Stream<String> valuesFiles() {
        List<String> names = new ArrayList<>();
        names.add("default");
        HelmChart.ciValuesFiles().forEach(f -> names.add(f.getFileName().toString()));
        return names.stream();
    }

    private static RenderedChart render(String valuesFile) {
        return valuesFile.equals("default") ? HelmChart.render() : HelmChart.render(HelmChart.directory().resolve("ci/" + valuesFile));
    }

    @ParameterizedTest
    @MethodSource("valuesFiles")
    void everyServerPropertiesKeyIsABrokerSetting(String valuesFile) {
        RenderedChart chart = render(valuesFile);
        Set<String> known = kafkaNames(components(BROKER_PROPERTIES));
        known.addAll(BROKER_ALIASES);
        // TLS and SASL settings (BrokerConfigNames maps those of String or primitive type; the map is JAAS per listener).
        components(BROKER_SECURITY_PROPERTIES).stream().filter(c -> !c.equals("listenerSaslJaasConfig"))
            .forEach(c -> known.add(kebab(c).replace('-', '.')));
        int brokers = chart.get(StatefulSet.class, HelmChart.RELEASE + "-broker").getSpec().getReplicas();
        for (int i = 0; i < brokers; i++) {
            Set<String> unknown = new HashSet<>(chart.brokerProperties(i).stringPropertyNames());
            unknown.removeAll(known);
            assertThat(unknown).as("settings of broker %d the broker does not know", i).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("valuesFiles")
    void everyEnvironmentVariableOfTheAppsNamesOneOfTheirSettings(String valuesFile) {
        RenderedChart chart = render(valuesFile);
        Set<String> brokerEnv = new HashSet<>();
        components(BROKER_PROPERTIES).forEach(c -> brokerEnv.add(environmentName("broker", c)));
        components(BROKER_SECURITY_PROPERTIES).forEach(c -> brokerEnv.add(environmentName("broker", c)));
        components(BROKER_BOOTSTRAP_PROPERTIES).forEach(c -> brokerEnv.add(environmentName("broker", c)));
        assertKnownEnvironment(container(chart, HelmChart.RELEASE + "-broker"), brokerEnv);

        Set<String> proxyEnv = new HashSet<>();
        components(REST_PROXY_PROPERTIES).forEach(c -> proxyEnv.add(environmentName("rest-proxy", c)));
        components(KAFKA_CLIENT_PROPERTIES).forEach(c -> proxyEnv.add(environmentName("kafka", c)));
        components(REST_PROXY_AUTHENTICATION_PROPERTIES)
            .forEach(c -> proxyEnv.add(environmentName("rest-proxy.authentication", c)));
        assertKnownEnvironment(container(chart, HelmChart.RELEASE + "-rest-proxy"), proxyEnv);

        Deployment adminUi = chart.all(Deployment.class).stream()
            .filter(d -> d.getMetadata().getName().equals(HelmChart.RELEASE + "-admin-ui")).findFirst().orElse(null);
        if (adminUi != null) {
            Set<String> uiEnv = new HashSet<>();
            components(ADMIN_UI_PROXY_PROPERTIES).forEach(c -> uiEnv.add(environmentName("admin-ui", c)));
            components(ADMIN_UI_THROUGHPUT_PROPERTIES).forEach(c -> uiEnv.add(environmentName("admin-ui", c)));
            components(ADMIN_UI_AUTHENTICATION_PROPERTIES)
                .forEach(c -> uiEnv.add(environmentName("admin-ui.authentication", c)));
            assertKnownEnvironment(adminUi.getSpec().getTemplate().getSpec().getContainers().get(0), uiEnv);
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"secure-values.yaml", "oauth-values.yaml"})
    void theAdminUiSettingsOfTheSecureAndOauthValuesAreChecked(String valuesFile) {
        // The check above covers the admin UI only where it is rendered: these values must render it.
        assertThat(render(valuesFile).all(Deployment.class))
            .extracting(d -> d.getMetadata().getName()).contains(HelmChart.RELEASE + "-admin-ui");
    }

    @Test
    void theAdminUisOauth2VariablesBindToTheRegistrationAndProviderOfItsId() {
        RenderedChart chart = HelmChart.render(HelmChart.directory().resolve("ci/oauth-values.yaml"),
            HelmChart.temporaryValuesFile("""
                adminUi:
                  authentication:
                    oauth2:
                      registrationId: corpsso2
                      scopes: [openid, profile, offline_access]
                """));
        Container ui = chart.get(Deployment.class, HelmChart.RELEASE + "-admin-ui").getSpec().getTemplate().getSpec()
            .getContainers().get(0);
        Map<String, Object> environment = new TreeMap<>();
        for (EnvVar variable : ui.getEnv()) {
            // A Secret's value is the kubelet's to fill in: stand for it with where it comes from.
            environment.put(variable.getName(), variable.getValue() != null ? variable.getValue()
                : "secret " + variable.getValueFrom().getSecretKeyRef().getName() + "/"
                    + variable.getValueFrom().getSecretKeyRef().getKey());
        }
        OAuth2ClientProperties client = bindOauth2Client(environment);
        // Spring Boot's own check at start: each registration has a client id.
        client.validate();
        assertThat(client.getRegistration()).containsOnlyKeys("corpsso2");
        OAuth2ClientProperties.Registration registration = client.getRegistration().get("corpsso2");
        assertThat(registration.getClientId()).isEqualTo("tributary-admin-ui");
        assertThat(registration.getClientSecret()).isEqualTo("secret tributary-admin-ui-oauth2/client-secret");
        assertThat(registration.getScope()).containsExactlyInAnyOrder("openid", "profile", "offline_access");
        assertThat(registration.getClientName()).isEqualTo("Example SSO");
        // No provider named: Spring Boot takes the provider of the registration's id.
        assertThat(registration.getProvider()).isNull();
        assertThat(client.getProvider()).containsOnlyKeys("corpsso2");
        assertThat(client.getProvider().get("corpsso2").getIssuerUri()).isEqualTo("https://issuer.example.com");
    }

    @Test
    void registrationIdsTheSchemaRefusesWouldNotBindUnderTheirOwnName() {
        // Spring reads a variable's name in lower case and takes "_" for "." or "-": only lower-case
        // letters and digits come back as they were, hence the schema's pattern.
        assertThat(bindOauth2Client(Map.of("SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORPSSO_CLIENT_ID", "ui"))
            .getRegistration()).containsOnlyKeys("corpsso");
        assertThat(bindOauth2Client(Map.of("SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORPSSO_CLIENT_ID", "ui"))
            .getRegistration()).doesNotContainKey("CorpSSO");
        assertThat(bindOauth2Client(Map.of("SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORP_SSO_CLIENT_ID", "ui"))
            .getRegistration()).doesNotContainKey("corp_sso").doesNotContainKey("corp-sso");
        for (String id : List.of("CorpSSO", "corp_sso", "corp-sso", "1sso", "")) {
            assertThat(HelmChart.renderError("""
                adminUi:
                  authentication:
                    oauth2:
                      registrationId: "%s"
                """.formatted(id))).as("registrationId %s", id).contains("adminUi.authentication.oauth2.registrationId:");
        }
    }

    private static Container container(RenderedChart chart, String statefulSet) {
        return chart.get(StatefulSet.class, statefulSet).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static void assertKnownEnvironment(Container container, Set<String> appSettings) {
        Set<String> known = new HashSet<>(appSettings);
        SPRING_SETTINGS.forEach(s -> known.add(s.replace('.', '_').replace("-", "_").toUpperCase(Locale.ROOT)));
        // Read by the JVM, and by Kubernetes for $(POD_NAME) in the arguments.
        known.add("JAVA_TOOL_OPTIONS");
        known.add("POD_NAME");
        String values = String.join("\n", container.getEnv().stream().map(EnvVar::getValue)
            .filter(java.util.Objects::nonNull).toList());
        List<String> declared = new ArrayList<>();
        for (EnvVar variable : container.getEnv()) {
            // Kubernetes expands $(NAME) only from variables declared before; others stay as they are.
            Matcher reference = KUBERNETES_REFERENCE.matcher(variable.getValue() == null ? "" : variable.getValue());
            while (reference.find()) {
                assertThat(declared).as("%s refers to $(%s)", variable.getName(), reference.group(1))
                    .contains(reference.group(1));
            }
            declared.add(variable.getName());
            if (CHART_VARIABLE.matcher(variable.getName()).matches()) {
                assertThat(variable.getValueFrom().getSecretKeyRef()).as("%s comes from a Secret", variable.getName())
                    .isNotNull();
                assertThat(values).as("a value that uses %s", variable.getName()).contains("$(" + variable.getName() + ")");
            } else if (variable.getName().equals("SPRING_APPLICATION_JSON")) {
                assertKafkaClientSettings(variable.getValue());
            } else if (variable.getName().startsWith(OAUTH2_CLIENT_VARIABLES)) {
                assertBindsToAnOauth2ClientSetting(variable.getName());
            } else {
                assertThat(known).as("environment of %s", container.getName()).contains(variable.getName());
            }
        }
    }

    /**
     * Spring Boot's OAuth2 client settings bound from these environment variables, as the app binds
     * {@code spring.security.oauth2.client} (none when nothing binds): Spring reads variables as the
     * system environment only from a source of that name.
     */
    private static OAuth2ClientProperties bindOauth2Client(Map<String, Object> environment) {
        SystemEnvironmentPropertySource source = new SystemEnvironmentPropertySource(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment);
        return new Binder(ConfigurationPropertySources.from(source))
            .bind("spring.security.oauth2.client", Bindable.ofInstance(new OAuth2ClientProperties()))
            .orElseGet(OAuth2ClientProperties::new);
    }

    /** A variable that, alone, sets a setting of an OAuth2 client registration or provider to its value. */
    private static void assertBindsToAnOauth2ClientSetting(String variable) {
        String value = "value-of-" + variable.toLowerCase(Locale.ROOT);
        OAuth2ClientProperties client = bindOauth2Client(Map.of(variable, value));
        List<Object> settings = new ArrayList<>();
        for (OAuth2ClientProperties.Registration r : client.getRegistration().values()) {
            settings.addAll(java.util.Arrays.asList(r.getProvider(), r.getClientId(), r.getClientSecret(),
                r.getClientAuthenticationMethod(), r.getAuthorizationGrantType(), r.getRedirectUri(), r.getClientName()));
            if (r.getScope() != null) {
                settings.addAll(r.getScope());
            }
        }
        for (OAuth2ClientProperties.Provider p : client.getProvider().values()) {
            settings.addAll(java.util.Arrays.asList(p.getAuthorizationUri(), p.getTokenUri(), p.getUserInfoUri(),
                p.getUserInfoAuthenticationMethod(), p.getUserNameAttribute(), p.getJwkSetUri(), p.getIssuerUri()));
        }
        assertThat(settings).as("the OAuth2 client setting %s binds to", variable).contains(value);
    }

    /** SPRING_APPLICATION_JSON holds {@code kafka.client} settings only, each a Kafka client setting. */
    private static void assertKafkaClientSettings(String json) {
        // JSON is YAML: SnakeYAML reads it.
        Map<String, Object> tree = new org.yaml.snakeyaml.Yaml().load(json);
        assertThat(tree).containsOnlyKeys("kafka");
        @SuppressWarnings("unchecked")
        Map<String, Object> kafka = (Map<String, Object>) tree.get("kafka");
        assertThat(kafka).containsOnlyKeys("client");
        Set<String> clientSettings = new org.apache.kafka.common.config.ConfigDef().withClientSslSupport()
            .withClientSaslSupport().names();
        assertThat(((Map<?, ?>) kafka.get("client")).keySet()).isNotEmpty()
            .allSatisfy(key -> assertThat(clientSettings).contains((String) key));
    }

    /** Spring's environment form of {@code <prefix>.<component in kebab case>}: BROKER_DATA_DIR. */
    private static String environmentName(String prefix, String component) {
        return (prefix + "_" + kebab(component)).replace('-', '_').replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** Kafka's names of BrokerProperties' components, as BrokerConfigNames derives them. */
    private static Set<String> kafkaNames(List<String> components) {
        Set<String> names = new HashSet<>();
        for (String component : components) {
            names.add(component.equals("id") || component.equals("rack") ? "broker." + component
                : kebab(component).replace('-', '.'));
        }
        return names;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    /** The component names of the record declared in a source file. */
    static List<String> components(Path source) {
        String text;
        try {
            text = Files.readString(Repository.root().resolve(source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher header = Pattern.compile("public record \\w+\\(").matcher(text);
        assertThat(header.find()).as("a public record in %s", source).isTrue();
        // The header runs to the parenthesis that closes the one after the record name.
        int depth = 1;
        int end = header.end();
        while (depth > 0) {
            char c = text.charAt(end++);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
        }
        String parameters = text.substring(header.end(), end - 1)
            .replaceAll("@\\w+(\\([^)]*\\))?", " ")
            .replaceAll("<[^<>]*>", "");
        List<String> names = new ArrayList<>();
        for (String parameter : parameters.split(",")) {
            String[] words = parameter.trim().split("\\s+");
            names.add(words[words.length - 1]);
        }
        assertThat(names).as("components of %s", source).isNotEmpty().allMatch(n -> n.matches("[a-z]\\w*"));
        return names;
    }
}
