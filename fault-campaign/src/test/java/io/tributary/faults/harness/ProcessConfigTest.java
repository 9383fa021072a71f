package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessConfigTest {

    private final NetworkNode n1 = new NetworkNode("n1", "trib-ab12-n1", "10.213.7.11");
    private final NetworkNode n2 = new NetworkNode("n2", "trib-ab12-n2", "10.213.7.12");

    @Test
    void zooKeeperConfigNamesEveryServerAtItsNodeAddress() {
        String config = ZooKeeperEnsemble.config(Map.of(1, n1, 2, n2), Path.of("/tmp/zk-1/data"));

        assertThat(config).contains("dataDir=/tmp/zk-1/data\n", "clientPort=2181\n", "quorumListenOnAllIPs=true\n",
                "server.1=10.213.7.11:2888:3888\n", "server.2=10.213.7.12:2888:3888\n", "4lw.commands.whitelist=srvr");
    }

    @Test
    void brokerListensOnItsNodeAddressAndTalksToTheEnsemble() {
        assertThat(BrokerProcess.arguments(2, n2, "10.213.7.11:2181", Path.of("/tmp/b2"))).contains("--broker.id=2",
                "--broker.listeners=PLAINTEXT://10.213.7.12:9092", "--broker.zookeeper-connect=10.213.7.11:2181",
                "--broker.data-dir=/tmp/b2");
    }

    @Test
    void processesRunInsideTheirNodesNamespace() {
        Network network = new Network(command -> "", "ab12", "10.213.7", 1);

        assertThat(network.inNamespace(network.node("n1"), java.util.List.of("java", "-version")))
                .containsExactly("ip", "netns", "exec", "trib-ab12-n1", "java", "-version");
    }
}
