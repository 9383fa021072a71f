package io.tributary.deploy.chart;

import static io.tributary.deploy.chart.RenderedChart.env;
import static io.tributary.deploy.chart.RenderedChart.envVar;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * TLS, SASL, ACL bootstrap and the REST proxy's sign-in and HTTPS, as {@code ci/secure-values.yaml}
 * and smaller values turn them on: secrets are referenced (Secret volumes, secretKeyRef), never in
 * a ConfigMap or a plain value; the brokers' settings and mounts fit each other; bad values are
 * refused; the defaults render nothing of it.
 */
class SecurityChartTest {

    private static final String BROKER = HelmChart.RELEASE + "-broker";
    private static final String PROXY = HelmChart.RELEASE + "-rest-proxy";
    private static final String DOMAIN = BROKER + "-headless." + HelmChart.NAMESPACE + ".svc.cluster.local";

    private static RenderedChart secure() {
        return HelmChart.render(HelmChart.directory().resolve("ci/secure-values.yaml"));
    }

    private static PodSpec pod(RenderedChart chart, String statefulSet) {
        return chart.get(StatefulSet.class, statefulSet).getSpec().getTemplate().getSpec();
    }

    private static Container container(RenderedChart chart, String statefulSet) {
        return pod(chart, statefulSet).getContainers().get(0);
    }

    private static SecretKeySelector secretRef(Container container, String variable) {
        EnvVar env = envVar(container, variable);
        assertThat(env.getValue()).as("%s has no plain value", variable).isNull();
        return env.getValueFrom().getSecretKeyRef();
    }

    private static Volume volume(PodSpec pod, String mountPath) {
        VolumeMount mount = pod.getContainers().get(0).getVolumeMounts().stream()
            .filter(m -> m.getMountPath().equals(mountPath)).findFirst()
            .orElseThrow(() -> new AssertionError("nothing mounted at " + mountPath));
        assertThat(mount.getReadOnly()).as("%s is read-only", mountPath).isTrue();
        return pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
    }

