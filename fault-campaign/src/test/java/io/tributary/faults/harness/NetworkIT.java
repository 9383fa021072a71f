package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The harness's network on the real kernel: three namespaces behind a bridge, a partition of n1 from {n2, n3}, heal,
 * and nothing left behind. Needs root and iproute2 (skipped otherwise).
 */
class NetworkIT {

    private static final int PORT = 7007;
    private final CommandRunner runner = CommandRunner.processes();
    private final List<NodeProcess> servers = new ArrayList<>();
    private Network network;

    @AfterEach
    void cleanUp() {
        servers.forEach(NodeProcess::close);
        if (network != null) {
            network.close();
        }
    }

    @Test
    void partitionCutsBothDirectionsBetweenTheGroupsOnlyAndHealRestoresIt() {
        HarnessAssumptions.assumeRootWithIproute2();
        Network.cleanupStale(runner, Network.PREFIX);
        RunId run = RunId.random();
        network = Network.create(runner, run.id(), run.subnet(), 3);
        NetworkNode n1 = network.node("n1");
        NetworkNode n2 = network.node("n2");
        NetworkNode n3 = network.node("n3");
        for (NetworkNode node : network.nodes()) {
            NodeProcess server = NodeProcess.start(network, node, "echo-" + node.name(), NodeProcess.javaCommand(
                    "-cp", System.getProperty("java.class.path"), TcpEcho.class.getName(), Integer.toString(PORT),
                    node.name()), Path.of("target", "network-it"), runner);
            servers.add(server);
        }
        servers.forEach(s -> s.awaitLog("listening", Duration.ofSeconds(30)));

        assertThat(fromHost(n1)).isEqualTo("hello from n1");
        assertThat(connects(n1, n2)).isTrue();
        assertThat(connects(n3, n1)).isTrue();

        network.partition(Set.of(n1), Set.of(n2, n3));
        assertThat(connects(n1, n2)).isFalse();
        assertThat(connects(n1, n3)).isFalse();
        assertThat(connects(n2, n1)).isFalse();
        assertThat(connects(n3, n1)).isFalse();
        assertThat(connects(n2, n3)).isTrue();
        assertThat(connects(n3, n2)).isTrue();
        assertThat(fromHost(n1)).isEqualTo("hello from n1");

        network.heal();
        assertThat(connects(n1, n2)).isTrue();
        assertThat(connects(n3, n1)).isTrue();

        String prefix = network.prefix();
        servers.forEach(NodeProcess::close);
        network.close();
        assertThat(runner.run(List.of("ip", "netns", "list"))).doesNotContain(prefix);
        assertThat(runner.run(List.of("ip", "-o", "link", "show"))).doesNotContain(network.hostInterface());
    }

    /** Whether a TCP connection from {@code from}'s namespace to {@code to}'s echo server gets its greeting. */
    private boolean connects(NetworkNode from, NetworkNode to) {
        try {
            String out = runner.run(network.inNamespace(from, List.of("timeout", "5", "bash", "-c",
                    "exec 3<>/dev/tcp/" + to.address() + "/" + PORT + " && head -n1 <&3")));
            return out.contains("hello from " + to.name());
        } catch (CommandRunner.CommandFailedException e) {
            return false;
        }
    }

    private static String fromHost(NetworkNode to) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(to.address(), PORT), 5000);
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)).readLine();
        } catch (java.io.IOException e) {
            return "no connection: " + e;
        }
    }
}
