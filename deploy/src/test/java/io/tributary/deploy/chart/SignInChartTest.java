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
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sign-in across the apps as the chart wires it: the admin UI signing its users in (basic, or oauth2
 * with the issuer the proxy trusts) and calling an HTTPS REST proxy whose certificate it trusts through
 * an SSL bundle; the proxy taking OAuth2 bearer tokens, which the brokers check over OAUTHBEARER; the brokers reloading renewed
 * certificates. Secrets stay references; combinations that cannot work are refused, saying what to set.
 */
class SignInChartTest {

    private static final String BROKER = HelmChart.RELEASE + "-broker";
    private static final String PROXY = HelmChart.RELEASE + "-rest-proxy";
    private static final String ADMIN_UI = HelmChart.RELEASE + "-admin-ui";
    private static final String PROXY_SERVICE = PROXY + "." + HelmChart.NAMESPACE + ".svc.cluster.local:8082";

    /** Brokers with a SASL client listener, so that the proxy may sign callers in. */
    private static final String SASL_BROKERS = """
        broker:
          listeners:
            client:
              protocol: SASL_PLAINTEXT
          sasl:
            interBroker:
              existingSecret: broker-login
        """;

    /** Brokers serving SCRAM and OAUTHBEARER, with the issuer's values. */
    private static final String OAUTH_BROKERS = """
        broker:
          listeners:
            client:
              protocol: SASL_PLAINTEXT
          sasl:
            enabledMechanisms: [SCRAM-SHA-512, OAUTHBEARER]
            interBroker:
              existingSecret: broker-login
            oauthbearer:
              jwksEndpointUrl: https://issuer.example.com/keys
              expectedIssuer: https://issuer.example.com
              expectedAudience: tributary
        """;

    private static RenderedChart values(String file) {
        return HelmChart.render(HelmChart.directory().resolve("ci/" + file));
    }

    private static PodSpec adminUiPod(RenderedChart chart) {
        return chart.get(Deployment.class, ADMIN_UI).getSpec().getTemplate().getSpec();
    }

