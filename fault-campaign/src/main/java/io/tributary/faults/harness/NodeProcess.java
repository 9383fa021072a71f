package io.tributary.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process run inside a node's network namespace with {@code ip netns exec}, which execs the command, so
 * {@link #pid()} is the command's own pid and signals reach it directly. Each start writes its output to a log file
 * of its own ({@code <name>-<start>.log}); {@link #restart()} starts the same command again.
 *
 * <p>Not thread-safe: one nemesis or test thread drives a process at a time.
 */
public final class NodeProcess implements AutoCloseable {

    private final String name;
    private final List<String> command;
    private final Path logDir;
    private final CommandRunner runner;
    private Process process;
    private Path logFile;
    private int starts;

    private NodeProcess(String name, List<String> command, Path logDir, CommandRunner runner) {
        this.name = name;
        this.command = List.copyOf(command);
        this.logDir = logDir;
        this.runner = runner;
    }

    /** Starts {@code command} in {@code node}'s namespace without waiting for it; output goes under {@code logDir}. */
    public static NodeProcess start(Network network, NetworkNode node, String name, List<String> command,
                                    Path logDir, CommandRunner runner) {
        NodeProcess process = new NodeProcess(name, network.inNamespace(node, command), logDir, runner);
        process.launch();
        return process;
    }

    private void launch() {
        try {
            Files.createDirectories(logDir);
            logFile = logDir.resolve(name + "-" + (++starts) + ".log");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + String.join(" ", command), e);
        }
    }

    /** SIGKILL, then waits for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + pid() + ") is alive 30 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Graceful stop: SIGTERM (a broker then does its controlled shutdown), then waits up to {@code timeout} for the
     * process to exit; if it is still alive then, logs that on standard error and falls back to {@link #kill()}.
     * Does nothing if the process has already exited.
     *
     * @return true if the process exited on SIGTERM within {@code timeout}, false if it had to be SIGKILLed
     */
    public boolean terminate(Duration timeout) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + name + " to exit", e);
        }
        System.err.println(name + " (pid " + pid() + ") is alive " + timeout + " after SIGTERM: falling back to SIGKILL");
        kill();
        return false;
    }

    /** SIGSTOP: the process is paused, its sockets stay open. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        runner.run(List.of("kill", "-s", signal, Long.toString(pid())));
    }

    /** Starts the same command again after {@link #terminate(Duration)} or {@link #kill()}, logging to a new file. */
    public void startAgain() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " (pid " + pid() + ") still runs");
        }
        launch();
    }

    /** Kills the process if it is alive and starts the same command again, logging to a new file. */
    public void restart() {
        if (process.isAlive()) {
            resume();
            kill();
        }
        launch();
    }

    /**
     * Waits until this start's log contains {@code text}.
     *
     * @throws IllegalStateException when the process exits first or {@code timeout} passes, with the log
     */
    public void awaitLog(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(text)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before logging '"
                        + text + "':\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not log '" + text + "' within " + timeout + ":\n" + tail());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + name, e);
            }
        }
    }

    /** This start's output so far. */
    public String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String tail() {
        String log = log();
        return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    /** The java command of the running JVM with the test JVMs' flags ({@code test.jvm.flags}) and {@code more}. */
    public static List<String> javaCommand(String... more) {
        List<String> java = new ArrayList<>();
        java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String flags = System.getProperty("test.jvm.flags", "");
        for (String flag : flags.trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                java.add(flag);
            }
        }
        java.addAll(List.of(more));
        return java;
    }

    /** SIGCONT (a paused process cannot die) and SIGKILL. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            try {
                resume();
            } catch (RuntimeException e) {
                // exited meanwhile
            }
            kill();
        }
    }
}
