package io.tributary.broker.security;

import io.tributary.broker.cluster.ZkWatch;
import io.tributary.broker.cluster.ChangeNotificationPurger;
import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.cluster.ZkPaths;
import io.tributary.broker.cluster.ZooKeeperClientException;
import java.io.Closeable;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.security.authenticator.CredentialCache;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramCredentialUtils;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SCRAM credentials (KIP-84; managed through the APIs of KIP-554), stored in ZooKeeper exactly as
 * Kafka's ZooKeeper mode stores them, with a live in-memory view for the SASL/SCRAM authenticator.
 *
 * <p>Storage ({@link UserEntityConfigs}): the user's config node
 * {@code /config/users/{sanitized user}} holds one key per mechanism, e.g.
 * {@code "SCRAM-SHA-512":"salt=...,stored_key=...,server_key=...,iterations=4096"}
 * ({@link ScramCredentialUtils#credentialToString}), beside the user's other configs (quotas),
 * which a change keeps. Each change also writes the change notification
 * {@code /config/changes/config_change_*} {@code {"version":2,"entity_path":"users/{sanitized user}"}},
 * for Kafka's brokers and tools that follow them. Passwords are never stored, only the salted
 * keys; nothing here logs a credential.
 *
 * <p>The in-memory view is a kafka-clients {@link CredentialCache} with one cache per
 * mechanism (named by {@link ScramMechanism#mechanismName()}), keyed by the user name as the
 * client sends it (not sanitized). It is loaded at {@link #start} and kept current by a Curator
 * {@link CuratorCache} on {@code /config/users}, not by following {@code /config/changes}: the
 * user's node is the truth and a watch on it sees every change (the initial load included) with
 * its data, also those written by tools that write no notification, and needs no cursor into a
 * sequence that brokers (Kafka's and these) purge after 15 minutes. A change made through this store is
 * applied to its view before {@link #alter} returns; other brokers see it when their watch fires
 * (milliseconds on a healthy ensemble). Views of a user are ordered by the zxid of the node's
 * last change, so a late watch event never undoes a newer change.
 *
 * <p>Once started, the store also deletes the notifications under {@code /config/changes} (of any
 * entity, as Kafka's brokers did) older than the expiration (Kafka's 15 minutes by default) whenever
 * a new one appears ({@link ChangeNotificationPurger}).
 *
 * <p>Validation of {@link #alter} and {@link #describe} follows Kafka's
 * {@code ZkAdminManager.alterUserScramCredentials / describeUserScramCredentials}.
 *
 * <p>Thread-safe. {@link #alter} and {@link #describe} block on ZooKeeper: never call them on a
 * network thread. {@link #credential} and {@link #credentialCache()} only read memory.
 */
public final class ScramCredentialStore implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(ScramCredentialStore.class);

    private final UserEntityConfigs userConfigs;
    private final KafkaZkClient zkClient;
    private final CredentialCache credentialCache = new CredentialCache();
    private final Map<ScramMechanism, CredentialCache.Cache<ScramCredential>> caches = new EnumMap<>(ScramMechanism.class);
    /**
     * Zxid of the last change of each user's node applied to the caches, by sanitized user; guarded
     * by itself, which also orders the changes to the caches. Not the store's monitor: watch events
     * arrive while {@link #start} holds that, waiting for them.
     */
    private final Map<String, Long> appliedZxids = new HashMap<>();
    private final ScramCredentialAdmin admin;
    private final ChangeNotificationPurger purger;
    private CuratorCache watch;

    /** A store that purges change notifications older than Kafka's 15 minutes, by the system clock. */
    public ScramCredentialStore(KafkaZkClient zkClient, Time time) {
        this(zkClient, ChangeNotificationPurger.DEFAULT_EXPIRATION_MS, time);
    }

    /**
     * @param notificationExpirationMs age in milliseconds (by {@code time} against the znode's ctime)
     *                                 beyond which {@code /config/changes} notifications are deleted
     */
    public ScramCredentialStore(KafkaZkClient zkClient, long notificationExpirationMs, Time time) {
        this.zkClient = zkClient;
        this.purger = new ChangeNotificationPurger(zkClient, List.of(ZkPaths.CONFIG_CHANGE_PREFIX),
            notificationExpirationMs, time, "config");
        this.userConfigs = new UserEntityConfigs(zkClient);
        this.admin = new ScramCredentialAdmin(userConfigs, this::applyWritten);
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            caches.put(mechanism, credentialCache.createCache(mechanism.mechanismName(), ScramCredential.class));
        }
    }

    /**
     * Loads every user's credentials and starts watching for changes, then starts purging expired
     * change notifications; returns once loaded.
     *
     * @throws ZooKeeperClientException when the load does not finish within {@code timeoutMs}
     */
    public synchronized void start(long timeoutMs) {
        userConfigs.ensurePaths();
        CountDownLatch initialized = new CountDownLatch(1);
        watch = ZkWatch.of(zkClient.curator(), ZkPaths.CONFIG_USERS, CuratorCacheListener.builder()
            .forAll(this::onWatchEvent)
            .forInitialized(initialized::countDown)
            .build());
        watch.start();
        try {
            if (!initialized.await(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new ZooKeeperClientException("SCRAM credentials not loaded from ZooKeeper within " + timeoutMs + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZooKeeperClientException("Interrupted while loading SCRAM credentials", e);
        }
        log.info("SCRAM credentials loaded from {} user config node(s)", appliedUsers());
        purger.start();
    }

    /**
     * The live credentials for the SASL/SCRAM server: {@code credentialCache().cache("SCRAM-SHA-512",
     * ScramCredential.class).get(user)}, as Kafka's {@code ScramServerCallbackHandler} reads them.
     */
    public CredentialCache credentialCache() {
        return credentialCache;
    }

    /** The user's credential for a mechanism, from memory; empty when there is none. */
    public Optional<ScramCredential> credential(ScramMechanism mechanism, String user) {
        return Optional.ofNullable(caches.get(mechanism).get(user));
    }

    /**
     * Describes users' SCRAM credentials (mechanism and iterations; never the keys), read from
     * ZooKeeper, as Kafka does. With no users, every user that has a credential, by name; otherwise
     * one result per distinct user asked for, in request order: RESOURCE_NOT_FOUND for an empty name
     * or a user without credentials, DUPLICATE_RESOURCE for a user asked for twice.
     *
     * @throws ZooKeeperClientException when ZooKeeper fails while listing every user
     */
    public List<UserScramCredentials> describe(List<String> users) {
        return admin.describe(users);
    }

    /**
     * Upserts and deletes SCRAM credentials, as Kafka validates them, per user: a user's changes
     * are all made (one write) or none. Errors per user: UNACCEPTABLE_CREDENTIAL for an empty
     * name, too few or too many iterations or an empty salt or salted password;
     * UNSUPPORTED_SASL_MECHANISM for an unknown mechanism; DUPLICATE_RESOURCE when the same
     * (user, mechanism) appears twice (two upserts, or an upsert and a deletion); RESOURCE_NOT_FOUND
     * for the deletion of a credential that does not exist.
     *
     * @return one result per user named in the request
     */
    public Map<String, ApiError> alter(List<Upsertion> upsertions, List<Deletion> deletions) {
        return admin.alter(upsertions, deletions);
    }

    /**
     * A credential to create or replace, as AlterUserScramCredentials carries it: the client
     * salts the password, the broker derives the stored and server keys.
     *
     * @param mechanism {@code UNKNOWN} for a mechanism the request named that kafka-clients does not know
     */
    public record Upsertion(String user, org.apache.kafka.clients.admin.ScramMechanism mechanism, int iterations,
                            byte[] salt, byte[] saltedPassword) {

        /** Without the salt and salted password. */
        @Override
        public String toString() {
            return "Upsertion(" + user + ", " + mechanism + ", " + iterations + " iterations)";
        }
    }

    /** A credential to delete. */
    public record Deletion(String user, org.apache.kafka.clients.admin.ScramMechanism mechanism) {
    }

    /** What {@link #describe} tells of one user: an error, or the mechanisms and iterations of its credentials. */
    public record UserScramCredentials(String user, ApiError error, List<ScramCredentialInfo> credentials) {
    }

    private void onWatchEvent(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
        ChildData node = data != null ? data : oldData;
        if (node == null) {
            return;
        }
        String path = node.getPath();
        int slash = path.lastIndexOf('/');
        // Only /config/users/{user}; not the root, nor /config/users/{user}/clients/{client} (quotas).
        if (slash <= 0 || !path.substring(0, slash).equals(ZkPaths.CONFIG_USERS)) {
            return;
        }
        String sanitizedUser = path.substring(slash + 1);
        long zxid = node.getStat() == null ? 0 : node.getStat().getMzxid();
        try {
            if (type == CuratorCacheListener.Type.NODE_DELETED) {
                apply(sanitizedUser, Map.of(), zxid);
            } else {
                apply(sanitizedUser, UserEntityConfigs.parse(node.getData(), path), zxid);
            }
        } catch (RuntimeException e) {
            log.error("Could not apply the SCRAM credentials of user {}: {}", UserEntityConfigs.desanitize(sanitizedUser),
                e.getMessage());
        }
    }

    private void applyWritten(String sanitizedUser, UserEntityConfigs.UserConfig written) {
        apply(sanitizedUser, written.config(), written.mzxid());
    }

    /** Sets the user's cached credentials to those of {@code config}, unless a newer change was applied. */
    private void apply(String sanitizedUser, Map<String, String> config, long zxid) {
        synchronized (appliedZxids) {
            applyInOrder(sanitizedUser, config, zxid);
        }
    }

    private void applyInOrder(String sanitizedUser, Map<String, String> config, long zxid) {
        Long applied = appliedZxids.get(sanitizedUser);
        if (applied != null && zxid < applied) {
            return;
        }
        appliedZxids.put(sanitizedUser, zxid);
        String user = UserEntityConfigs.desanitize(sanitizedUser);
        for (Map.Entry<ScramMechanism, CredentialCache.Cache<ScramCredential>> e : caches.entrySet()) {
            String value = config.get(e.getKey().mechanismName());
            if (value == null) {
                e.getValue().remove(user);
                continue;
            }
            try {
                e.getValue().put(user, ScramCredentialUtils.credentialFromString(value));
            } catch (RuntimeException malformed) {
                e.getValue().remove(user);
                log.error("The {} credential of user {} in ZooKeeper is malformed; the user cannot authenticate with it",
                    e.getKey().mechanismName(), user);
            }
        }
    }

    private int appliedUsers() {
        synchronized (appliedZxids) {
            return appliedZxids.size();
        }
    }

    /** Stops watching and purging; the view keeps its last state. */
    @Override
    public synchronized void close() {
        purger.close();
        if (watch != null) {
            watch.close();
            watch = null;
        }
    }
}
