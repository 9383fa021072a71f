package io.tributary.deploy.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tributary.deploy.Repository;
import io.tributary.deploy.chart.HelmChart;
import io.tributary.deploy.docker.Dockerfile.Instruction;
import io.tributary.deploy.docker.Dockerfile.Stage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * The apps' Dockerfiles, checked against what the reactor has built (no image can be built here):
 * multi-stage, the runtime stage copies exactly one built fat jar and runs it as a non-root user
 * with an exec-form entrypoint, exposes the apps' default ports, and the broker's data dir is a
 * volume.
 */
class DockerfileTest {

    /** An app with a Dockerfile: its module, its chart values section and its data directory (if any). */
    record App(String module, String valuesKey, String dataDir) {

        Path dockerfile() {
            return Repository.path(module + "/Dockerfile");
        }

        @Override
        public String toString() {
            return module;
        }
    }

    static Stream<App> apps() {
        return Stream.of(new App("broker-service", "broker", "/var/lib/tributary"), new App("rest-proxy", "restProxy", null),
            new App("admin-ui", "adminUi", null));
    }

    @ParameterizedTest
    @MethodSource("apps")
    void buildsWithMavenInOneStageAndRunsOnAJreInAnother(App app) {
        Dockerfile dockerfile = Dockerfile.read(app.dockerfile());
        assertThat(dockerfile.stages()).hasSizeGreaterThanOrEqualTo(2);
        Stage build = buildStage(dockerfile);
        assertThat(build.baseImage()).startsWith("maven:3.9-eclipse-temurin-17");
        assertThat(build.all("RUN")).anySatisfy(run -> assertThat(run.raw())
            .contains("mvn ").contains(" package").contains("-DskipTests").contains("-pl " + app.module()).contains("-am"));
        assertThat(dockerfile.runtime().baseImage()).isEqualTo("eclipse-temurin:17-jre");
    }

    @ParameterizedTest
    @MethodSource("apps")
    void runsAsANumericNonRootUserThatTheChartAlsoUses(App app) {
        Stage runtime = Dockerfile.read(app.dockerfile()).runtime();
        Instruction user = runtime.last("USER").orElseThrow(() -> new AssertionError(app.module() + " sets no USER"));
        String uid = user.arguments().get(0).split(":")[0];
        // Numeric, so that Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
        assertThat(uid).matches("[0-9]+");
        assertThat(Integer.parseInt(uid)).isNotZero();
        assertThat(runtime.all("RUN")).anySatisfy(run -> assertThat(run.raw()).contains("useradd").contains("--uid " + uid));
        assertThat(chartValue(app.valuesKey(), "podSecurityContext", "runAsUser")).isEqualTo(Integer.parseInt(uid));
    }

