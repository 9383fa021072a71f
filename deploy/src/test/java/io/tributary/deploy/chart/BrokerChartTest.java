package io.tributary.deploy.chart;

import static io.tributary.deploy.chart.RenderedChart.env;
import static io.tributary.deploy.chart.RenderedChart.envVar;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The brokers' StatefulSet, Services, ConfigMap and PodDisruptionBudget. */
class BrokerChartTest {

    private static final String BROKER = HelmChart.RELEASE + "-broker";
    private static final String HEADLESS = BROKER + "-headless";
    private static final String DOMAIN = HEADLESS + "." + HelmChart.NAMESPACE + ".svc.cluster.local";

    private static StatefulSet brokers(RenderedChart chart) {
        return chart.get(StatefulSet.class, BROKER);
    }

    private static Container brokerContainer(RenderedChart chart) {
        return brokers(chart).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    @Test
    void threeBrokersByDefaultWithKafkaDefaultsForThree() {
        RenderedChart chart = HelmChart.render();
        assertThat(brokers(chart).getSpec().getReplicas()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            Properties properties = chart.brokerProperties(i);
            assertThat(properties).containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3");
        }
    }

    @Test
    void replicaCountSetsTheBrokersAndTheirConfigurations() {
        RenderedChart chart = HelmChart.render("""
            broker:
              replicaCount: 5
            """);
        assertThat(brokers(chart).getSpec().getReplicas()).isEqualTo(5);
        assertThat(chart.brokerProperties(4)).containsEntry("broker.id", "4");
    }

    @Test
    void brokerIdIsThePodOrdinalThroughAFileNamedAfterThePod() {
        RenderedChart chart = HelmChart.render();
        for (int i = 0; i < 3; i++) {
            assertThat(chart.brokerProperties(i)).containsEntry("broker.id", Integer.toString(i));
        }
        Container broker = brokerContainer(chart);
        // The pod name is stable across restarts (StatefulSet), so the id is too.
        assertThat(envVar(broker, "POD_NAME").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        assertThat(broker.getArgs()).containsExactly("--server-properties=/etc/tributary/$(POD_NAME).properties");
        VolumeMount config = broker.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/etc/tributary"))
            .findFirst().orElseThrow();
        assertThat(brokers(chart).getSpec().getTemplate().getSpec().getVolumes())
            .anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo(config.getName());
                assertThat(v.getConfigMap().getName()).isEqualTo(BROKER + "-config");
            });
    }

    @Test
    void everyBrokerAdvertisesItsOwnHostThroughTheHeadlessService() {
        RenderedChart chart = HelmChart.render();
        for (int i = 0; i < 3; i++) {
            assertThat(chart.brokerProperties(i))
                .containsEntry("advertised.listeners", "PLAINTEXT://" + BROKER + "-" + i + "." + DOMAIN + ":9092")
                .containsEntry("listeners", "PLAINTEXT://:9092")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT");
        }
        assertThat(brokers(chart).getSpec().getServiceName()).isEqualTo(HEADLESS);
        Service headless = chart.get(Service.class, HEADLESS);
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(headless.getSpec().getSelector())
            .isEqualTo(brokers(chart).getSpec().getSelector().getMatchLabels());
        assertThat(headless.getSpec().getPorts()).extracting(ServicePort::getPort).contains(9092, 8090);
        Service bootstrap = chart.get(Service.class, BROKER);
        assertThat(bootstrap.getSpec().getPorts()).extracting(ServicePort::getPort).containsExactly(9092);
    }

