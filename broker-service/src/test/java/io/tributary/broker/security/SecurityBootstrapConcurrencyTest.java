package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.cluster.EmbeddedZooKeeper;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.config.BrokerBootstrapProperties;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several brokers applying the same bootstrap at once, each with its own ZooKeeper session: each
 * credential and ACL is created exactly once, and what the first writer stored stays.
 */
class SecurityBootstrapConcurrencyTest {

    private static final int BROKERS = 4;

    @TempDir
    Path dir;

    @Test
    void brokersStartingAtOnceCreateEachCredentialAndAclOnce() throws Exception {
        BrokerBootstrapProperties settings = new BrokerBootstrapProperties(
            "SCRAM-SHA-512=[name=admin,password=admin-pw];SCRAM-SHA-256=[name=admin,password=admin-pw];"
                + "SCRAM-SHA-512=[name=alice,password=alice-pw]",
            "principal=User:alice,operation=Write,resource-type=Topic,resource-name=orders;"
                + "principal=User:alice,operation=Describe,resource-type=Topic,resource-name=orders;"
                + "principal=User:bob,operation=Read,resource-type=Group,resource-name=readers", null);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zk").toFile(), 0, 200, true)) {
            List<KafkaZkClient> clients = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(BROKERS);
            try {
                for (int i = 0; i < BROKERS; i++) {
                    clients.add(KafkaZkClient.connect(zooKeeper.connectString(), 4000, 20000));
                }
                CountDownLatch go = new CountDownLatch(1);
                List<Future<SecurityBootstrap.Outcome>> outcomes = new ArrayList<>();
                for (KafkaZkClient client : clients) {
                    outcomes.add(pool.submit(() -> {
                        go.await();
                        return SecurityBootstrap.from(settings).apply(client);
                    }));
                }
                go.countDown();
                int credentialsCreated = 0;
                int aclsCreated = 0;
                for (Future<SecurityBootstrap.Outcome> outcome : outcomes) {
                    SecurityBootstrap.Outcome o = outcome.get(60, TimeUnit.SECONDS);
                    credentialsCreated += o.credentialsCreated();
                    aclsCreated += o.aclsCreated();
                    assertThat(o.credentialsCreated() + o.credentialsPresent()).isEqualTo(3);
                    assertThat(o.aclsCreated() + o.aclsPresent()).isEqualTo(3);
                }
                assertThat(credentialsCreated).isEqualTo(3);
                assertThat(aclsCreated).isEqualTo(3);

                UserEntityConfigs users = new UserEntityConfigs(clients.get(0));
                String stored = users.read("admin").orElseThrow().config().get("SCRAM-SHA-512");
                assertThat(users.read("admin").orElseThrow().config()).containsOnlyKeys("SCRAM-SHA-512", "SCRAM-SHA-256");

                SecurityBootstrap.Outcome again = SecurityBootstrap.from(settings).apply(clients.get(1));
                assertThat(again).isEqualTo(new SecurityBootstrap.Outcome(0, 3, 0, 3));
                assertThat(users.read("admin").orElseThrow().config().get("SCRAM-SHA-512"))
                    .as("a later start leaves the stored salt and keys").isEqualTo(stored);
                assertThat(clients.get(0).getChildren(ZkPaths.CONFIG_USERS)).containsExactlyInAnyOrder("admin", "alice");
            } finally {
                pool.shutdownNow();
                clients.forEach(KafkaZkClient::close);
            }
        }
    }
}