    @ParameterizedTest
    @MethodSource("apps")
    void runtimeStageCopiesExactlyOneBuiltFatJarWhichTheEntrypointRuns(App app) throws IOException {
        Dockerfile dockerfile = Dockerfile.read(app.dockerfile());
        Stage build = buildStage(dockerfile);
        Instruction copy = dockerfile.runtime().all("COPY").stream().filter(c -> c.flag("from").isPresent())
            .findFirst().orElseThrow(() -> new AssertionError(app.module() + ": no COPY --from in the runtime stage"));
        assertThat(copy.flag("from")).contains(build.name());
        assertThat(copy.arguments()).hasSize(2);

        // The source is a path in the build stage: relative to the repository root below its WORKDIR.
        String workdir = build.last("WORKDIR").orElseThrow().arguments().get(0).replaceAll("/+$", "") + "/";
        String source = copy.arguments().get(0);
        assertThat(source).startsWith(workdir);
        String relative = source.substring(workdir.length());
        assertThat(relative).startsWith(app.module() + "/target/");
        List<Path> jars = matches(relative);
        if (jars.isEmpty()) {
            fail("No built jar matches " + relative + " (the COPY source of " + app.module() + "/Dockerfile). "
                + "The jars are built by the modules before this one: run `mvn -B verify` from the repository root, "
                + "or `mvn -B -DskipTests package` first when running this module alone.");
        }
        assertThat(jars).as("jars matching %s; Docker refuses to copy several to one file", relative).hasSize(1);
        try (JarFile jar = new JarFile(jars.get(0).toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                .as("a Spring Boot executable jar").startsWith("org.springframework.boot.loader.");
            assertThat(jar.getEntry("BOOT-INF/lib/")).isNotNull();
        }

        String destination = copy.arguments().get(1);
        String runtimeWorkdir = dockerfile.runtime().last("WORKDIR").map(w -> w.arguments().get(0)).orElse("/");
        String jarInImage = destination.startsWith("/") ? destination : runtimeWorkdir.replaceAll("/+$", "") + "/" + destination;
        Instruction entrypoint = dockerfile.runtime().last("ENTRYPOINT").orElseThrow();
        // Exec form: java is PID 1 and receives SIGTERM itself.
        assertThat(entrypoint.execForm()).isTrue();
        assertThat(entrypoint.arguments()).containsExactly("java", "-jar", jarInImage);
    }

    @ParameterizedTest
    @MethodSource("apps")
    void jvmHeapFollowsTheContainersMemoryLimit(App app) {
        List<Instruction> env = Dockerfile.read(app.dockerfile()).runtime().all("ENV");
        assertThat(env).anySatisfy(e -> assertThat(e.raw()).startsWith("JAVA_TOOL_OPTIONS=").contains("-XX:MaxRAMPercentage="));
        assertThat((String) chartValue(app.valuesKey(), "jvmOptions")).contains("-XX:MaxRAMPercentage=");
    }

    @ParameterizedTest
    @MethodSource("apps")
    void buildStageCopiesEveryModulePomAndTheModulesMainSourcesFromTheContext(App app) throws IOException {
        Stage build = buildStage(Dockerfile.read(app.dockerfile()));
        DockerIgnore ignore = DockerIgnore.read(Repository.path(".dockerignore"));
        Set<String> copied = new TreeSet<>();
        for (Instruction copy : build.all("COPY")) {
            List<String> sources = copy.arguments().subList(0, copy.arguments().size() - 1);
            for (String source : sources) {
                assertThat(Repository.path(source)).as("COPY source %s", source).exists();
                assertThat(ignore.excludes(source)).as("%s is left out of the context by .dockerignore", source).isFalse();
                copied.add(source.replaceAll("/+$", ""));
            }
        }
        // Maven reads every module the parent pom lists, even with -pl.
        for (String module : parentModules()) {
            assertThat(copied).as("poms copied into the build stage").contains(module + "/pom.xml");
        }
        assertThat(copied).contains("pom.xml", app.module() + "/src/main");
    }

    @ParameterizedTest
    @MethodSource("apps")
    void runtimeFilesCopiedFromTheContextAreInIt(App app) {
        DockerIgnore ignore = DockerIgnore.read(Repository.path(".dockerignore"));
        for (Instruction copy : Dockerfile.read(app.dockerfile()).runtime().all("COPY")) {
            if (copy.flag("from").isEmpty()) {
                String source = copy.arguments().get(0);
                assertThat(Repository.path(source)).exists();
                assertThat(ignore.excludes(source)).as("%s excluded by .dockerignore", source).isFalse();
            }
        }
    }

    @Test
    void brokerExposesItsKafkaListenerAndActuatorPorts() {
        Map<String, Object> jar = yaml("broker-service/src/main/resources/application.yml");
        Map<String, Object> container = yaml("broker-service/docker/application.yml");
        int kafkaPort = listenerPort((String) value(container, "broker", "listeners"));
        assertThat(kafkaPort).as("the image listens where the jar does").isEqualTo(listenerPort((String) value(jar, "broker", "listeners")));
        int httpPort = (Integer) value(jar, "server", "port");
        assertThat(exposed(Repository.path("broker-service/Dockerfile"))).containsExactlyInAnyOrder(kafkaPort, httpPort);
        assertThat(List.of(kafkaPort, httpPort)).containsExactly(
            (Integer) chartValue("broker", "containerPorts", "kafka"), (Integer) chartValue("broker", "containerPorts", "http"));
    }

    @Test
    void restProxyExposesItsHttpPort() {
        int httpPort = (Integer) value(yaml("rest-proxy/src/main/resources/application.yml"), "server", "port");
        assertThat(exposed(Repository.path("rest-proxy/Dockerfile"))).containsExactly(httpPort);
        assertThat(chartValue("restProxy", "containerPort")).isEqualTo(httpPort);
    }

    @Test
    void adminUiExposesItsHttpPortAndHasNoVolume() {
        int httpPort = (Integer) value(yaml("admin-ui/src/main/resources/application.yml"), "server", "port");
        assertThat(exposed(Repository.path("admin-ui/Dockerfile"))).containsExactly(httpPort);
        assertThat(chartValue("adminUi", "containerPort")).isEqualTo(httpPort);
        assertThat(Dockerfile.read(Repository.path("admin-ui/Dockerfile")).runtime().all("VOLUME")).isEmpty();
    }

    @Test
    void brokerDataDirIsAVolumeWhereTheImageTellsTheBrokerToWriteAndTheChartMountsTheClaim() {
        Stage runtime = Dockerfile.read(Repository.path("broker-service/Dockerfile")).runtime();
        List<String> volumes = runtime.all("VOLUME").stream().flatMap(v -> v.arguments().stream()).toList();
        String dataDir = (String) value(yaml("broker-service/docker/application.yml"), "broker", "data-dir");
        assertThat(volumes).containsExactly(dataDir);
        assertThat(runtime.all("RUN")).anySatisfy(run -> assertThat(run.raw()).contains("chown").contains(dataDir));
        assertThat(chartValue("broker", "persistence", "mountPath")).isEqualTo(dataDir);
        // The container defaults are read from config/ under the working directory.
        assertThat(runtime.all("COPY")).anySatisfy(c -> assertThat(c.arguments())
            .containsExactly("broker-service/docker/application.yml", "config/application.yml"));
        assertThat(runtime.last("WORKDIR").orElseThrow().arguments()).containsExactly("/app");
    }

    @Test
    void restProxyHasNoVolume() {
        assertThat(Dockerfile.read(Repository.path("rest-proxy/Dockerfile")).runtime().all("VOLUME")).isEmpty();
    }

    @Test
    void parserReadsContinuationsFlagsStagesAndExecForm() {
        Dockerfile dockerfile = Dockerfile.parse("""
            # syntax=docker/dockerfile:1
            ARG BASE=eclipse-temurin:17-jre
            FROM maven:3.9 AS build
            RUN a \\
                # a comment inside
                && b
            FROM ${BASE}
            COPY --from=build --chown=1:1 /x/*.jar app.jar
            EXPOSE 1 2/tcp
            ENTRYPOINT ["java", "-jar", "app.jar"]
            """);
        assertThat(dockerfile.stages()).extracting(Stage::name).containsExactly("build", null);
        assertThat(dockerfile.stage("build").all("RUN").get(0).raw()).isEqualTo("a && b");
        Instruction copy = dockerfile.runtime().all("COPY").get(0);
        assertThat(copy.flag("from")).contains("build");
        assertThat(copy.flag("chown")).contains("1:1");
        assertThat(copy.arguments()).containsExactly("/x/*.jar", "app.jar");
        assertThat(dockerfile.runtime().last("ENTRYPOINT").orElseThrow().arguments()).containsExactly("java", "-jar", "app.jar");
        assertThat(dockerfile.runtime().last("ENTRYPOINT").orElseThrow().execForm()).isTrue();
    }

    @Test
    void dockerIgnoreKeepsOnlyWhatTheBuildsNeed() {
        DockerIgnore ignore = DockerIgnore.read(Repository.path(".dockerignore"));
        assertThat(ignore.excludes("broker-service/target/broker-service-0.1.0-SNAPSHOT.jar")).isTrue();
        assertThat(ignore.excludes("broker-service/src/test/resources/data/apache_access.log")).isTrue();
        assertThat(ignore.excludes("data/kafka-logs")).isTrue();
        assertThat(ignore.excludes("broker-service/src/main/java/io/tributary/broker/BrokerServer.java")).isFalse();
        assertThat(ignore.excludes("rest-proxy/pom.xml")).isFalse();
    }

    private static Stage buildStage(Dockerfile dockerfile) {
        Stage build = dockerfile.stages().get(0);
        assertThat(build.name()).as("the build stage is named, for COPY --from").isNotBlank();
        return build;
    }

    /** Files under the repository matching a glob relative to its root. */
    private static List<Path> matches(String glob) throws IOException {
        Path root = Repository.root();
        Path directory = root.resolve(glob.substring(0, glob.lastIndexOf('/')));
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        var matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> matcher.matches(root.relativize(f))).toList();
        }
    }

    private static Set<Integer> exposed(Path dockerfile) {
        Set<Integer> ports = new TreeSet<>();
        for (Instruction expose : Dockerfile.read(dockerfile).runtime().all("EXPOSE")) {
            expose.arguments().forEach(p -> ports.add(Integer.parseInt(p.replace("/tcp", ""))));
        }
        return ports;
    }

    private static int listenerPort(String listeners) {
        Matcher port = Pattern.compile(":(\\d+)$").matcher(listeners.split(",")[0].strip());
        assertThat(port.find()).as("port in %s", listeners).isTrue();
        return Integer.parseInt(port.group(1));
    }

    private static List<String> parentModules() throws IOException {
        String pom = Files.readString(Repository.path("pom.xml"));
        String modules = pom.substring(pom.indexOf("<modules>"), pom.indexOf("</modules>"));
        List<String> names = new ArrayList<>();
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(modules);
        while (module.find()) {
            names.add(module.group(1).strip());
        }
        assertThat(names).contains("broker-service", "rest-proxy", "admin-ui");
        return names;
    }

    private static Map<String, Object> yaml(String relative) {
        try {
            return new Yaml().load(Files.readString(Repository.path(relative)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object value(Map<String, Object> yaml, String... keys) {
        Object node = yaml;
        for (String key : keys) {
            assertThat(node).as("%s in YAML", String.join(".", keys)).isInstanceOf(Map.class);
            node = ((Map<String, Object>) node).get(key);
        }
        assertThat(node).as(String.join(".", keys)).isNotNull();
        return node;
    }

    private static Object chartValue(String... keys) {
        return value(HelmChart.defaultValues(), keys);
    }
}
