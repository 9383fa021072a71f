package io.tributary.deploy.bin;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.Repository;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code bin/kafka-*} wrappers, without running them: each hands its arguments to
 * {@code bin/kafka-run-class} with the main class of one of Kafka's tools, and that class is on the
 * classpath the kafka-tools-runtime module resolved, so a Kafka upgrade that moves a tool fails here.
 */
class KafkaToolScriptsTest {

    private static final Pattern RUN_CLASS =
        Pattern.compile("^exec \"\\$\\(dirname \"\\$\\(readlink -f \"\\$0\"\\)\"\\)/kafka-run-class\" ([\\w.$]+) \"\\$@\"$",
            Pattern.MULTILINE);

    static Stream<Path> wrappers() throws IOException {
        try (Stream<Path> files = Files.list(Repository.path("bin"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("kafka-"))
                .filter(f -> !f.getFileName().toString().equals("kafka-run-class")).sorted().toList().stream();
        }
    }

    @Test
    void theToolsTheReadmeAndKafkaUsersReachForAreThere() throws IOException {
        List<String> names = wrappers().map(f -> f.getFileName().toString()).toList();
        assertThat(names).contains("kafka-topics", "kafka-console-producer", "kafka-console-consumer",
            "kafka-consumer-groups", "kafka-configs", "kafka-acls", "kafka-share-groups", "kafka-console-share-consumer",
            "kafka-groups", "kafka-features", "kafka-producer-perf-test", "kafka-consumer-perf-test",
            "kafka-reassign-partitions", "kafka-leader-election", "kafka-transactions", "kafka-get-offsets",
            "kafka-delete-records", "kafka-log-dirs", "kafka-broker-api-versions");
    }

    @ParameterizedTest
    @MethodSource("wrappers")
    void runsTheMainClassOfAKafkaToolOnTheToolsClasspath(Path wrapper) throws Exception {
        assertThat(Files.isExecutable(wrapper)).as("%s is executable", wrapper).isTrue();
        Matcher matcher = RUN_CLASS.matcher(Files.readString(wrapper, StandardCharsets.UTF_8));
        assertThat(matcher.find()).as("%s execs bin/kafka-run-class with a class and its arguments", wrapper).isTrue();
        String mainClass = matcher.group(1);

        try (URLClassLoader tools = new URLClassLoader(toolsClasspath(), ClassLoader.getPlatformClassLoader())) {
            Class<?> tool = Class.forName(mainClass, false, tools);
            Method main = tool.getMethod("main", String[].class);
            assertThat(Modifier.isStatic(main.getModifiers())).as("%s.main is static", mainClass).isTrue();
        }
    }

    @Test
    void theSharedScriptRunsTheClassWithTheJdkAndOptionsOfKafkasEnvironmentVariables(@TempDir Path dir) throws Exception {
        String testClasses = Path.of(JvmProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        BinScript.Result result = BinScript.run(dir, Map.of("JAVA_HOME", System.getProperty("java.home"),
                "KAFKA_HEAP_OPTS", "-Xmx48m", "KAFKA_OPTS", "-Dtributary.probe=from-kafka-opts -Dsecond.option=too",
                "CLASSPATH", testClasses),
            null, "kafka-run-class", JvmProbe.class.getName(), "first arg", "second");

        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stdout().lines().toList()).containsExactly(
            "java.home=" + Path.of(System.getProperty("java.home")).toRealPath(),
            "tributary.probe=from-kafka-opts",
            "second.option=too",
            "max heap at most 48 MiB=true",
            "args=[first arg, second]");
    }

    private static URL[] toolsClasspath() throws IOException {
        Path file = Repository.path("kafka-tools-runtime/target/classpath.txt");
        assertThat(file).as("written by the kafka-tools-runtime module, built before this one").isRegularFile();
        String[] entries = Files.readString(file, StandardCharsets.UTF_8).strip().split(File.pathSeparator);
        return Arrays.stream(entries).map(entry -> {
            try {
                return Path.of(entry).toUri().toURL();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).toArray(URL[]::new);
    }
}
