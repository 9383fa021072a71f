package io.tributary.faults.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A ZooKeeper ensemble of real {@code QuorumPeerMain} processes, one per node namespace, on the standard ports (2181
 * clients, 2888 quorum, 3888 election: each node has its own network stack). The servers run from {@code classpath},
 * which must hold the {@code org.apache.zookeeper} server classes (the test classpath, with the parent pom's pinned
 * version). Short timers: tick {@value #TICK_TIME_MS} ms, so sessions of 1 to 20 ticks.
 *
 * <p>Readiness and roles come from the {@code srvr} four-letter command, over the host's veth. Not thread-safe.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

    public static final int CLIENT_PORT = 2181;
    static final int TICK_TIME_MS = 200;

    private final Map<Integer, NetworkNode> nodes = new LinkedHashMap<>();
    private final Map<Integer, NodeProcess> servers = new LinkedHashMap<>();

    private ZooKeeperEnsemble() {
    }

    /**
     * Writes each server's {@code zoo.cfg} and {@code myid} under {@code workDir/zk-<id>} and starts them; server ids
     * are 1.. in the order of {@code nodes}. Does not wait: see {@link #awaitQuorum(Duration)}.
     */
    public static ZooKeeperEnsemble start(Network network, List<NetworkNode> nodes, Path workDir, String classpath,
                                          CommandRunner runner) {
        ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble();
        for (int i = 0; i < nodes.size(); i++) {
            ensemble.nodes.put(i + 1, nodes.get(i));
        }
        try {
            for (var entry : ensemble.nodes.entrySet()) {
                int id = entry.getKey();
                Path dir = workDir.resolve("zk-" + id);
                Files.createDirectories(dir.resolve("data"));
                Files.writeString(dir.resolve("data").resolve("myid"), Integer.toString(id));
                Files.writeString(dir.resolve("zoo.cfg"), config(ensemble.nodes, dir.resolve("data").toAbsolutePath()));
                ensemble.servers.put(id, NodeProcess.start(network, entry.getValue(), "zk-" + id,
                        NodeProcess.javaCommand("-Xmx128m", "-Dzookeeper.admin.enableServer=false", "-cp", classpath,
                                "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                                dir.resolve("zoo.cfg").toAbsolutePath().toString()),
                        workDir, runner));
            }
        } catch (IOException e) {
            ensemble.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            ensemble.close();
            throw e;
        }
        return ensemble;
    }

    /** The {@code zoo.cfg} of a server of this ensemble whose data lives in {@code dataDir}. */
    static String config(Map<Integer, NetworkNode> nodes, Path dataDir) {
        StringBuilder config = new StringBuilder();
        config.append("tickTime=").append(TICK_TIME_MS).append('\n')
                .append("initLimit=25\nsyncLimit=10\n")
                .append("dataDir=").append(dataDir).append('\n')
                .append("clientPort=").append(CLIENT_PORT).append('\n')
                .append("maxClientCnxns=0\n4lw.commands.whitelist=srvr,ruok,stat\n")
                .append("admin.enableServer=false\nquorumListenOnAllIPs=true\n")
                .append("autopurge.purgeInterval=0\n");
        nodes.forEach((id, node) -> config.append("server.").append(id).append('=').append(node.address())
                .append(":2888:3888\n"));
        return config.toString();
    }

    /** The connect string of every server. */
    public String connectString() {
        return nodes.values().stream().map(n -> n.address() + ":" + CLIENT_PORT).collect(Collectors.joining(","));
    }

    /**
     * Waits until every running server serves requests as leader or follower.
     *
     * @throws IllegalStateException after {@code timeout}, with each server's state
     */
    public void awaitQuorum(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<Integer, String> modes = new LinkedHashMap<>();
            servers.forEach((id, server) -> {
                if (server.isAlive()) {
                    modes.put(id, mode(id).orElse("not serving"));
                }
            });
            if (modes.values().stream().allMatch(m -> m.equals("leader") || m.equals("follower"))
                    && modes.containsValue("leader")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("ZooKeeper ensemble has no quorum after " + timeout + ": " + modes);
            }
            sleep(200);
        }
    }

    /** The id of the server that is leader, if one answers so. */
    public Optional<Integer> leader() {
        return servers.keySet().stream().filter(id -> mode(id).filter("leader"::equals).isPresent()).findFirst();
    }

    /** What server {@code id} answers to {@code srvr}: "leader", "follower", "standalone", or empty if not serving. */
    public Optional<String> mode(int id) {
        NetworkNode node = nodes.get(id);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(node.address(), CLIENT_PORT), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            for (String line : answer.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return Optional.of(line.substring(6).strip());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public NodeProcess server(int id) {
        return servers.get(id);
    }

    public List<Integer> ids() {
        return new ArrayList<>(servers.keySet());
    }

    public NetworkNode node(int id) {
        return nodes.get(id);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Kills every server. */
    @Override
    public void close() {
        servers.values().forEach(NodeProcess::close);
    }
}