    @Test
    void logsLiveOnTheVolumeMountedAsDataDir() {
        RenderedChart chart = HelmChart.render();
        Container broker = brokerContainer(chart);
        assertThat(broker.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("data");
            assertThat(m.getMountPath()).isEqualTo("/var/lib/tributary");
        });
        assertThat(env(broker, "BROKER_DATA_DIR")).isEqualTo("/var/lib/tributary");
        assertThat(chart.brokerProperties(0)).containsEntry("log.dirs", "/var/lib/tributary/kafka-logs");
    }

    @Test
    void eachBrokerGetsAPersistentVolumeClaimWithSizeClassAndRetentionPolicy() {
        RenderedChart chart = HelmChart.render("""
            broker:
              persistence:
                size: 100Gi
                storageClass: fast-ssd
              persistentVolumeClaimRetentionPolicy:
                whenDeleted: Delete
                whenScaled: Retain
            """);
        StatefulSet brokers = brokers(chart);
        assertThat(brokers.getSpec().getVolumeClaimTemplates()).hasSize(1);
        PersistentVolumeClaim claim = brokers.getSpec().getVolumeClaimTemplates().get(0);
        assertThat(claim.getMetadata().getName()).isEqualTo("data");
        assertThat(claim.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("100Gi");
        assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast-ssd");
        assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
        assertThat(brokers.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenDeleted()).isEqualTo("Delete");
        assertThat(brokers.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenScaled()).isEqualTo("Retain");

        StatefulSet defaults = brokers(HelmChart.render());
        assertThat(defaults.getSpec().getVolumeClaimTemplates().get(0).getSpec().getStorageClassName()).isNull();
        assertThat(defaults.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests()
            .get("storage").toString()).isEqualTo("20Gi");
        assertThat(defaults.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenDeleted()).isEqualTo("Retain");
    }

    @Test
    void withoutPersistenceTheDataDirIsAnEmptyDir() {
        StatefulSet brokers = brokers(HelmChart.render("""
            broker:
              persistence:
                enabled: false
            """));
        assertThat(brokers.getSpec().getVolumeClaimTemplates()).isNullOrEmpty();
        assertThat(brokers.getSpec().getTemplate().getSpec().getVolumes())
            .anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo("data");
                assertThat(v.getEmptyDir()).isNotNull();
            });
    }

    @Test
    void podDisruptionBudgetLetsOneBrokerGoAtATime() {
        RenderedChart chart = HelmChart.render();
        PodDisruptionBudget pdb = chart.get(PodDisruptionBudget.class, BROKER);
        assertThat(pdb.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
        assertThat(pdb.getSpec().getSelector().getMatchLabels())
            .isEqualTo(brokers(chart).getSpec().getSelector().getMatchLabels());
    }

    @Test
    void probesUseTheActuatorHealthGroupsOnTheActuatorPort() {
        Container broker = brokerContainer(HelmChart.render());
        assertThat(broker.getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getContainerPort()).isEqualTo(8090);
        });
        assertThat(env(broker, "SERVER_PORT")).isEqualTo("8090");
        assertHttpProbe(broker.getLivenessProbe(), "/actuator/health/liveness");
        assertHttpProbe(broker.getReadinessProbe(), "/actuator/health/readiness");
        assertHttpProbe(broker.getStartupProbe(), "/actuator/health/liveness");
    }

    @Test
    void startupProbeAllowsAnHourOfLogRecoveryBeforeLivenessApplies() {
        Probe startup = brokerContainer(HelmChart.render()).getStartupProbe();
        assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold()).isGreaterThanOrEqualTo(3600);

        Probe configured = brokerContainer(HelmChart.render("""
            broker:
              startupProbe:
                periodSeconds: 20
                failureThreshold: 540
            """)).getStartupProbe();
        assertThat(configured.getPeriodSeconds()).isEqualTo(20);
        assertThat(configured.getFailureThreshold()).isEqualTo(540);
    }

    @Test
    void terminationGracePeriodExceedsTheControlledShutdownBound() {
        RenderedChart chart = HelmChart.render();
        PodSpec pod = brokers(chart).getSpec().getTemplate().getSpec();
        Properties properties = chart.brokerProperties(0);
        long boundSeconds = Long.parseLong(properties.getProperty("controlled.shutdown.max.retries"))
            * Long.parseLong(properties.getProperty("controlled.shutdown.retry.backoff.ms")) / 1000;
        assertThat(boundSeconds).isEqualTo(15);
        assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(120L).isGreaterThan(boundSeconds + 30);
    }

    @Test
    void controlledShutdownLongerThanTheGracePeriodIsRefused() {
        String error = HelmChart.renderError("""
            broker:
              config:
                controlled.shutdown.max.retries: 30
            """);
        assertThat(error).contains("terminationGracePeriodSeconds").contains("150 s");

        PodSpec raised = brokers(HelmChart.render("""
            broker:
              terminationGracePeriodSeconds: 200
              config:
                controlled.shutdown.max.retries: 30
            """)).getSpec().getTemplate().getSpec();
        assertThat(raised.getTerminationGracePeriodSeconds()).isEqualTo(200L);
    }

    @Test
    void brokersSpreadOverNodesWithPodAntiAffinity() {
        StatefulSet soft = brokers(HelmChart.render());
        var preferred = soft.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
            .getPreferredDuringSchedulingIgnoredDuringExecution();
        assertThat(preferred).hasSize(1);
        assertThat(preferred.get(0).getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
        assertThat(preferred.get(0).getPodAffinityTerm().getLabelSelector().getMatchLabels())
            .isEqualTo(soft.getSpec().getSelector().getMatchLabels());

        StatefulSet hard = brokers(HelmChart.render("""
            broker:
              podAntiAffinityPreset: hard
            """));
        var required = hard.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity()
            .getRequiredDuringSchedulingIgnoredDuringExecution();
        assertThat(required).singleElement().satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
    }

    @Test
    void resourcesAndJvmOptionsComeFromValues() {
        Container broker = brokerContainer(HelmChart.render("""
            broker:
              resources:
                requests: {cpu: "2", memory: 8Gi}
                limits: {memory: 8Gi}
              jvmOptions: "-XX:MaxRAMPercentage=40.0"
            """));
        assertThat(broker.getResources().getLimits().get("memory").toString()).isEqualTo("8Gi");
        assertThat(broker.getResources().getRequests().get("cpu").toString()).isEqualTo("2");
        assertThat(env(broker, "JAVA_TOOL_OPTIONS")).isEqualTo("-XX:MaxRAMPercentage=40.0");
        assertThat(env(brokerContainer(HelmChart.render()), "JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=");
    }

    @Test
    void brokerConfigBecomesServerPropertiesWithIntegersKeptWhole() {
        Properties properties = HelmChart.render("""
            broker:
              config:
                log.segment.bytes: 1073741824
                log.retention.ms: 604800000
                log.cleaner.min.cleanable.ratio: 0.5
                auto.create.topics.enable: false
            """).brokerProperties(1);
        // Helm reads YAML numbers as floats: 1073741824 must not become 1.073741824e+09.
        assertThat(properties).containsEntry("log.segment.bytes", "1073741824")
            .containsEntry("log.retention.ms", "604800000")
            .containsEntry("log.cleaner.min.cleanable.ratio", "0.5")
            .containsEntry("auto.create.topics.enable", "false");
    }

    @Test
    void settingsTheChartDerivesCannotBeSetInBrokerConfig() {
        assertThat(HelmChart.renderError("""
            broker:
              config:
                advertised.listeners: PLAINTEXT://elsewhere:9092
            """)).contains("broker.config.advertised.listeners is set by the chart");
        assertThat(HelmChart.renderError("""
            broker:
              config:
                broker.id: 7
            """)).contains("broker.config.broker.id is set by the chart");
    }

    @Test
    void replicationFactorAboveTheBrokerCountIsRefused() {
        assertThat(HelmChart.renderError("""
            broker:
              replicaCount: 2
            """)).contains("default.replication.factor is 3 but there are only 2 brokers");
    }

    @Test
    void configChangesRollTheBrokersButScalingDoesNot() {
        String checksum = checksum(HelmChart.render());
        assertThat(checksum).isNotBlank();
        assertThat(checksum(HelmChart.render("""
            broker:
              config:
                num.partitions: 12
            """))).isNotEqualTo(checksum);
        assertThat(checksum(HelmChart.render("""
            broker:
              replicaCount: 4
            """))).isEqualTo(checksum);
    }

    private static String checksum(RenderedChart chart) {
        Map<String, String> annotations = brokers(chart).getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations.get("checksum/config");
    }

    @Test
    void rackComesFromAValueOrFromAPodLabelThroughTheDownwardApi() {
        assertThat(HelmChart.render().brokerProperties(0)).doesNotContainKey("broker.rack");
        assertThat(env(brokerContainer(HelmChart.render()), "BROKER_RACK")).isNull();

        assertThat(HelmChart.render("""
            broker:
              rack: eu-west-1a
            """).brokerProperties(2)).containsEntry("broker.rack", "eu-west-1a");

        Container fromLabel = brokerContainer(HelmChart.render("""
            broker:
              rackFromPodLabel: topology.kubernetes.io/zone
            """));
        assertThat(envVar(fromLabel, "BROKER_RACK").getValueFrom().getFieldRef().getFieldPath())
            .isEqualTo("metadata.labels['topology.kubernetes.io/zone']");
    }

    @Test
    void externalAccessThroughNodePortsAdvertisesTheDomainAndEachBrokersNodePort() {
        RenderedChart chart = HelmChart.render("""
            externalAccess:
              enabled: true
              service:
                type: NodePort
                nodePorts: [31090, 31091, 31092]
              domain: kafka.example.com
            """);
        for (int i = 0; i < 3; i++) {
            Properties properties = chart.brokerProperties(i);
            assertThat(properties)
                .containsEntry("listeners", "PLAINTEXT://:9092,EXTERNAL://:9094")
                .containsEntry("advertised.listeners", "PLAINTEXT://" + BROKER + "-" + i + "." + DOMAIN
                    + ":9092,EXTERNAL://kafka.example.com:" + (31090 + i))
                .containsEntry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT")
                .containsEntry("inter.broker.listener.name", "PLAINTEXT");
            Service service = chart.get(Service.class, BROKER + "-" + i + "-external");
            assertThat(service.getSpec().getType()).isEqualTo("NodePort");
            assertThat(service.getSpec().getSelector())
                .containsEntry("statefulset.kubernetes.io/pod-name", BROKER + "-" + i);
            ServicePort port = service.getSpec().getPorts().get(0);
            assertThat(port.getNodePort()).isEqualTo(31090 + i);
            assertThat(port.getTargetPort()).isEqualTo(new IntOrString("external"));
        }
        assertThat(brokerContainer(chart).getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("external");
            assertThat(p.getContainerPort()).isEqualTo(9094);
        });
    }

    @Test
    void externalAccessThroughLoadBalancersAdvertisesEachBrokersAddress() {
        RenderedChart chart = HelmChart.render("""
            externalAccess:
              enabled: true
              service:
                type: LoadBalancer
                port: 19092
                loadBalancerIPs: [203.0.113.10, 203.0.113.11, 203.0.113.12]
              advertisedHosts: [b0.kafka.example.com]
            """);
        // advertisedHosts wins where it names a broker; the reserved IP otherwise.
        assertThat(chart.brokerProperties(0).getProperty("advertised.listeners"))
            .endsWith(",EXTERNAL://b0.kafka.example.com:19092");
        assertThat(chart.brokerProperties(2).getProperty("advertised.listeners"))
            .endsWith(",EXTERNAL://203.0.113.12:19092");
        Service service = chart.get(Service.class, BROKER + "-2-external");
        assertThat(service.getSpec().getType()).isEqualTo("LoadBalancer");
        assertThat(service.getSpec().getLoadBalancerIP()).isEqualTo("203.0.113.12");
        assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(19092);
    }

    @Test
    void externalAccessWithoutAnAddressForEveryBrokerIsRefused() {
        assertThat(HelmChart.renderError("""
            externalAccess:
              enabled: true
              service:
                type: NodePort
                nodePorts: [31090, 31091]
              domain: kafka.example.com
            """)).contains("nodePorts needs a node port for each of the 3 brokers");
        assertThat(HelmChart.renderError("""
            externalAccess:
              enabled: true
            """)).contains("advertisedHosts[0]");
    }

    @Test
    void withoutExternalAccessThereIsNoExternalListenerOrService() {
        RenderedChart chart = HelmChart.render();
        assertThat(chart.brokerProperties(0)).doesNotContainKey("listener.security.protocol.map");
        assertThat(chart.all(Service.class)).noneMatch(s -> s.getMetadata().getName().endsWith("-external"));
    }

    @Test
    void brokersRunAsTheImagesNonRootUserWithAReadOnlyRootFilesystem() {
        RenderedChart chart = HelmChart.render();
        PodSpec pod = brokers(chart).getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
        Container broker = brokerContainer(chart);
        assertThat(broker.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(broker.getVolumeMounts()).extracting(VolumeMount::getMountPath).contains("/tmp");
    }

    private static void assertHttpProbe(Probe probe, String path) {
        assertThat(probe).as("probe on " + path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort()).isEqualTo(new IntOrString("http"));
    }
}
