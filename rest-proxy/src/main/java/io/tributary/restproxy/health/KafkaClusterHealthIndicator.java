package io.tributary.restproxy.health;

import io.tributary.restproxy.config.CallerBoundClients;
import io.tributary.restproxy.config.KafkaClientPool;
import io.tributary.restproxy.error.KafkaErrors;
import io.tributary.restproxy.security.KafkaLogin;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code kafka}: UP when a DescribeCluster request to the brokers answers within 3 s,
 * with the cluster id and broker count; DOWN otherwise. Part of the readiness group, so a proxy
 * that cannot reach any broker is taken out of its Service instead of answering 500s.
 */
@Component("kafka")
public class KafkaClusterHealthIndicator extends AbstractHealthIndicator {

    private static final int TIMEOUT_MS = 3000;

    private final Admin admin;

    /** Checks with the proxy's own login ({@code kafka.*}): health checks come from no signed-in caller. */
    public KafkaClusterHealthIndicator(KafkaClientPool pool) {
        super("Kafka cluster health check failed");
        this.admin = CallerBoundClients.admin(pool, () -> KafkaLogin.SERVICE);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try {
            var cluster = admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS));
            String clusterId = cluster.clusterId().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            Collection<Node> nodes = cluster.nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            builder.up().withDetail("clusterId", clusterId).withDetail("brokers", nodes.size());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            builder.down().withDetail("error", KafkaErrors.describe(e));
        }
    }
}
