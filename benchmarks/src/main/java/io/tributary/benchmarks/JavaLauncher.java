package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts child JVMs: the same {@code java} as this one, with this JVM's class path (the benchmark
 * module's runtime class path: Apache Kafka's broker, its tools and log4j).
 */
final class JavaLauncher {

    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classPath = System.getProperty("java.class.path");
    private final Path log4jConfig;

    /** @param log4jConfig log4j2 configuration given to every child started with {@link #mainClass} */
    JavaLauncher(Path log4jConfig) {
        this.log4jConfig = log4jConfig;
    }

    /** A command running {@code mainClass} on the benchmark class path. */
    List<String> mainClass(List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>(List.of(java, "-Duser.language=en", "-Duser.country=US",
                "-Dlog4j2.configurationFile=" + log4jConfig));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        return command;
    }

    /** A command running an executable jar. */
    List<String> jar(List<String> jvmOptions, Path jar, List<String> args) {
        List<String> command = new ArrayList<>(List.of(java, "-Duser.language=en", "-Duser.country=US"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        return command;
    }

    /** Starts {@code command} in {@code dir}, its stdout and stderr appended to {@code output}. */
    static Process start(List<String> command, Path dir, Path output) throws IOException {
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
    }
}
