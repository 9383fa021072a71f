package io.tributary.broker.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A consumer application in its own JVM ({@link ConsumerProcessMain}), so a test can kill it
 * with SIGKILL like a crashed process. Every value it prints is collected.
 */
public final class ConsumerProcess implements AutoCloseable {

    private final Process process;
    private final List<String> values = new CopyOnWriteArrayList<>();
    private volatile boolean holding;
    private final Thread reader;

    private ConsumerProcess(Process process) {
        this.process = process;
        this.reader = new Thread(this::read, "consumer-process-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts a classic member of {@code group} reading {@code topic}; its log output goes to {@code logFile}. */
    public static ConsumerProcess start(String bootstrap, String group, String topic, int sessionTimeoutMs, Path logFile)
            throws IOException {
        return start(bootstrap, group, topic, sessionTimeoutMs, "classic", logFile);
    }

    /**
     * Starts a member of {@code group} with {@code group.protocol} {@code protocol} ({@code classic}
     * or {@code consumer}, KIP-848, whose session timeout the broker sets), or a share-group member
     * that holds the records of its first poll ({@code share-hold}, see {@link ConsumerProcessMain}).
     */
    public static ConsumerProcess start(String bootstrap, String group, String topic, int sessionTimeoutMs,
                                        String protocol, Path logFile) throws IOException {
        List<String> command = new ArrayList<>(TestJvm.javaCommand());
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"),
            ConsumerProcessMain.class.getName(), bootstrap, group, topic, String.valueOf(sessionTimeoutMs), protocol));
        return new ConsumerProcess(new ProcessBuilder(command).redirectError(logFile.toFile()).start());
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(ConsumerProcessMain.VALUE_PREFIX)) {
                    values.add(line.substring(ConsumerProcessMain.VALUE_PREFIX.length()));
                } else if (line.equals(ConsumerProcessMain.HELD_MARK)) {
                    holding = true;
                }
            }
        } catch (IOException e) {
            // the process died
        }
    }

    /** The values printed so far. */
    public List<String> values() {
        return List.copyOf(values);
    }

    /** Whether a {@code share-hold} member has printed its records and now holds them unacknowledged. */
    public boolean holding() {
        return holding;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no LeaveGroup, no last commit. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        reader.join(10_000);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
