package io.tributary.broker.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How tests start further JVMs (broker processes, Kafka's tools, keytool): the {@code java} of the
 * running JDK with the build's {@code test.jvm.flags} (the parent pom's C1-only, serial-collector
 * options for short-lived JVMs on small machines; none when the property is unset).
 */
public final class TestJvm {

    private TestJvm() {
    }

    /** The {@code java} launcher of the JDK running the tests. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java}, then the build's JVM flags: the start of a command line. */
    public static List<String> javaCommand() {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(flags());
        return command;
    }

    /** The build's JVM flags for started JVMs, in order. */
    public static List<String> flags() {
        String flags = System.getProperty("test.jvm.flags", "").trim();
        return flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    }

    /** The flags as a JDK tool ({@code keytool}) takes them: each behind {@code -J}. */
    public static List<String> toolFlags() {
        return flags().stream().map(f -> "-J" + f).toList();
    }

    /**
     * Starts {@code mainClass} of the test classpath in its own JVM with a heap of {@code heap}
     * (e.g. {@code 128m}), its stdout and stderr going to {@code output}; the caller stops it.
     */
    public static Process startMain(Class<?> mainClass, String heap, java.nio.file.Path output, String... args)
            throws java.io.IOException {
        List<String> command = javaCommand();
        command.addAll(List.of("-Xmx" + heap, "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }
}
