package io.tributary.faults.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A packaged Spring Boot jar run as a process of its own on loopback ({@code java -jar}), its output in a log file.
 * Needs no root: the fuzzers' targets listen on free loopback ports. Not thread-safe.
 */
public final class JarProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path logFile;

    private JarProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code java <jvmFlags> -jar <jar> <arguments>}, output to {@code logFile}.
     *
     * @throws IllegalStateException when the jar is missing (package its module first)
     */
    public static JarProcess start(String name, Path jar, List<String> jvmFlags, List<String> arguments, Path logFile) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no jar at " + jar.toAbsolutePath()
                    + ": package it first (mvn -B -q package -pl broker-service,rest-proxy -am -DskipTests)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(arguments);
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            return new JarProcess(name, p, logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** The JVM flags of the test JVM ({@code test.jvm.flags}, from the parent pom), split on blanks. */
    public static List<String> testJvmFlags() {
        String flags = System.getProperty("test.jvm.flags", "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    /** A loopback port free at the time of the call. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the log contains {@code text}, polling every 100 ms.
     *
     * @throws IllegalStateException when the process exits first or {@code timeout} passes, with the log's tail
     */
    public void awaitLog(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(text)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before logging '"
                        + text + "':\n" + tail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not log '" + text + "' within " + timeout + ":\n" + tail(40));
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** The output so far. */
    public String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The output's lines so far. */
    public List<String> logLines() {
        try (Stream<String> lines = Files.lines(logFile, StandardCharsets.UTF_8)) {
            return lines.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last {@code lines} lines of the output. */
    public String tail(int lines) {
        List<String> all = log().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /** SIGTERM, then SIGKILL if it has not exited within 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
