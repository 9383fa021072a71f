package io.tributary.broker.security;

import io.tributary.broker.cluster.EntityConfigs;
import io.tributary.broker.cluster.KafkaZkClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.utils.internals.Sanitizer;

/**
 * The dynamic configs of users in ZooKeeper ({@code /config/users/{sanitized user}}, Kafka's
 * ZooKeeper-mode layout, stored through {@link EntityConfigs}). User names in paths are encoded with
 * kafka-clients' {@link Sanitizer}, as Kafka does. A user's node holds every config of the user
 * (SCRAM credentials and quotas alike). Change notifications are deleted once older than 15 minutes
 * by {@link io.tributary.broker.cluster.ChangeNotificationPurger} (started by
 * {@link ScramCredentialStore}), as Kafka's brokers deleted them.
 *
 * <p>Blocking; thread-safe. Failures surface as {@link io.tributary.broker.cluster.ZooKeeperClientException}.
 */
final class UserEntityConfigs {

    private final EntityConfigs users;

    UserEntityConfigs(KafkaZkClient zkClient) {
        this.users = new EntityConfigs(zkClient, "users");
    }

    /** A user's config as stored; see {@link EntityConfigs.EntityConfig}. */
    record UserConfig(Map<String, String> config, int version, long mzxid) {
        private static UserConfig of(EntityConfigs.EntityConfig stored) {
            return new UserConfig(stored.config(), stored.version(), stored.mzxid());
        }
    }

    /** Creates {@code /config/users} and {@code /config/changes} when missing. */
    void ensurePaths() {
        users.ensurePaths();
    }

    /** The sanitized names of every user with a config node. */
    List<String> sanitizedUsers() {
        return users.names();
    }

    /** A user's config, or empty when the user has no node. */
    Optional<UserConfig> read(String sanitizedUser) {
        return users.read(sanitizedUser).map(UserConfig::of);
    }

    /** Rewrites a user's config and writes its change notification, in one transaction ({@link EntityConfigs#change}). */
    UserConfig change(String sanitizedUser, UnaryOperator<Map<String, String>> change) {
        return UserConfig.of(users.change(sanitizedUser, change));
    }

    /** The {@code config} object of a user's node ({@link EntityConfigs#parse}). */
    static Map<String, String> parse(byte[] data, String path) {
        return EntityConfigs.parse(data, path);
    }

    /** The user name a config node stands for. */
    static String desanitize(String sanitizedUser) {
        return Sanitizer.desanitize(sanitizedUser);
    }

    static String sanitize(String user) {
        return Sanitizer.sanitize(user);
    }
}
