package io.tributary.broker.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the broker (DESIGN.md section 3): storage knows nothing of replication, the
 * cluster or the protocol; handlers reach storage only through the replica layer; the core is
 * plain Java without Spring.
 */
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tributary.broker");
    }

    @Test
    void logDoesNotDependOnReplicationClusterOrProtocol() {
        noClasses().that().resideInAPackage("..broker.log..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.replica..", "..broker.cluster..",
                "..broker.api..", "..broker.network..")
            .check(classes);
    }

    @Test
    void producerStateDoesNotDependOnOtherLayers() {
        noClasses().that().resideInAPackage("..broker.producer..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.log..", "..broker.replica..",
                "..broker.cluster..", "..broker.api..", "..broker.network..")
            .check(classes);
    }

    @Test
    void handlersReachStorageOnlyThroughTheReplicaLayer() {
        noClasses().that().resideInAPackage("..broker.api..")
            .should().dependOnClassesThat().resideInAPackage("..broker.log..")
            .check(classes);
    }

    @Test
    void networkKnowsNoBrokerSemantics() {
        noClasses().that().resideInAPackage("..broker.network..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.api..", "..broker.log..",
                "..broker.replica..", "..broker.cluster..", "..broker.producer..")
            .check(classes);
    }

    @Test
    void clusterDoesNotDependOnReplicationOrStorage() {
        noClasses().that().resideInAPackage("..broker.cluster..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.replica..", "..broker.log..",
                "..broker.api..", "..broker.network..")
            .check(classes);
    }

    @Test
    void groupCoordinatorStoresThroughTheReplicaLayerAndKnowsNoProtocolHandlers() {
        noClasses().that().resideInAPackage("..broker.group..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.log..", "..broker.api..",
                "..broker.network..")
            .check(classes);
    }

    @Test
    void lowerLayersDoNotKnowTheGroupCoordinator() {
        noClasses().that().resideInAnyPackage("..broker.log..", "..broker.replica..", "..broker.cluster..",
                "..broker.producer..", "..broker.network..")
            .should().dependOnClassesThat().resideInAPackage("..broker.group..")
            .check(classes);
    }

    @Test
    void securityStoresThroughTheClusterLayerAndKnowsNoProtocolHandlers() {
        noClasses().that().resideInAPackage("..broker.security..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.api..", "..broker.network..", "..broker.log..",
                "..broker.replica..", "..broker.group..")
            .check(classes);
    }

    @Test
    void metricsKnowNoBrokerPart() {
        noClasses().that().resideInAPackage("..broker.metrics..")
            .should().dependOnClassesThat().resideInAnyPackage("..broker.log..", "..broker.replica..",
                "..broker.cluster..", "..broker.api..", "..broker.network..", "..broker.group..", "..broker.producer..")
            .check(classes);
    }

    @Test
    void theCoreIsPlainJava() {
        noClasses().that().resideInAnyPackage("..broker.log..", "..broker.replica..", "..broker.cluster..",
                "..broker.producer..", "..broker.network..", "..broker.api..", "..broker.group..", "..broker.metrics..",
                "..broker.security..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework..")
            .check(classes);
    }

    /**
     * Parts are wired once, through their constructors (issue 16, item 3): no setter takes a callback
     * or a collaborator after construction, as {@code setLogDirFailureHandler} and
     * {@code setReplicaManager(this)} once did.
     */
    @Test
    void noPartIsWiredBySetter() {
        noMethods().that().areDeclaredInClassesThat().resideInAPackage("io.tributary.broker..")
            .and().haveNameMatching("set[A-Z].*")
            .should(new com.tngtech.archunit.lang.ArchCondition<com.tngtech.archunit.core.domain.JavaMethod>(
                    "take a callback or a broker part") {
                @Override
                public void check(com.tngtech.archunit.core.domain.JavaMethod method,
                                  com.tngtech.archunit.lang.ConditionEvents events) {
                    for (com.tngtech.archunit.core.domain.JavaClass type : method.getRawParameterTypes()) {
                        boolean callback = type.isAnnotatedWith(FunctionalInterface.class)
                            || type.getPackageName().startsWith("java.util.function");
                        boolean part = type.getPackageName().startsWith("io.tributary.broker")
                            && !type.isRecord() && !type.isEnum();
                        if (callback || part) {
                            events.add(com.tngtech.archunit.lang.SimpleConditionEvent.satisfied(method,
                                method.getFullName() + " takes " + type.getName()));
                        }
                    }
                }
            })
            .check(classes);
    }
}
