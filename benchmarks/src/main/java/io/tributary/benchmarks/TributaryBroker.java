package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Tributary's broker from its executable jar, with its embedded ZooKeeper and its data in a temp
 * directory. The jar is copied there first, so a rebuild during the benchmark cannot change it under
 * the running broker.
 */
final class TributaryBroker extends BrokerUnderTest {

    private final JavaLauncher launcher;
    private final Path jar;
    private final String heap;

    TributaryBroker(Path dir, JavaLauncher launcher, Path jar, String heap) throws IOException {
        super("tributary", dir);
        this.launcher = launcher;
        this.jar = jar;
        this.heap = heap;
    }

    /** Fails with a message saying how to build the jar if it is missing. */
    static void requireJar(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Tributary's broker jar is missing: " + jar
                    + "\nBuild it first in the repository root: mvn -B -q package -DskipTests");
        }
    }

    @Override
    protected Process launch() throws IOException {
        Path copy = Files.copy(jar, dir.resolve("tributary-broker.jar"));
        List<String> args = List.of("--broker.data-dir=" + dir.resolve("data"), "--server.port=0",
                "--broker.listeners=PLAINTEXT://127.0.0.1:" + port, "--broker.embedded-zookeeper-port=0",
                // As the Kafka broker of this benchmark: a new group's first rebalance does not wait.
                "--broker.group-initial-rebalance-delay-ms=0");
        return JavaLauncher.start(launcher.jar(jvmOptions(heap), copy, args), dir, logFile);
    }
}
