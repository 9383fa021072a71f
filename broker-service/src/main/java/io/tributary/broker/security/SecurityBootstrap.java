package io.tributary.broker.security;

import io.tributary.broker.cluster.KafkaZkClient;
import io.tributary.broker.config.BrokerBootstrapProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.security.scram.internals.ScramCredentialUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the bootstrap SCRAM users and ACLs ({@link BrokerBootstrapProperties}) to ZooKeeper when
 * a broker starts, before its credential and ACL stores load and before any listener binds, so the
 * first login works on a cluster whose only listeners want SASL.
 *
 * <p>Create-if-absent, through the same conditional ZooKeeper writes as the APIs
 * ({@link UserEntityConfigs#change}, {@link AclResourceNodes#update}):
 * <ul>
 *   <li>a (user, mechanism) credential is written only when the user's node has none for that
 *       mechanism; one that exists, whatever its salt or iterations, is left as it is. So a restart
 *       writes nothing, and a password changed through AlterUserScramCredentials is never reset to
 *       the bootstrap one. Brokers starting at once race on the node's version: the first write
 *       wins, the others re-read, find the credential and write nothing;</li>
 *   <li>an ACL is added to its resource's node when missing; present ones are not rewritten.</li>
 * </ul>
 * Deleting a bootstrap user or ACL through the API lasts until the next start that still lists it.
 *
 * <p>Nothing here logs a password, salt or key: log lines name users, mechanisms and ACLs only.
 *
 * <p>Immutable; {@link #apply} blocks on ZooKeeper and is safe to run from several brokers at once.
 */
public final class SecurityBootstrap {

    private static final Logger log = LoggerFactory.getLogger(SecurityBootstrap.class);

    static final String SCRAM_USERS_SETTING = "broker.bootstrap-scram-users";
    static final String ACLS_SETTING = "broker.bootstrap-acls";
    static final String ACLS_FILE_SETTING = "broker.bootstrap-acls-file";

    private final List<BootstrapScramCredential> credentials;
    private final List<AclBinding> acls;

    /**
     * @param credentials SCRAM credentials to create when absent
     * @param acls        ACLs to create when absent
     */
    public SecurityBootstrap(List<BootstrapScramCredential> credentials, List<AclBinding> acls) {
        this.credentials = List.copyOf(credentials);
        this.acls = List.copyOf(acls);
    }

    /**
     * Parses the settings (and reads the password and ACL files they name).
     *
     * @throws IllegalArgumentException naming the setting at fault, without any password
     */
    public static SecurityBootstrap from(BrokerBootstrapProperties properties) {
        List<AclBinding> acls = new ArrayList<>(BootstrapAcls.parse(ACLS_SETTING, properties.bootstrapAcls()));
        String file = properties.bootstrapAclsFile();
        if (file != null && !file.isBlank()) {
            String text;
            try {
                text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(ACLS_FILE_SETTING + ": cannot read " + file + " ("
                    + e.getClass().getSimpleName() + ")", e);
            }
            acls.addAll(BootstrapAcls.parse(ACLS_FILE_SETTING + " (" + file + ")", text));
        }
        return new SecurityBootstrap(BootstrapScramCredential.parseAll(SCRAM_USERS_SETTING,
            properties.bootstrapScramUsers()), acls);
    }

    /** The ACLs to create, from {@code broker.bootstrap-acls} then {@code broker.bootstrap-acls-file}. */
    List<AclBinding> acls() {
        return acls;
    }

    /** Whether there is anything to write. */
    public boolean isEmpty() {
        return credentials.isEmpty() && acls.isEmpty();
    }

    /** What {@link #apply} did: how many credentials and ACLs it created, and how many it found. */
    public record Outcome(int credentialsCreated, int credentialsPresent, int aclsCreated, int aclsPresent) {
    }

    /**
     * Creates the missing credentials and ACLs.
     *
     * @throws io.tributary.broker.cluster.ZooKeeperClientException when ZooKeeper fails
     */
    public Outcome apply(KafkaZkClient zkClient) {
        int credentialsCreated = 0;
        int aclsCreated = 0;
        if (!credentials.isEmpty()) {
            UserEntityConfigs users = new UserEntityConfigs(zkClient);
            users.ensurePaths();
            for (BootstrapScramCredential credential : credentials) {
                if (createIfAbsent(users, credential)) {
                    credentialsCreated++;
                }
            }
        }
        if (!acls.isEmpty()) {
            AclResourceNodes nodes = new AclResourceNodes(zkClient);
            nodes.ensurePaths();
            Map<ResourcePattern, List<AccessControlEntry>> byPattern = new LinkedHashMap<>();
            acls.forEach(b -> byPattern.computeIfAbsent(b.pattern(), p -> new ArrayList<>()).add(b.entry()));
            for (Map.Entry<ResourcePattern, List<AccessControlEntry>> e : byPattern.entrySet()) {
                AclResourceNodes.Change change = nodes.update(e.getKey(), current -> {
                    current.addAll(e.getValue());
                    return current;
                });
                Set<AccessControlEntry> before = change.before();
                for (AccessControlEntry entry : Set.copyOf(e.getValue())) {
                    if (!before.contains(entry)) {
                        aclsCreated++;
                        log.info("Bootstrap ACL created: {}", new AclBinding(e.getKey(), entry));
                    }
                }
            }
        }
        int distinctAcls = Set.copyOf(acls).size();
        Outcome outcome = new Outcome(credentialsCreated, credentials.size() - credentialsCreated, aclsCreated,
            distinctAcls - aclsCreated);
        log.info("Bootstrap: {} SCRAM credential(s) created, {} already present and left as they are; {} ACL(s) created,"
            + " {} already present", outcome.credentialsCreated(), outcome.credentialsPresent(), outcome.aclsCreated(),
            outcome.aclsPresent());
        return outcome;
    }

    /** Writes the credential unless the user already has one for its mechanism; true when written. */
    private static boolean createIfAbsent(UserEntityConfigs users, BootstrapScramCredential credential) {
        String mechanism = credential.mechanism().mechanismName();
        String sanitized = UserEntityConfigs.sanitize(credential.user());
        boolean present = users.read(sanitized).map(c -> c.config().containsKey(mechanism)).orElse(false);
        if (!present) {
            String stored = ScramCredentialUtils.credentialToString(credential.derive());
            try {
                users.change(sanitized, config -> {
                    if (config.containsKey(mechanism)) {
                        throw new AlreadyPresent(); // another broker was first
                    }
                    config.put(mechanism, stored);
                    return config;
                });
                log.info("Bootstrap {} credential of user {} created", mechanism, credential.user());
                return true;
            } catch (AlreadyPresent e) {
                // fall through
            }
        }
        log.info("Bootstrap {} credential of user {} already in ZooKeeper: left as it is", mechanism, credential.user());
        return false;
    }

    /** The credential appeared between the read and the write: nothing to write. */
    private static final class AlreadyPresent extends RuntimeException {
        AlreadyPresent() {
            super(null, null, false, false);
        }
    }

    @Override
    public String toString() {
        return "SecurityBootstrap[" + credentials + ", " + acls.size() + " ACL(s)]";
    }
}