    private static Container container(RenderedChart chart, String statefulSet) {
        return chart.get(StatefulSet.class, statefulSet).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static List<String> names(Container container) {
        return container.getEnv().stream().map(EnvVar::getName).toList();
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
    void secureValuesRunTheAdminUiWithSignInCallingTheProxyOverHttpsThroughAnSslBundle() {
        PodSpec pod = adminUiPod(values("secure-values.yaml"));
        Container ui = pod.getContainers().get(0);
        assertThat(env(ui, "ADMIN_UI_REST_PROXY_URL")).isEqualTo("https://" + PROXY_SERVICE);
        assertThat(env(ui, "ADMIN_UI_AUTHENTICATION_METHOD")).isEqualTo("basic");
        assertThat(env(ui, "ADMIN_UI_REST_PROXY_SSL_BUNDLE")).isEqualTo("restproxy");
        assertThat(env(ui, "SPRING_SSL_BUNDLE_PEM_RESTPROXY_TRUSTSTORE_CERTIFICATE"))
            .isEqualTo("file:/etc/tributary-rest-proxy-tls/ca.crt");
        assertThat(names(ui)).noneMatch(n -> n.contains("PASSWORD") || n.startsWith("SPRING_SSL_BUNDLE_JKS"));
        Volume trust = volume(pod, "/etc/tributary-rest-proxy-tls");
        assertThat(trust.getSecret().getSecretName()).isEqualTo("tributary-rest-proxy-ca");
        assertThat(trust.getSecret().getItems()).extracting(KeyToPath::getKey).containsExactly("ca.crt");
        // The admin UI's pods have no fsGroup: the file must be readable by its uid.
        assertThat(trust.getSecret().getDefaultMode()).isEqualTo(0444);
    }

    @Test
    void aPkcs12TrustStoreOfTheAdminUiTakesItsPasswordFromTheSecret() {
        RenderedChart chart = HelmChart.render(HelmChart.directory().resolve("ci/secure-values.yaml"),
            HelmChart.temporaryValuesFile("""
                adminUi:
                  restProxyTruststore:
                    existingSecret: proxy-trust
                    type: PKCS12
                    key: truststore.p12
                    passwordKey: truststore-password
                """));
        Container ui = adminUiPod(chart).getContainers().get(0);
        assertThat(env(ui, "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_LOCATION"))
            .isEqualTo("file:/etc/tributary-rest-proxy-tls/truststore.p12");
        assertThat(env(ui, "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_TYPE")).isEqualTo("PKCS12");
        assertThat(secretRef(ui, "SPRING_SSL_BUNDLE_JKS_RESTPROXY_TRUSTSTORE_PASSWORD"))
            .satisfies(r -> assertThat(r.getName()).isEqualTo("proxy-trust"))
            .satisfies(r -> assertThat(r.getKey()).isEqualTo("truststore-password"));
        assertThat(names(ui)).doesNotContain("SPRING_SSL_BUNDLE_PEM_RESTPROXY_TRUSTSTORE_CERTIFICATE");
    }

    @Test
    void theAdminUiSignsInToAPlainHttpProxyWithoutTrustSettings() {
        RenderedChart chart = HelmChart.render(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
            adminUi:
              authentication:
                method: basic
            """);
        PodSpec pod = adminUiPod(chart);
        Container ui = pod.getContainers().get(0);
        assertThat(env(ui, "ADMIN_UI_REST_PROXY_URL")).isEqualTo("http://" + PROXY_SERVICE);
        assertThat(env(ui, "ADMIN_UI_AUTHENTICATION_METHOD")).isEqualTo("basic");
        assertThat(names(ui)).noneMatch(n -> n.contains("SSL"));
        assertThat(pod.getVolumes()).noneMatch(v -> v.getSecret() != null);
    }

    @Test
    void defaultsRenderTheAdminUiWithoutSignInOrTls() {
        Container ui = adminUiPod(HelmChart.render()).getContainers().get(0);
        assertThat(env(ui, "ADMIN_UI_REST_PROXY_URL")).isEqualTo("http://" + PROXY_SERVICE);
        assertThat(names(ui)).doesNotContain("ADMIN_UI_AUTHENTICATION_METHOD", "ADMIN_UI_REST_PROXY_SSL_BUNDLE");
    }

    @Test
    void adminUiCombinationsThatCannotWorkAreRefusedSayingWhatToSet() {
        assertThat(HelmChart.renderError(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
            """)).contains("set adminUi.authentication.method=basic");
        assertThat(HelmChart.renderError("""
            adminUi:
              authentication:
                method: basic
            """)).contains("set restProxy.authentication.method=basic");
        assertThat(HelmChart.renderError("""
            restProxy:
              tls:
                enabled: true
                existingSecret: proxy-tls
            """)).contains("adminUi.restProxyTruststore.existingSecret");
        assertThat(HelmChart.renderError("""
            adminUi:
              restProxyTruststore:
                existingSecret: proxy-trust
            """)).contains("restProxy.tls.enabled");
        // A bearer proxy takes tokens only: an admin UI without OAuth2 sign-in has none to give.
        assertThat(HelmChart.renderError(OAUTH_BROKERS + """
            restProxy:
              authentication:
                method: bearer
            """)).contains("adminUi.authentication.method=none")
            .contains("set adminUi.authentication.method=oauth2").contains("or set adminUi.enabled=false");
        assertThat(HelmChart.renderError(OAUTH_BROKERS + """
            restProxy:
              authentication:
                method: bearer
            adminUi:
              authentication:
                method: basic
            """)).contains("adminUi.authentication.method=basic").contains("set adminUi.authentication.method=oauth2");
        // Without the admin UI, the proxy's sign-in needs nothing of it.
        assertThat(HelmChart.render(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
            adminUi:
              enabled: false
            """).all(Deployment.class)).isEmpty();
    }

    /** The admin UI signing its users in with the brokers' issuer, for a bearer proxy. */
    private static final String OAUTH2_UI = OAUTH_BROKERS + """
        restProxy:
          authentication:
            method: bearer
        adminUi:
          authentication:
            method: oauth2
            oauth2:
              clientId: admin-ui
              clientSecret:
                existingSecret: ui-client
        """;

    @Test
    void oauthValuesRunTheAdminUiWithOauth2SignInAtTheProxysIssuer() {
        RenderedChart chart = values("oauth-values.yaml");
        PodSpec pod = adminUiPod(chart);
        Container ui = pod.getContainers().get(0);
        assertThat(env(ui, "ADMIN_UI_AUTHENTICATION_METHOD")).isEqualTo("oauth2");
        assertThat(env(ui, "ADMIN_UI_AUTHENTICATION_PROVIDER_SIGN_OUT")).isEqualTo("true");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_PROVIDER_TRIBUTARY_ISSUER_URI"))
            .isEqualTo(env(container(chart, PROXY), "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUER_URI"))
            .isEqualTo("https://issuer.example.com");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_TRIBUTARY_CLIENT_ID")).isEqualTo("tributary-admin-ui");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_TRIBUTARY_SCOPE")).isEqualTo("openid,profile");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_TRIBUTARY_CLIENT_NAME")).isEqualTo("Example SSO");
        assertThat(secretRef(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_TRIBUTARY_CLIENT_SECRET"))
            .satisfies(r -> assertThat(r.getName()).isEqualTo("tributary-admin-ui-oauth2"))
            .satisfies(r -> assertThat(r.getKey()).isEqualTo("client-secret"));
        // The secret is only referred to: no other variable carries it, nor is its Secret mounted.
        assertThat(ui.getEnv()).filteredOn(e -> e.getValueFrom() != null).extracting(EnvVar::getName)
            .containsExactly("SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_TRIBUTARY_CLIENT_SECRET");
        assertThat(pod.getVolumes()).noneMatch(v -> v.getSecret() != null);
        assertThat(names(ui)).noneMatch(n -> n.equals("SPRING_APPLICATION_JSON"));
    }

    @Test
    void theAdminUisOauth2ValuesAreRenderedUnderItsRegistrationId() {
        Container ui = adminUiPod(HelmChart.render(OAUTH2_UI + """
                    key: secret
                  registrationId: corp2
                  issuerUri: https://issuer.example.com
                  scopes: [openid, email]
            """)).getContainers().get(0);
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_PROVIDER_CORP2_ISSUER_URI")).isEqualTo("https://issuer.example.com");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORP2_CLIENT_ID")).isEqualTo("admin-ui");
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORP2_SCOPE")).isEqualTo("openid,email");
        assertThat(secretRef(ui, "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORP2_CLIENT_SECRET"))
            .satisfies(r -> assertThat(r.getName()).isEqualTo("ui-client"))
            .satisfies(r -> assertThat(r.getKey()).isEqualTo("secret"));
        assertThat(names(ui)).noneMatch(n -> n.contains("TRIBUTARY"))
            .doesNotContain("ADMIN_UI_AUTHENTICATION_PROVIDER_SIGN_OUT", "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_CORP2_CLIENT_NAME");
    }

    @Test
    void theAdminUiTakesItsOwnIssuerWhenTheProxyChecksOnlySignatures() {
        // The proxy has a JWK set but no issuer to check: the UI's provider must be named.
        String noIssuer = OAUTH2_UI.replace("      expectedIssuer: https://issuer.example.com\n", "");
        assertThat(noIssuer).isNotEqualTo(OAUTH2_UI);
        assertThat(HelmChart.renderError(noIssuer)).contains("adminUi.authentication.oauth2.issuerUri");
        Container ui = adminUiPod(HelmChart.render(noIssuer + """
                  issuerUri: https://login.example.com/realms/kafka
            """)).getContainers().get(0);
        assertThat(env(ui, "SPRING_SECURITY_OAUTH2_CLIENT_PROVIDER_TRIBUTARY_ISSUER_URI"))
            .isEqualTo("https://login.example.com/realms/kafka");
        // The proxy's own issuer value is the one the UI must match.
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("    method: bearer\n",
            "    method: bearer\n    jwt:\n      issuerUri: https://proxy-issuer.example.com\n") + """
                  issuerUri: https://issuer.example.com
            """)).contains("https://proxy-issuer.example.com");
    }

    @Test
    void oauth2ValuesThatCannotWorkAreRefusedSayingWhatToSet() {
        assertThat(HelmChart.renderError(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
            adminUi:
              authentication:
                method: oauth2
                oauth2:
                  clientId: admin-ui
                  issuerUri: https://issuer.example.com
                  clientSecret:
                    existingSecret: ui-client
            """)).contains("set restProxy.authentication.method=bearer");
        assertThat(HelmChart.renderError("""
            adminUi:
              authentication:
                method: oauth2
            """)).contains("set restProxy.authentication.method=bearer");
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("      clientId: admin-ui\n", "")))
            .contains("adminUi.authentication.oauth2.clientId");
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("        existingSecret: ui-client\n", "        key: s\n")))
            .contains("adminUi.authentication.oauth2.clientSecret.existingSecret");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  issuerUri: https://other-issuer.example.com
            """)).contains("adminUi.authentication.oauth2.issuerUri https://other-issuer.example.com is not the issuer")
            .contains("(https://issuer.example.com,");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  providerSignOut: true
                  scopes: [profile]
            """)).contains("add openid to adminUi.authentication.oauth2.scopes");
        assertThat(HelmChart.renderError(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
            adminUi:
              authentication:
                method: basic
                oauth2:
                  clientId: admin-ui
            """)).contains("adminUi.authentication.oauth2 is used only with adminUi.authentication.method=oauth2");
        // The same values with a matching issuer and openid render.
        assertThat(HelmChart.render(OAUTH2_UI + """
                  issuerUri: https://issuer.example.com
                  providerSignOut: true
            """).all(Deployment.class)).hasSize(1);
    }

    @Test
    void schemaRefusesBadOauth2Values() {
        // The client secret is a Secret's name and key, never the secret itself.
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("""
                  clientSecret:
                    existingSecret: ui-client
            """, """
                  clientSecret: s3cret
            """))).contains("adminUi.authentication.oauth2.clientSecret: Invalid type. Expected: object");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  clientSecretValue: s3cret
            """)).contains("Additional property clientSecretValue is not allowed");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  scopes: []
            """)).contains("adminUi.authentication.oauth2.scopes:");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  scopes: ["openid,profile"]
            """)).contains("adminUi.authentication.oauth2.scopes.0:");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  issuerUri: issuer.example.com
            """)).contains("adminUi.authentication.oauth2.issuerUri:");
        assertThat(HelmChart.renderError(OAUTH2_UI + """
                  providerSignOut: "yes"
            """)).contains("adminUi.authentication.oauth2.providerSignOut:");
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("clientId: admin-ui", "clientId: admin ui")))
            .contains("adminUi.authentication.oauth2.clientId:");
        assertThat(HelmChart.renderError(OAUTH2_UI.replace("method: oauth2", "method: oidc")))
            .contains("adminUi.authentication.method:");
    }

    @Test
    void schemaRefusesBadAdminUiSignInValues() {
        assertThat(HelmChart.renderError("""
            adminUi:
              authentication:
                method: sso
            """)).contains("method");
        assertThat(HelmChart.renderError("""
            adminUi:
              restProxyTruststore:
                type: P12
            """)).contains("type");
        assertThat(HelmChart.renderError("""
            adminUi:
              restProxyTruststore:
                key: ""
            """)).contains("key");
    }

    @Test
    void oauthValuesGiveTheBrokersOauthbearerAndTheJvmTheIssuersUrl() {
        RenderedChart chart = values("oauth-values.yaml");
        for (int i = 0; i < 3; i++) {
            assertThat(chart.brokerProperties(i))
                .containsEntry("sasl.enabled.mechanisms", "SCRAM-SHA-512,OAUTHBEARER")
                .containsEntry("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512")
                .containsEntry("sasl.oauthbearer.jwks.endpoint.url", "https://issuer.example.com/keys")
                .containsEntry("sasl.oauthbearer.expected.issuer", "https://issuer.example.com")
                .containsEntry("sasl.oauthbearer.expected.audience", "tributary");
        }
        String jvm = env(container(chart, BROKER), "JAVA_TOOL_OPTIONS");
        assertThat(jvm).startsWith((String) ((java.util.Map<?, ?>) HelmChart.defaultValues().get("broker")).get("jvmOptions"))
            .endsWith(" -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=https://issuer.example.com/keys");
    }

    @Test
    void oauthValuesMakeTheProxyCheckBearerTokensWithTheBrokersIssuer() {
        RenderedChart chart = values("oauth-values.yaml");
        Container proxy = container(chart, PROXY);
        assertThat(env(proxy, "REST_PROXY_AUTHENTICATION_METHOD")).isEqualTo("bearer");
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWK_SET_URI"))
            .isEqualTo("https://issuer.example.com/keys");
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUER_URI")).isEqualTo("https://issuer.example.com");
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_AUDIENCES")).isEqualTo("tributary");
        assertThat(names(proxy)).doesNotContain("REST_PROXY_AUTHENTICATION_SASL_MECHANISM");
        // Its own SCRAM login stays, for the health check.
        assertThat(secretRef(proxy, "TRIBUTARY_KAFKA_PASSWORD").getName()).isEqualTo("tributary-broker-login");
        assertThat(env(container(chart, PROXY), "JAVA_TOOL_OPTIONS")).doesNotContain("oauthbearer");
        for (ConfigMap configMap : chart.all(ConfigMap.class)) {
            assertThat(String.join("\n", configMap.getData().values())).doesNotContainIgnoringCase("password");
        }
    }

    @Test
    void theProxysOwnJwtValuesWinOverTheBrokers() {
        Container proxy = container(HelmChart.render(OAUTH_BROKERS + """
            restProxy:
              authentication:
                method: bearer
                jwt:
                  jwkSetUri: https://keys.example.com/jwks
                  audiences: [tributary, tributary-rest]
            adminUi:
              enabled: false
            """), PROXY);
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWK_SET_URI")).isEqualTo("https://keys.example.com/jwks");
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUER_URI")).isEqualTo("https://issuer.example.com");
        assertThat(env(proxy, "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_AUDIENCES")).isEqualTo("tributary,tributary-rest");
    }

    @Test
    void bearerAndOauthbearerCombinationsThatCannotWorkAreRefusedSayingWhatToSet() {
        assertThat(HelmChart.renderError(SASL_BROKERS + """
            restProxy:
              authentication:
                method: bearer
            adminUi:
              enabled: false
            """)).contains("add OAUTHBEARER to broker.sasl.enabledMechanisms");
        assertThat(HelmChart.renderError("""
            restProxy:
              authentication:
                method: bearer
            adminUi:
              enabled: false
            """)).contains("SASL_PLAINTEXT or SASL_SSL");
        assertThat(HelmChart.renderError("""
            broker:
              listeners:
                client:
                  protocol: SASL_PLAINTEXT
              sasl:
                enabledMechanisms: [SCRAM-SHA-512, OAUTHBEARER]
                interBroker:
                  existingSecret: broker-login
            """)).contains("broker.sasl.oauthbearer.jwksEndpointUrl");
        assertThat(HelmChart.renderError("""
            broker:
              sasl:
                oauthbearer:
                  jwksEndpointUrl: https://issuer.example.com/keys
            """)).contains("OAUTHBEARER in broker.sasl.enabledMechanisms");
        assertThat(HelmChart.renderError(OAUTH_BROKERS.replace("  listeners:", "  config:\n    sasl.oauthbearer.expected.issuer: x\n  listeners:")))
            .contains("broker.config.sasl.oauthbearer.expected.issuer");
        assertThat(HelmChart.renderError(OAUTH_BROKERS.replace("  listeners:",
            "  jvmOptions: \"-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=https://a\"\n  listeners:")))
            .contains("broker.jvmOptions");
        assertThat(HelmChart.renderError(SASL_BROKERS + """
            restProxy:
              authentication:
                method: basic
                jwt:
                  jwkSetUri: https://issuer.example.com/keys
            adminUi:
              enabled: false
            """)).contains("restProxy.authentication.jwt");
    }

    @Test
    void schemaRefusesBadOauthValues() {
        assertThat(HelmChart.renderError("""
            broker:
              sasl:
                oauthbearer:
                  jwksEndpointUrl: issuer.example.com/keys
            """)).contains("jwksEndpointUrl");
        assertThat(HelmChart.renderError("""
            restProxy:
              authentication:
                method: oauth
            """)).contains("method");
        assertThat(HelmChart.renderError("""
            restProxy:
              authentication:
                jwt:
                  audiences: ["a,b"]
            """)).contains("audiences");
    }

    @Test
    void notesTellHowToSignIn() throws Exception {
        assertThat(HelmChart.notes(java.nio.file.Files.readString(HelmChart.directory().resolve("ci/oauth-values.yaml"))))
            .contains("curl -H \"Authorization: Bearer $TOKEN\" http://localhost:8082/v3/clusters")
            .contains("then open http://localhost:8080\n  and sign in with https://issuer.example.com\n")
            .contains("client tributary-admin-ui must allow the redirect URI http://localhost:8080/login/oauth2/code/tributary")
            .contains("the audience\n  tributary, which the REST proxy requires)");
        assertThat(HelmChart.notes(java.nio.file.Files.readString(HelmChart.directory().resolve("ci/secure-values.yaml"))))
            .contains("then open http://localhost:8080\n  and sign in as one of the brokers' SCRAM users");
        assertThat(HelmChart.notes("{}")).contains("then open http://localhost:8080").doesNotContain("sign in as");
    }

    @Test
    void brokersReloadTheirStoresEveryReloadIntervalWhenTheyUseTls() {
        assertThat(values("secure-values.yaml").brokerProperties(0)).containsEntry("ssl.reload.interval.ms", "30000");
        String tls = """
            broker:
              listeners:
                client:
                  protocol: SSL
              tls:
                existingSecret: broker-tls
            """;
        assertThat(HelmChart.render(tls).brokerProperties(0)).containsEntry("ssl.reload.interval.ms", "60000");
        assertThat(HelmChart.render().brokerProperties(0)).doesNotContainKey("ssl.reload.interval.ms");
        assertThat(HelmChart.renderError(tls.replace("existingSecret: broker-tls", "existingSecret: broker-tls\n    reloadIntervalMs: -1")))
            .contains("reloadIntervalMs");
        assertThat(HelmChart.renderError(tls + """
              config:
                ssl.reload.interval.ms: 1000
            """)).contains("broker.config.ssl.reload.interval.ms");
    }
}
