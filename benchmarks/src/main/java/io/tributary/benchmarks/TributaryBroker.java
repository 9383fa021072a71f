package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tributary's broker from its executable jar, with its embedded ZooKeeper and its data in a temp
 * directory. The jar is copied there first, so a rebuild during the benchmark cannot change it under
 * the running broker. With a SASL_SSL client listener, the SCRAM user comes from
 * {@code --broker.bootstrap-scram-users} and the inter-broker listener stays in plaintext.
 *
 * <p>Further Spring properties ({@code broker.quota-window-num=2}...) can be given; each is passed
 * as a {@code --name=value} argument.
 */
final class TributaryBroker extends BrokerUnderTest {

    private final JavaLauncher launcher;
    private final Path jar;
    private final String heap;
    private final int internalPort = freePort();

    /**
     * Arguments before the benchmark's own: {@code --broker.id}, the ZooKeeper to use or to embed, and
     * any further settings the benchmark was given.
     */
    private final List<String> clusterArgs;
    /** Whether {@link #jar} is copied into the broker's directory and run from there, or run where it is. */
    private final boolean copyJar;
    /** JVM options after those both brokers get (class data sharing). */
    private final List<String> extraJvmOptions;

    TributaryBroker(Path dir, JavaLauncher launcher, Path jar, String heap, BenchmarkSecurity security)
            throws IOException {
        this("tributary", dir, launcher, jar, heap, security);
    }

    /** @param name how the report names it ("baseline" for an earlier build) */
    TributaryBroker(String name, Path dir, JavaLauncher launcher, Path jar, String heap, BenchmarkSecurity security)
            throws IOException {
        this(name, dir, launcher, jar, heap, security, Map.of());
    }

    /**
     * @param settings further Spring properties, e.g. {@code broker.quota-window-num}, not one the
     *                 benchmark already passes (a property given twice on the command line is a list)
     */
    TributaryBroker(String name, Path dir, JavaLauncher launcher, Path jar, String heap, BenchmarkSecurity security,
                    Map<String, String> settings) throws IOException {
        this(name, dir, launcher, jar, heap, security, withSettings(List.of("--broker.embedded-zookeeper-port=0"),
                settings));
    }

    /** {@code args} followed by {@code --name=value} for each of {@code settings}, in name order. */
    private static List<String> withSettings(List<String> args, Map<String, String> settings) {
        List<String> all = new ArrayList<>(args);
        new java.util.TreeMap<>(settings).forEach((name, value) -> all.add("--" + name + "=" + value));
        return all;
    }

    private TributaryBroker(String name, Path dir, JavaLauncher launcher, Path jar, String heap,
                            BenchmarkSecurity security, List<String> clusterArgs) throws IOException {
        this(name, dir, launcher, jar, true, List.of(), heap, security, clusterArgs);
    }

    private TributaryBroker(String name, Path dir, JavaLauncher launcher, Path jar, boolean copyJar,
                            List<String> extraJvmOptions, String heap, BenchmarkSecurity security,
                            List<String> clusterArgs) throws IOException {
        super(name, dir, security);
        this.launcher = launcher;
        this.jar = jar;
        this.copyJar = copyJar;
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
        this.heap = heap;
        this.clusterArgs = List.copyOf(clusterArgs);
    }

    /**
     * A single node run from a jar extracted with Spring Boot's {@code -Djarmode=tools extract} (its
     * libraries beside it, so it runs where it is, not copied), with {@code extraJvmOptions} after
     * the common ones: {@code -XX:SharedArchiveFile=...} for a class data sharing archive, or
     * {@code -XX:ArchiveClassesAtExit=...} for the training run that writes it.
     */
    static TributaryBroker extracted(String name, Path dir, JavaLauncher launcher, Path extractedJar,
                                     List<String> extraJvmOptions, String heap, BenchmarkSecurity security)
            throws IOException {
        return new TributaryBroker(name, dir, launcher, extractedJar, false, extraJvmOptions, heap, security,
                List.of("--broker.embedded-zookeeper-port=0"));
    }

    /**
     * Broker {@code brokerId} of a cluster on one ZooKeeper: broker 0 embeds it on {@code zooKeeperPort},
     * the others connect to it (start broker 0 first). Clients as {@code security} says; with SASL_SSL,
     * every broker creates the SCRAM user if absent (the first write wins) and the brokers replicate
     * over the plaintext INTERNAL listener.
     */
    static TributaryBroker ofCluster(String name, Path dir, JavaLauncher launcher, Path jar, String heap,
                                     BenchmarkSecurity security, int brokerId, int zooKeeperPort) throws IOException {
        return new TributaryBroker(name, dir, launcher, jar, heap, security, List.of("--broker.id=" + brokerId,
                brokerId == 0 ? "--broker.embedded-zookeeper-port=" + zooKeeperPort
                        : "--broker.zookeeper-connect=127.0.0.1:" + zooKeeperPort));
    }

    /** Fails with a message saying how to build the jar if it is missing. */
    static void requireJar(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Tributary's broker jar is missing: " + jar
                    + "\nBuild it first in the repository root: mvn -B -q package -DskipTests");
        }
    }

    /** Copies the jar into the broker's directory (unless it runs where it is). */
    @Override
    protected void prepareLaunch() throws IOException {
        if (copyJar) {
            Files.copy(jar, runJar());
        }
    }

    private Path runJar() {
        return copyJar ? dir.resolve("tributary-broker.jar") : jar;
    }

    @Override
    protected Process launch() throws IOException {
        List<String> args = new ArrayList<>(clusterArgs);
        args.addAll(List.of("--broker.data-dir=" + dir.resolve("data"), "--server.port=0",
                // As the Kafka broker of this benchmark: a new group's first rebalance does not wait.
                "--broker.group-initial-rebalance-delay-ms=0"));
        if (security.secured()) {
            args.addAll(securedListeners());
        } else {
            args.add("--broker.listeners=PLAINTEXT://127.0.0.1:" + port);
        }
        List<String> jvm = new ArrayList<>(jvmOptions(heap));
        jvm.addAll(extraJvmOptions);
        return JavaLauncher.start(launcher.jar(jvm, runJar(), args), dir, logFile);
    }

    /** Clients on SASL_SSL at {@link #port}, INTERNAL (inter-broker) in plaintext. */
    private List<String> securedListeners() {
        TlsStores stores = security.stores();
        return List.of("--broker.listeners=SASL_SSL://127.0.0.1:" + port + ",INTERNAL://127.0.0.1:" + internalPort,
                "--broker.listener-security-protocol-map=SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT",
                "--broker.inter-broker-listener-name=INTERNAL",
                "--broker.sasl-enabled-mechanisms=" + BenchmarkSecurity.MECHANISM,
                "--broker.bootstrap-scram-users=" + security.scramUser(),
                "--broker.ssl-keystore-type=PKCS12",
                "--broker.ssl-keystore-location=" + stores.keyStore(),
                "--broker.ssl-keystore-password=" + stores.password(),
                "--broker.ssl-key-password=" + stores.password());
    }
}
