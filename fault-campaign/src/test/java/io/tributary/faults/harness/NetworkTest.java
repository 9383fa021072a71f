package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetworkTest {

    private final List<String> commands = new ArrayList<>();
    private final CommandRunner recording = command -> {
        commands.add(String.join(" ", command));
        return "";
    };

    @Test
    void nodesLiveInPrefixedNamespacesWithAddressesOnTheRunsSubnet() {
        Network network = new Network(recording, "ab12", "10.213.7", 3);

        assertThat(network.nodes()).containsExactly(
                new NetworkNode("n1", "trib-ab12-n1", "10.213.7.11"),
                new NetworkNode("n2", "trib-ab12-n2", "10.213.7.12"),
                new NetworkNode("n3", "trib-ab12-n3", "10.213.7.13"));
        assertThat(network.bridgeNamespace()).isEqualTo("trib-ab12-br");
        assertThat(network.hostAddress()).isEqualTo("10.213.7.1");
    }

    @Test
    void setUpJoinsEveryNodeAndTheHostToTheBridge() {
        Network network = new Network(recording, "ab12", "10.213.7", 2);

        List<String> setUp = network.setUpCommands().stream().map(c -> String.join(" ", c)).toList();

        assertThat(setUp).startsWith("ip netns add trib-ab12-br", "ip -n trib-ab12-br link set lo up",
                "ip -n trib-ab12-br link add br0 type bridge", "ip -n trib-ab12-br link set br0 up");
        assertThat(setUp).containsSubsequence("ip netns add trib-ab12-n2",
                "ip -n trib-ab12-n2 link set lo up",
                "ip -n trib-ab12-br link add vn2 type veth peer name eth0 netns trib-ab12-n2",
                "ip -n trib-ab12-br link set vn2 master br0 up",
                "ip -n trib-ab12-n2 addr add 10.213.7.12/24 dev eth0",
                "ip -n trib-ab12-n2 link set eth0 up");
        assertThat(setUp).endsWith("ip link add tribab12 type veth peer name host netns trib-ab12-br",
                "ip -n trib-ab12-br link set host master br0 up",
                "ip addr add 10.213.7.1/24 dev tribab12", "ip link set tribab12 up");
        assertThat(setUp).allSatisfy(c -> assertThat(c.split(" ")).allSatisfy(w -> assertThat(w).hasSizeLessThan(16)));
    }

    @Test
    void partitionProhibitsEachPeerInBothDirectionsAndHealRemovesExactlyThoseRoutes() {
        Network network = new Network(recording, "ab12", "10.213.7", 3);
        NetworkNode n1 = network.node("n1");

        network.partition(Set.of(n1), Set.of(network.node("n2"), network.node("n3")));

        assertThat(commands).containsExactlyInAnyOrder(
                "ip -n trib-ab12-n1 route add prohibit 10.213.7.12/32",
                "ip -n trib-ab12-n2 route add prohibit 10.213.7.11/32",
                "ip -n trib-ab12-n1 route add prohibit 10.213.7.13/32",
                "ip -n trib-ab12-n3 route add prohibit 10.213.7.11/32");

        commands.clear();
        network.heal();
        assertThat(commands).containsExactlyInAnyOrder(
                "ip -n trib-ab12-n1 route del prohibit 10.213.7.12/32",
                "ip -n trib-ab12-n2 route del prohibit 10.213.7.11/32",
                "ip -n trib-ab12-n1 route del prohibit 10.213.7.13/32",
                "ip -n trib-ab12-n3 route del prohibit 10.213.7.11/32");

        commands.clear();
        network.heal();
        assertThat(commands).isEmpty();
    }

    @Test
    void aNodeOnBothSidesIsRejected() {
        Network network = new Network(recording, "ab12", "10.213.7", 2);
        NetworkNode n1 = network.node("n1");

        assertThatThrownBy(() -> network.partition(Set.of(n1), Set.of(n1, network.node("n2"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("both sides");
    }

    @Test
    void closeRemovesTheHostVethAndEveryNamespaceOnceEvenWhenAStepFails() {
        List<String> tried = new ArrayList<>();
        Network network = Network.create(command -> {
            String line = String.join(" ", command);
            tried.add(line);
            if (line.equals("ip netns del trib-ab12-n1")) {
                throw new CommandRunner.CommandFailedException(command, 1, "gone");
            }
            return "";
        }, "ab12", "10.213.7", 2);
        tried.clear();

        network.close();
        network.close();

        assertThat(tried).containsExactly("ip link del tribab12", "ip netns del trib-ab12-n1",
                "ip netns del trib-ab12-n2", "ip netns del trib-ab12-br");
    }

    @Test
    void aFailedSetUpRemovesWhatItCreated() {
        List<String> tried = new ArrayList<>();
        CommandRunner failing = command -> {
            String line = String.join(" ", command);
            tried.add(line);
            if (line.startsWith("ip netns add trib-ab12-n2")) {
                throw new CommandRunner.CommandFailedException(command, 1, "File exists");
            }
            return "";
        };

        assertThatThrownBy(() -> Network.create(failing, "ab12", "10.213.7", 2))
                .isInstanceOf(CommandRunner.CommandFailedException.class);
        assertThat(tried).contains("ip netns del trib-ab12-n1", "ip netns del trib-ab12-br");
    }

    @Test
    void runIdsThatWouldOverflowInterfaceNamesAreRejected() {
        assertThatThrownBy(() -> new Network(recording, "toolong7", "10.213.7", 2))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void staleNamesAreParsedFromIpOutput() {
        assertThat(Network.staleNamespaces("trib-x1-n1 (id: 3)\nother\ntrib-x1-br\n", "trib-"))
                .containsExactly("trib-x1-n1", "trib-x1-br");
        assertThat(Network.staleInterfaces(
                "1: lo: <LOOPBACK,UP> mtu 65536\n7: tribx1@if3: <BROADCAST> mtu 1500\n8: eth0: <UP>\n", "trib"))
                .containsExactly("tribx1");
    }

    @Test
    void cleanupStaleDeletesInterfacesThenNamespacesWithThePrefix() {
        List<String> tried = new ArrayList<>();
        CommandRunner runner = command -> {
            String line = String.join(" ", command);
            tried.add(line);
            return switch (line) {
                case "ip -o link show" -> "1: lo: <LOOPBACK>\n9: tribq9@if2: <UP>\n";
                case "ip netns list" -> "trib-q9-n1 (id: 1)\ntrib-q9-br (id: 0)\nmine\n";
                case "ip netns pids trib-q9-n1" -> "4242\n";
                default -> "";
            };
        };

        assertThat(Network.cleanupStale(runner, "trib")).containsExactly("tribq9", "trib-q9-n1", "trib-q9-br");
        assertThat(tried).containsSubsequence("kill -s KILL 4242", "ip netns del trib-q9-n1")
                .doesNotContain("ip netns del mine");
    }

    @Test
    void cleanupStaleLeavesRunsWhoseOwnerIsAliveAlone() {
        List<String> tried = new ArrayList<>();
        CommandRunner runner = command -> {
            String line = String.join(" ", command);
            tried.add(line);
            return switch (line) {
                case "ip -o link show" -> "9: tribq9@if2: <UP>\n10: tribliv@if4: <UP>\n";
                case "ip netns list" -> "trib-q9-n1 (id: 1)\ntrib-liv-n1 (id: 2)\ntrib-liv-br (id: 3)\n";
                default -> "";
            };
        };

        assertThat(Network.cleanupStale(runner, "trib", "liv"::equals)).containsExactly("tribq9", "trib-q9-n1");
        assertThat(tried).filteredOn(line -> line.contains("liv")).isEmpty();
    }

    @Test
    void theRunIsReadFromInterfaceAndNamespaceNames() {
        assertThat(Network.runOf("tribq9", "trib")).isEqualTo("q9");
        assertThat(Network.runOf("trib-q9-n12", "trib")).isEqualTo("q9");
        assertThat(Network.runOf("trib-q9-br", "trib")).isEqualTo("q9");
    }
}