    @Test
    void secureValuesGiveTheBrokersTheirListenersAndTlsSaslAndAuthorizationSettings() {
        RenderedChart chart = secure();
        for (int i = 0; i < 3; i++) {
            Properties properties = chart.brokerProperties(i);
            assertThat(properties)
                .containsEntry("listeners", "SASL_SSL://:9092,INTERNAL://:9093,EXTERNAL://:9094")
                .containsEntry("listener.security.protocol.map", "SASL_SSL:SASL_SSL,INTERNAL:SASL_SSL,EXTERNAL:SASL_SSL")
                .containsEntry("inter.broker.listener.name", "INTERNAL")
                .containsEntry("advertised.listeners", "SASL_SSL://" + BROKER + "-" + i + "." + DOMAIN + ":9092,INTERNAL://"
                    + BROKER + "-" + i + "." + DOMAIN + ":9093,EXTERNAL://kafka-" + i + ".example.com:9094")
                .containsEntry("ssl.keystore.type", "PKCS12")
                .containsEntry("ssl.keystore.location", "/etc/tributary-tls/keystore.p12")
                .containsEntry("ssl.truststore.location", "/etc/tributary-tls/truststore.p12")
                .containsEntry("ssl.client.auth", "requested")
                .containsEntry("sasl.enabled.mechanisms", "SCRAM-SHA-512,SCRAM-SHA-256")
                .containsEntry("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512")
                .containsEntry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .containsEntry("super.users", "User:broker;User:admin")
                .containsEntry("allow.everyone.if.no.acl.found", "false");
            assertThat(properties.stringPropertyNames()).noneMatch(k -> k.contains("password") || k.contains("jaas"));
        }
        assertThat(container(chart, BROKER).getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("internal");
            assertThat(p.getContainerPort()).isEqualTo(9093);
        });
    }

    @Test
    void brokerPasswordsComeFromSecretKeysAndTheStoresFromAReadOnlySecretVolume() {
        RenderedChart chart = secure();
        Container broker = container(chart, BROKER);
        assertThat(secretRef(broker, "BROKER_SSL_KEYSTORE_PASSWORD"))
            .satisfies(r -> assertThat(r.getName()).isEqualTo("tributary-broker-tls"))
            .satisfies(r -> assertThat(r.getKey()).isEqualTo("keystore-password"));
        assertThat(secretRef(broker, "BROKER_SSL_TRUSTSTORE_PASSWORD").getKey()).isEqualTo("truststore-password");
        assertThat(broker.getEnv()).extracting(EnvVar::getName).doesNotContain("BROKER_SSL_KEY_PASSWORD");
        assertThat(secretRef(broker, "TRIBUTARY_INTER_BROKER_PASSWORD"))
            .satisfies(r -> assertThat(r.getName()).isEqualTo("tributary-broker-login"))
            .satisfies(r -> assertThat(r.getKey()).isEqualTo("password"));
        assertThat(env(broker, "BROKER_SASL_JAAS_CONFIG")).isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule"
            + " required username=\"broker\" password=\"$(TRIBUTARY_INTER_BROKER_PASSWORD)\";");
        // $(NAME) is expanded only from variables declared before.
        List<String> names = broker.getEnv().stream().map(EnvVar::getName).toList();
        assertThat(names.indexOf("TRIBUTARY_INTER_BROKER_PASSWORD")).isLessThan(names.indexOf("BROKER_SASL_JAAS_CONFIG"));

        Volume tls = volume(pod(chart, BROKER), "/etc/tributary-tls");
        assertThat(tls.getSecret().getSecretName()).isEqualTo("tributary-broker-tls");
        assertThat(tls.getSecret().getItems()).extracting(KeyToPath::getKey).containsExactly("keystore.p12", "truststore.p12");
        assertThat(chart.text()).doesNotContain("kind: Secret");
    }

    @Test
    void bootstrapUsersReadTheirPasswordsFromTheirOwnMountedSecrets() {
        RenderedChart chart = secure();
        PodSpec pod = pod(chart, BROKER);
        String users = env(container(chart, BROKER), "BROKER_BOOTSTRAP_SCRAM_USERS");
        Matcher entry = Pattern.compile("(SCRAM-SHA-\\d+)=\\[name=\"([^\"]+)\",password-file=(/[^\\]]+)/password]").matcher(users);
        List<String> found = new ArrayList<>();
        while (entry.find()) {
            Volume volume = volume(pod, entry.group(3));
            assertThat(volume.getSecret().getItems()).singleElement()
                .satisfies(item -> assertThat(item.getPath()).isEqualTo("password"));
            found.add(entry.group(1) + " " + entry.group(2) + " " + volume.getSecret().getSecretName() + "/"
                + volume.getSecret().getItems().get(0).getKey());
        }
        assertThat(users.split(";")).hasSize(found.size());
        assertThat(found).containsExactly(
            "SCRAM-SHA-512 broker tributary-broker-login/password",
            "SCRAM-SHA-512 admin tributary-admin/password",
            "SCRAM-SHA-256 admin tributary-admin/password",
            "SCRAM-SHA-512 orders-app tributary-app-passwords/orders-app");
    }

    @Test
    void aclValuesBecomeTheBrokersBootstrapAclsOneALine() {
        String acls = env(container(secure(), BROKER), "BROKER_BOOTSTRAP_ACLS");
        assertThat(acls.split("\n")).containsExactly(
            "principal=User:orders-app, host=*, operation=Write, permission=Allow, resource-type=Topic, resource-name=orders, pattern-type=Literal",
            "principal=User:orders-app, host=*, operation=Read, permission=Allow, resource-type=Topic, resource-name=orders-, pattern-type=Prefixed",
            "principal=User:orders-app, host=*, operation=Read, permission=Allow, resource-type=Group, resource-name=orders-readers, pattern-type=Literal",
            "principal=User:orders-app, host=*, operation=IdempotentWrite, permission=Allow, resource-type=Cluster, resource-name=kafka-cluster, pattern-type=Literal");
    }

    @Test
    void theRestProxySignsCallersInLogsInToTheBrokersAndServesHttpsWithSecretsByReference() {
        RenderedChart chart = secure();
        Container proxy = container(chart, PROXY);
        assertThat(env(proxy, "KAFKA_SECURITY_PROTOCOL")).isEqualTo("SASL_SSL");
        assertThat(env(proxy, "REST_PROXY_AUTHENTICATION_METHOD")).isEqualTo("basic");
        assertThat(secretRef(proxy, "TRIBUTARY_KAFKA_PASSWORD").getName()).isEqualTo("tributary-broker-login");
        assertThat(secretRef(proxy, "TRIBUTARY_KAFKA_TRUSTSTORE_PASSWORD").getKey()).isEqualTo("truststore-password");
        Map<String, Object> json = new org.yaml.snakeyaml.Yaml().load(env(proxy, "SPRING_APPLICATION_JSON"));
        assertThat(json).isEqualTo(Map.of("kafka", Map.of("client", Map.of(
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\""
                + " password=\"$(TRIBUTARY_KAFKA_PASSWORD)\";",
            "ssl.truststore.type", "PKCS12",
            "ssl.truststore.location", "/etc/tributary-kafka-tls/truststore.p12",
            "ssl.truststore.password", "$(TRIBUTARY_KAFKA_TRUSTSTORE_PASSWORD)",
            "ssl.endpoint.identification.algorithm", "https"))));
        Volume trust = volume(pod(chart, PROXY), "/etc/tributary-kafka-tls");
        assertThat(trust.getSecret().getItems()).as("the brokers' key store stays out of the proxy")
            .extracting(KeyToPath::getKey).containsExactly("truststore.p12");

        assertThat(env(proxy, "SERVER_SSL_KEY_STORE")).isEqualTo("file:/etc/tributary-tls/keystore.p12");
        assertThat(secretRef(proxy, "SERVER_SSL_KEY_STORE_PASSWORD").getName()).isEqualTo("tributary-rest-proxy-tls");
        assertThat(volume(pod(chart, PROXY), "/etc/tributary-tls").getSecret().getSecretName())
            .isEqualTo("tributary-rest-proxy-tls");
        assertThat(proxy.getReadinessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
        assertThat(proxy.getLivenessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
        assertThat(env(proxy, "REST_PROXY_PEERS")).startsWith("https://");
    }

    @Test
    void noPasswordVariableHasAPlainValueAndNoConfigMapHoldsOne() {
        RenderedChart chart = secure();
        for (String statefulSet : List.of(BROKER, PROXY)) {
            assertThat(container(chart, statefulSet).getEnv()).filteredOn(e -> e.getName().contains("PASSWORD"))
                .isNotEmpty().allSatisfy(e -> assertThat(e.getValue()).isNull());
        }
        for (ConfigMap configMap : chart.all(ConfigMap.class)) {
            assertThat(String.join("\n", configMap.getData().values())).doesNotContainIgnoringCase("password")
                .doesNotContain("jaas");
        }
    }

    @Test
    void mutualTlsAndPemStoresWithoutPasswords() {
        RenderedChart chart = HelmChart.render("""
            broker:
              listeners:
                client:
                  protocol: SSL
              tls:
                existingSecret: broker-pem
                type: PEM
                keystoreKey: tls.pem
                truststoreKey: ca.crt
                keystorePasswordKey: ""
                truststorePasswordKey: ""
                clientAuth: required
            """);
        assertThat(chart.brokerProperties(0)).containsEntry("listeners", "SSL://:9092")
            .containsEntry("inter.broker.listener.name", "SSL").containsEntry("ssl.client.auth", "required")
            .containsEntry("ssl.keystore.type", "PEM").containsEntry("ssl.keystore.location", "/etc/tributary-tls/tls.pem")
            .containsEntry("ssl.truststore.location", "/etc/tributary-tls/ca.crt")
            .doesNotContainKey("sasl.enabled.mechanisms").doesNotContainKey("authorizer.class.name");
        assertThat(container(chart, BROKER).getEnv()).extracting(EnvVar::getName)
            .noneMatch(n -> n.contains("PASSWORD") || n.contains("BOOTSTRAP") || n.contains("JAAS"));
        assertThat(env(container(chart, PROXY), "SPRING_APPLICATION_JSON")).contains("ssl.truststore.location")
            .doesNotContain("password");
    }

    @Test
    void notesTellClientsTheProtocolMechanismAndHttpsSignIn() throws Exception {
        String notes = HelmChart.notes(java.nio.file.Files.readString(HelmChart.directory().resolve("ci/secure-values.yaml")));
        assertThat(notes).contains(":9092 security.protocol=SASL_SSL sasl.mechanism=SCRAM-SHA-512\n")
            .contains("curl --cacert ca.pem -u USER:PASSWORD https://localhost:8082/v3/clusters")
            .contains("inside the cluster: https://" + PROXY + ".");
        assertThat(HelmChart.notes("{}")).contains(":9092\n").doesNotContain("security.protocol")
            .contains("curl http://localhost:8082/v3/clusters");
    }

    @Test
    void defaultsRenderNoSecurity() {
        RenderedChart chart = HelmChart.render();
        assertThat(chart.brokerProperties(0)).containsEntry("listeners", "PLAINTEXT://:9092")
            .containsEntry("inter.broker.listener.name", "PLAINTEXT")
            .doesNotContainKeys("listener.security.protocol.map", "ssl.keystore.location", "sasl.enabled.mechanisms",
                "authorizer.class.name", "super.users");
        for (String statefulSet : List.of(BROKER, PROXY)) {
            assertThat(container(chart, statefulSet).getEnv()).extracting(EnvVar::getName)
                .noneMatch(n -> n.contains("PASSWORD") || n.startsWith("BROKER_BOOTSTRAP") || n.contains("SSL")
                    || n.equals("SPRING_APPLICATION_JSON") || n.equals("KAFKA_SECURITY_PROTOCOL"));
            assertThat(pod(chart, statefulSet).getVolumes()).noneMatch(v -> v.getSecret() != null);
        }
    }

    @Test
    void schemaRefusesBadSecurityValues() {
        assertThat(HelmChart.renderError("""
            broker:
              listeners:
                client:
                  protocol: SASL
            """)).contains("protocol");
        assertThat(HelmChart.renderError("""
            broker:
              tls:
                clientAuth: sometimes
            """)).contains("clientAuth");
        assertThat(HelmChart.renderError("""
            broker:
              tls:
                type: P12
            """)).contains("type");
        assertThat(HelmChart.renderError("""
            broker:
              sasl:
                users:
                  - name: alice
            """)).contains("existingSecret");
        assertThat(HelmChart.renderError("""
            broker:
              authorization:
                enabled: true
                acls:
                  - principal: User:alice
                    operation: Fly
                    resourceType: Topic
                    resourceName: t
            """)).contains("operation");
        assertThat(HelmChart.renderError("""
            broker:
              authorization:
                enabled: true
                acls:
                  - principal: User:alice
                    operation: Read
                    resourceType: Topic
            """)).contains("resourceName");
        assertThat(HelmChart.renderError("""
            broker:
              authorization:
                superUsers: ["alice"]
            """)).contains("superUsers");
    }

    @Test
    void inconsistentSecurityValuesFailTheRenderSayingWhatToSet() {
        assertThat(HelmChart.renderError("""
            broker:
              listeners:
                client:
                  protocol: SASL_SSL
              sasl:
                interBroker:
                  existingSecret: login
            """)).contains("broker.tls.existingSecret");
        assertThat(HelmChart.renderError("""
            broker:
              listeners:
                client:
                  protocol: SASL_PLAINTEXT
            """)).contains("broker.sasl.interBroker.existingSecret");
        assertThat(HelmChart.renderError("""
            broker:
              config:
                ssl.keystore.password: hunter2
            """)).contains("broker.config.ssl.keystore.password").contains("Secret");
        assertThat(HelmChart.renderError("""
            broker:
              config:
                listener.name.client.plain.sasl.jaas.config: x
            """)).contains("JAAS");
        assertThat(HelmChart.renderError("""
            restProxy:
              authentication:
                method: basic
            adminUi:
              enabled: false
            """)).contains("SASL_PLAINTEXT or SASL_SSL");
        assertThat(HelmChart.renderError("""
            broker:
              authorization:
                acls:
                  - principal: User:alice
                    operation: Read
                    resourceType: Topic
                    resourceName: t
            """)).contains("broker.authorization.enabled");
    }
}
