package io.tributary.deploy.chart;

import static io.tributary.deploy.chart.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The in-chart ZooKeeper ensemble, or an external one, and the connect string the brokers get. */
class ZookeeperChartTest {

    private static final String ZOOKEEPER = HelmChart.RELEASE + "-zookeeper";
    private static final String HEADLESS = ZOOKEEPER + "-headless";
    private static final String DOMAIN = HEADLESS + "." + HelmChart.NAMESPACE + ".svc.cluster.local";

    @Test
    void threeServerEnsembleOfTheOfficialImageByDefault() {
        RenderedChart chart = HelmChart.render();
        StatefulSet zookeeper = chart.get(StatefulSet.class, ZOOKEEPER);
        assertThat(zookeeper.getSpec().getReplicas()).isEqualTo(3);
        // All servers start together: none is ready before a quorum exists.
        assertThat(zookeeper.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        assertThat(zookeeper.getSpec().getServiceName()).isEqualTo(HEADLESS);
        Container container = zookeeper.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("docker.io/zookeeper:3.9");
        assertThat(env(container, "ZOO_SERVERS")).isEqualTo(
            "server.1=" + ZOOKEEPER + "-0." + DOMAIN + ":2888:3888;2181 "
                + "server.2=" + ZOOKEEPER + "-1." + DOMAIN + ":2888:3888;2181 "
                + "server.3=" + ZOOKEEPER + "-2." + DOMAIN + ":2888:3888;2181");
        // myid = ordinal + 1, matching server.N above.
        assertThat(String.join(" ", container.getCommand())).contains("ZOO_MY_ID=$((${HOSTNAME##*-} + 1))")
            .contains("exec /docker-entrypoint.sh zkServer.sh start-foreground");
        assertThat(zookeeper.getSpec().getVolumeClaimTemplates()).singleElement()
            .satisfies(c -> assertThat(c.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("8Gi"));
    }

    @Test
    void imageIsConfigurable() {
        Container container = HelmChart.render("""
            zookeeper:
              image:
                registry: mirror.example.com
                repository: library/zookeeper
                tag: 3.9.5
            """).get(StatefulSet.class, ZOOKEEPER).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("mirror.example.com/library/zookeeper:3.9.5");
    }

    @Test
    void headlessServicePublishesServersBeforeTheyAreReadySoTheQuorumCanForm() {
        Service headless = HelmChart.render().get(Service.class, HEADLESS);
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(headless.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactlyInAnyOrder(2181, 2888, 3888);
    }

    @Test
    void podDisruptionBudgetKeepsAMajority() {
        PodDisruptionBudget pdb = HelmChart.render().get(PodDisruptionBudget.class, ZOOKEEPER);
        assertThat(pdb.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
    }

    @Test
    void brokersConnectToEveryInChartServer() {
        RenderedChart chart = HelmChart.render("""
            zookeeper:
              replicaCount: 5
            """);
        String expected = "";
        for (int i = 0; i < 5; i++) {
            expected += (i > 0 ? "," : "") + ZOOKEEPER + "-" + i + "." + DOMAIN + ":2181";
        }
        for (int broker = 0; broker < 3; broker++) {
            assertThat(chart.brokerProperties(broker)).containsEntry("zookeeper.connect", expected);
        }
        assertThat(chart.get(StatefulSet.class, ZOOKEEPER).getSpec().getReplicas()).isEqualTo(5);
    }

    @Test
    void externalEnsembleReplacesTheInChartOne() {
        RenderedChart chart = HelmChart.render("""
            zookeeper:
              enabled: false
            externalZookeeper:
              servers: [zk-a.infra:2181, zk-b.infra:2181, zk-c.infra:2181]
            """);
        assertThat(chart.brokerProperties(0)).containsEntry("zookeeper.connect", "zk-a.infra:2181,zk-b.infra:2181,zk-c.infra:2181");
        assertThat(chart.all(StatefulSet.class)).extracting(s -> s.getMetadata().getName()).doesNotContain(ZOOKEEPER);
        assertThat(chart.all(Service.class)).noneMatch(s -> s.getMetadata().getName().startsWith(ZOOKEEPER));
        assertThat(chart.all(PodDisruptionBudget.class)).noneMatch(p -> p.getMetadata().getName().equals(ZOOKEEPER));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4, 6})
    void schemaRejectsAnEvenNumberOfServers(int servers) {
        assertThat(HelmChart.renderError("zookeeper:\n  replicaCount: " + servers + "\n"))
            .contains("zookeeper.replicaCount").contains("one of the following: 1, 3, 5");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 5, 7})
    void schemaAcceptsAnOddNumberOfServers(int servers) {
        assertThat(HelmChart.render("zookeeper:\n  replicaCount: " + servers + "\n")
            .get(StatefulSet.class, ZOOKEEPER).getSpec().getReplicas()).isEqualTo(servers);
    }

    @Test
    void withoutAnyZookeeperTheRenderFails() {
        // Each broker would otherwise start an embedded ZooKeeper of its own: three clusters of one.
        assertThat(HelmChart.renderError("""
            zookeeper:
              enabled: false
            """)).contains("externalZookeeper.servers");
    }

    @Test
    void bothZookeepersAtOnceIsRefused() {
        assertThat(HelmChart.renderError("""
            externalZookeeper:
              servers: [zk-a.infra:2181]
            """)).contains("choose the in-chart ensemble or the external one");
    }
}
