package io.tributary.restproxy.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * When {@code kafka.bootstrap-servers} is not set but {@code kafka.zookeeper-connect} is, reads
 * the brokers' registrations under {@code /brokers/ids} in ZooKeeper (Kafka's layout: JSON with an
 * {@code endpoints} list of {@code LISTENER://host:port}) and uses their endpoints of
 * {@code kafka.listener-name} (default: each broker's first) as the bootstrap servers. Without
 * either setting, {@code 127.0.0.1:9092}. The Kafka clients refresh the broker list themselves
 * once connected, so this only needs to find one live broker at start.
 */
public class ZooKeeperBootstrapEnvironmentPostProcessor implements EnvironmentPostProcessor {

    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:9092";
    private static final int TIMEOUT_MS = 15_000;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String bootstrap = environment.getProperty("kafka.bootstrap-servers", "");
        if (!bootstrap.isBlank()) {
            return;
        }
        String zookeeper = environment.getProperty("kafka.zookeeper-connect", "");
        String discovered = zookeeper.isBlank() ? DEFAULT_BOOTSTRAP
            : discover(zookeeper, environment.getProperty("kafka.listener-name", ""));
        environment.getPropertySources().addFirst(new MapPropertySource("tributaryBootstrapServers",
            Map.of("kafka.bootstrap-servers", discovered)));
    }

    /**
     * The endpoints registered under {@code /brokers/ids}.
     *
     * @throws IllegalStateException when ZooKeeper cannot be reached or no broker is registered
     */
    static String discover(String zookeeperConnect, String listenerName) {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher watcher = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
        ZooKeeper zk = null;
        try {
            zk = new ZooKeeper(zookeeperConnect, TIMEOUT_MS, watcher);
            if (!connected.await(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("Could not connect to ZooKeeper at " + zookeeperConnect
                    + " within " + TIMEOUT_MS + " ms to find the brokers (kafka.zookeeper-connect)");
            }
            JsonMapper mapper = JsonMapper.builder().build();
            List<String> servers = new ArrayList<>();
            for (String id : zk.getChildren("/brokers/ids", false)) {
                JsonNode registration = mapper.readTree(new String(zk.getData("/brokers/ids/" + id, false, null),
                    StandardCharsets.UTF_8));
                String endpoint = endpoint(registration, listenerName);
                if (endpoint != null) {
                    servers.add(endpoint);
                }
            }
            if (servers.isEmpty()) {
                throw new IllegalStateException("No broker is registered in ZooKeeper at " + zookeeperConnect
                    + " under /brokers/ids" + (listenerName.isEmpty() ? "" : " with listener " + listenerName));
            }
            return String.join(",", servers);
        } catch (KeeperException.NoNodeException e) {
            throw new IllegalStateException("No broker is registered in ZooKeeper at " + zookeeperConnect, e);
        } catch (KeeperException | IOException e) {
            throw new IllegalStateException("Could not read the brokers from ZooKeeper at " + zookeeperConnect, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (zk != null) {
                try {
                    zk.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** {@code host:port} of the registration's endpoint for {@code listenerName}, or its first. */
    static String endpoint(JsonNode registration, String listenerName) {
        for (JsonNode endpoint : registration.path("endpoints")) {
            String value = endpoint.asString();
            int separator = value.indexOf("://");
            if (separator > 0 && (listenerName.isEmpty() || value.substring(0, separator).equals(listenerName))) {
                return value.substring(separator + 3);
            }
        }
        return null;
    }
}
