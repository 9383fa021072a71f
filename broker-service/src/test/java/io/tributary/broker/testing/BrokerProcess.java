package io.tributary.broker.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A broker in its own JVM (the main class on the test classpath), for tests that need a real
 * process: SIGKILL, startup from the command line. Output goes to a log file in the data dir.
 */
public final class BrokerProcess implements AutoCloseable {

    private final Process process;
    private final Path logFile;

    private BrokerProcess(Process process, Path logFile) {
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code io.tributary.broker.BrokerApplication} with the given arguments and waits until
     * it reports it started.
     *
     * @throws IllegalStateException when it exits or does not start within {@code timeout}
     */
    public static BrokerProcess start(Path workDir, String logName, List<String> args, Duration timeout)
            throws IOException, InterruptedException {
        BrokerProcess broker = launch(workDir, logName, args);
        broker.awaitStarted(timeout);
        return broker;
    }

    /**
     * The arguments of a single broker with its embedded ZooKeeper (short tick and session, for
     * restarts within seconds) on {@code 127.0.0.1:port}, data under {@code dataDir}, no HTTP port
     * of its own, followed by {@code more}.
     */
    public static List<String> singleNodeArgs(Path dataDir, int port, String... more) {
        List<String> args = new ArrayList<>(List.of("--broker.data-dir=" + dataDir,
            "--broker.listeners=PLAINTEXT://127.0.0.1:" + port, "--broker.embedded-zookeeper-port=0",
            "--broker.embedded-zookeeper-tick-time-ms=200", "--broker.zookeeper-session-timeout-ms=4000",
            "--server.port=0"));
        args.addAll(List.of(more));
        return List.copyOf(args);
    }

    /**
     * Starts {@code io.tributary.broker.BrokerApplication} with the given arguments without waiting
     * for it (several brokers start side by side; then {@link #awaitStarted} each).
     */
    public static BrokerProcess launch(Path workDir, String logName, List<String> args) throws IOException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve(logName);
        List<String> command = new ArrayList<>();
        command.addAll(TestJvm.javaCommand());
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.tributary.broker.BrokerApplication");
        command.addAll(args);
        Process process = new ProcessBuilder(command).directory(workDir.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new BrokerProcess(process, log);
    }

    /**
     * Waits until the broker reports it started.
     *
     * @throws IllegalStateException when it exits or does not start within {@code timeout}
     */
    public void awaitStarted(Duration timeout) throws IOException, InterruptedException {
        awaitLog("Started BrokerApplication", timeout);
    }

    /** Waits until the log contains {@code text}. */
    public void awaitLog(String text, Duration timeout) throws IOException, InterruptedException {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (log().contains(text)) {
                    return true;
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("Broker process exited with " + process.exitValue() + ":\n" + log());
                }
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("Broker did not log '" + text + "' within " + timeout + ":\n" + log());
        }
    }

    /** The process output so far. */
    public String log() throws IOException {
        return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
    }

    public long pid() {
        return process.pid();
    }

    /** Kills the process with SIGKILL and waits for it to die. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Stops the process with SIGTERM (graceful shutdown) and waits. */
    public int stop() throws InterruptedException {
        signalStop();
        return awaitExit();
    }

    /** Sends SIGTERM (graceful shutdown) without waiting: several brokers stop side by side. */
    public void signalStop() {
        process.destroy();
    }

    /** Waits up to a minute for the process to exit after {@link #signalStop}, then kills it; its exit code. */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
