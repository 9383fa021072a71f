package io.tributary.deploy.chart;

import static io.tributary.deploy.chart.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

/** The REST proxy replicas, how they find each other and the brokers, and the admin UI in front of them. */
class RestProxyChartTest {

    private static final String PROXY = HelmChart.RELEASE + "-rest-proxy";
    private static final String HEADLESS = PROXY + "-headless";
    private static final String SUFFIX = "." + HelmChart.NAMESPACE + ".svc.cluster.local";
    private static final String ADMIN_UI = HelmChart.RELEASE + "-admin-ui";

    private static Container proxy(RenderedChart chart) {
        return chart.get(StatefulSet.class, PROXY).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    @Test
    void replicasReachTheBrokersThroughTheBootstrapService() {
        RenderedChart chart = HelmChart.render();
        assertThat(chart.get(StatefulSet.class, PROXY).getSpec().getReplicas()).isEqualTo(2);
        assertThat(env(proxy(chart), "KAFKA_BOOTSTRAP_SERVERS"))
            .isEqualTo(HelmChart.RELEASE + "-broker" + SUFFIX + ":9092");
    }

    @Test
    void everyReplicaIsAddressableOnItsOwnAndKnowsAllPeers() {
        RenderedChart chart = HelmChart.render("""
            restProxy:
              replicaCount: 3
            """);
        StatefulSet proxies = chart.get(StatefulSet.class, PROXY);
        assertThat(proxies.getSpec().getServiceName()).isEqualTo(HEADLESS);
        Service headless = chart.get(Service.class, HEADLESS);
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(headless.getSpec().getSelector()).isEqualTo(proxies.getSpec().getSelector().getMatchLabels());
        assertThat(env(proxy(chart), "REST_PROXY_PEERS")).isEqualTo(
            "http://" + PROXY + "-0." + HEADLESS + SUFFIX + ":8082,"
                + "http://" + PROXY + "-1." + HEADLESS + SUFFIX + ":8082,"
                + "http://" + PROXY + "-2." + HEADLESS + SUFFIX + ":8082");
        // base_uri follows each request unless told otherwise, so it works through the Service and the Ingress.
        assertThat(env(proxy(chart), "REST_PROXY_ADVERTISED_URL")).isNull();
        assertThat(env(proxy(HelmChart.render("""
            restProxy:
              advertisedUrl: https://kafka-rest.example.com
            """)), "REST_PROXY_ADVERTISED_URL")).isEqualTo("https://kafka-rest.example.com");
    }

    @Test
    void probesUseTheActuatorHealthGroupsOnTheHttpPort() {
        Container proxy = proxy(HelmChart.render());
        assertThat(proxy.getPorts()).singleElement().satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(8082));
        assertProbe(proxy.getLivenessProbe(), "/actuator/health/liveness");
        assertProbe(proxy.getReadinessProbe(), "/actuator/health/readiness");
        assertProbe(proxy.getStartupProbe(), "/actuator/health/liveness");
    }

    @Test
    void serviceAndPodDisruptionBudgetCoverTheReplicas() {
        RenderedChart chart = HelmChart.render();
        Service service = chart.get(Service.class, PROXY);
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getPort()).isEqualTo(8082);
            assertThat(p.getTargetPort()).isEqualTo(new IntOrString("http"));
        });
        assertThat(chart.get(PodDisruptionBudget.class, PROXY).getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
    }

    @Test
    void ingressIsOptional() {
        assertThat(HelmChart.render().all(Ingress.class)).isEmpty();
        Ingress ingress = HelmChart.render("""
            restProxy:
              ingress:
                enabled: true
                className: nginx
                hostname: kafka-rest.example.com
                tlsSecret: kafka-rest-tls
            """).get(Ingress.class, PROXY);
        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getHost()).isEqualTo("kafka-rest.example.com");
            assertThat(rule.getHttp().getPaths().get(0).getBackend().getService().getName()).isEqualTo(PROXY);
        });
        assertThat(ingress.getSpec().getTls()).singleElement()
            .satisfies(tls -> assertThat(tls.getSecretName()).isEqualTo("kafka-rest-tls"));
    }

    @Test
    void adminUiIsOnByDefaultAndCanBeTurnedOff() {
        assertThat(HelmChart.render().all(Deployment.class)).extracting(d -> d.getMetadata().getName())
            .containsExactly(ADMIN_UI);
        RenderedChart off = HelmChart.render("""
            adminUi:
              enabled: false
            """);
        assertThat(off.all(Deployment.class)).isEmpty();
        assertThat(off.all(Service.class)).noneMatch(s -> s.getMetadata().getName().equals(ADMIN_UI));
    }

    @Test
    void adminUiTalksToTheRestProxyService() {
        RenderedChart chart = HelmChart.render();
        Deployment ui = chart.get(Deployment.class, ADMIN_UI);
        Container container = ui.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).startsWith("tributary-admin-ui:");
        assertThat(container.getPorts()).singleElement().satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(8080));
        assertThat(env(container, "ADMIN_UI_REST_PROXY_URL")).isEqualTo("http://" + PROXY + SUFFIX + ":8082");
        Service service = chart.get(Service.class, ADMIN_UI);
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(8080));
        assertThat(service.getSpec().getSelector()).isEqualTo(ui.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void adminUiWithoutTheRestProxyIsRefused() {
        assertThat(HelmChart.renderError("""
            restProxy:
              enabled: false
            adminUi:
              enabled: true
            """)).contains("adminUi.enabled needs restProxy.enabled");
    }

    @Test
    void notesTellHowToReachTheRestProxyThroughAPortForwardWithoutIngress() {
        String notes = HelmChart.notes("{}");
        assertThat(notes).contains("kubectl -n tributary port-forward svc/" + PROXY + " 8082:8082")
            .contains("http://localhost:8082/swagger-ui/index.html")
            .contains("bootstrap.servers=" + HelmChart.RELEASE + "-broker" + SUFFIX + ":9092")
            .contains("kubectl -n tributary port-forward svc/" + ADMIN_UI + " 8080:8080");
        assertThat(HelmChart.notes("""
            adminUi:
              enabled: false
            """)).doesNotContain("Admin UI");
    }

    @Test
    void notesTellTheIngressUrlTheAdminUiAndTheExternalBrokerAddresses() {
        String notes = HelmChart.notes("""
            restProxy:
              ingress:
                enabled: true
                hostname: kafka-rest.example.com
                tlsSecret: kafka-rest-tls
            adminUi:
              enabled: true
            externalAccess:
              enabled: true
              service:
                type: NodePort
                nodePorts: [31090, 31091, 31092]
              domain: kafka.example.com
            """);
        assertThat(notes).contains("https://kafka-rest.example.com/swagger-ui/index.html")
            .contains("kubectl -n tributary port-forward svc/" + ADMIN_UI + " 8080:8080")
            .contains("broker 2: kafka.example.com:31092");
    }

    private static void assertProbe(Probe probe, String path) {
        assertThat(probe).as(path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort()).isEqualTo(new IntOrString("http"));
    }
}
