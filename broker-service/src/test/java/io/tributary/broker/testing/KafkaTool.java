package io.tributary.broker.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of Kafka's command-line tools ({@code org.apache.kafka:kafka-tools}, on the test
 * classpath) in its own JVM, as the shell scripts run them.
 */
public final class KafkaTool {

    /** What a tool printed (stdout and stderr together) and its exit code. */
    public record Result(int exitCode, String output) {
    }

    private KafkaTool() {
    }

    /**
     * @param input     text for the tool's stdin, or null for none
     * @param mainClass the tool, e.g. {@code org.apache.kafka.tools.TopicCommand}
     * @throws IllegalStateException when the tool does not exit within 60 s
     */
    public static Result run(String input, String mainClass, String... args) throws IOException, InterruptedException {
        return runWithClasspath("", input, mainClass, args);
    }

    /**
     * Runs a tool that needs Kafka's broker jars (kafka-configs' {@code ConfigCommand}, kafka-acls'
     * {@code AclCommand}) on the classpath the {@code kafka-tools-runtime} module resolved, alone:
     * those jars never join this build's test classpath.
     *
     * @throws IllegalStateException when that module has not been built, or the tool does not exit within 60 s
     */
    public static Result runWithKafkaToolsClasspath(String mainClass, String... args)
            throws IOException, InterruptedException {
        String file = System.getProperty("kafka.tools.classpath.file",
            "../kafka-tools-runtime/target/classpath.txt");
        Path path = Path.of(file);
        if (!java.nio.file.Files.isReadable(path)) {
            throw new IllegalStateException(path + " is missing: build the kafka-tools-runtime module first"
                + " (mvn -o -q generate-resources -pl kafka-tools-runtime)");
        }
        String classpath = java.nio.file.Files.readString(path, StandardCharsets.UTF_8).strip();
        return exec(classpath, null, mainClass, args);
    }

    /**
     * {@link #runWithKafkaToolsClasspath} of a tool that talks to brokers: {@code --bootstrap-server
     * bootstrapServers}, then {@code args}.
     */
    public static Result runAgainst(String bootstrapServers, String mainClass, String... args)
            throws IOException, InterruptedException {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = bootstrapServers;
        System.arraycopy(args, 0, all, 2, args.length);
        return runWithKafkaToolsClasspath(mainClass, all);
    }

    /**
     * Runs a tool with more jars than the test classpath has (a tool that needs Kafka's broker
     * jars, which stay out of this build).
     *
     * @param extraClasspath entries appended to the test classpath, separated by the path separator; may be empty
     * @throws IllegalStateException when the tool does not exit within 60 s
     */
    public static Result runWithClasspath(String extraClasspath, String input, String mainClass, String... args)
        throws IOException, InterruptedException {
        String classpath = System.getProperty("java.class.path")
            + (extraClasspath.isEmpty() ? "" : java.io.File.pathSeparator + extraClasspath);
        return exec(classpath, input, mainClass, args);
    }

    private static Result exec(String classpath, String input, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(TestJvm.javaCommand());
        command.addAll(List.of("-Xmx256m", "-cp", classpath, mainClass));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (input != null) {
            process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(mainClass + " did not finish: " + output);
        }
        return new Result(process.exitValue(), output);
    }
}
