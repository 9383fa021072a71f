package io.tributary.deploy.bin;

import io.tributary.deploy.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the repository's {@code bin/} scripts as a user would, from a directory of the test's
 * (the scripts must not depend on the caller's directory), with stdout and stderr kept apart in
 * files, so a test can tell a tool's output from its diagnostics.
 */
final class BinScript {

    /** What a finished script printed, and its exit code. */
    record Result(int exitCode, String stdout, String stderr) {

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }


    private BinScript() {
    }

    /** {@code bin/<name>} of this repository. */
    static Path path(String name) {
        return Repository.path("bin/" + name);
    }

    /**
     * Runs {@code bin/<name> args} to its end (at most 120 s) in {@code dir}, {@code stdin} (or nothing)
     * on its input, {@code env} added to this JVM's environment.
     */
    static Result run(Path dir, Map<String, String> env, String stdin, String name, String... args) {
        try {
            Process process = start(dir, env, name, args);
            try (var input = process.getOutputStream()) {
                if (stdin != null) {
                    input.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("bin/" + name + " " + String.join(" ", args) + " did not finish in 120 s");
            }
            return new Result(process.exitValue(), stdout(dir, name), stderr(dir, name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts {@code bin/<name> args} in {@code dir}, its stdout and stderr going to
     * {@code <dir>/<name>.out} and {@code <dir>/<name>.err} (read them with {@link #stdout}, {@link #stderr}).
     */
    static Process start(Path dir, Map<String, String> env, String name, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(path(name).toString());
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    static String stdout(Path dir, String name) {
        return read(dir.resolve(name + ".out"));
    }

    static String stderr(Path dir, String name) {
        return read(dir.resolve(name + ".err"));
    }

    /** The build's options for short-lived JVMs ({@code test.jvm.flags}), for the scripts' JAVA_OPTS. */
    static String jvmFlags() {
        return System.getProperty("test.jvm.flags", "").trim();
    }


    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
