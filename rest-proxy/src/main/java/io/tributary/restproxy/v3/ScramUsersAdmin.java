package io.tributary.restproxy.v3;

import io.tributary.restproxy.error.InvalidArgumentException;
import io.tributary.restproxy.error.KafkaFutures;
import io.tributary.restproxy.error.ScramUserNotFoundException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.springframework.stereotype.Service;

/**
 * SCRAM users through DescribeUserScramCredentials and AlterUserScramCredentials (KIP-554): each
 * user's mechanisms with their iteration counts, setting a password for a mechanism, deleting
 * credentials. The brokers want DESCRIBE on the cluster to list, ALTER to change. Passwords go to the
 * Admin client only (which salts and hashes them before sending); they are never kept, logged nor
 * answered. Knows nothing of HTTP. Thread-safe.
 */
@Service
public class ScramUsersAdmin {

    /** Kafka's bounds for a SCRAM iteration count, inclusive. */
    static final int MIN_ITERATIONS = 4096;
    static final int MAX_ITERATIONS = 16384;

    /** A user and its credentials (mechanism and iterations; never the salted password). */
    public record ScramUser(String name, List<ScramCredentialInfo> credentials) {
    }

    private final Admin admin;

    public ScramUsersAdmin(Admin admin) {
        this.admin = admin;
    }

    /** Every user with SCRAM credentials, sorted by name, each's credentials by mechanism. */
    public List<ScramUser> users() {
        Map<String, UserScramCredentialsDescription> all = new TreeMap<>(
            KafkaFutures.get(admin.describeUserScramCredentials().all()));
        List<ScramUser> users = new ArrayList<>();
        all.forEach((name, description) -> users.add(user(name, description)));
        return users;
    }

    /** One user; {@link ScramUserNotFoundException} when it has no SCRAM credential. */
    public ScramUser user(String name) {
        UserScramCredentialsDescription description = KafkaFutures.get(
            admin.describeUserScramCredentials(List.of(name)).description(name),
            cause -> cause instanceof ResourceNotFoundException
                ? new ScramUserNotFoundException("User " + name + " has no SCRAM credentials") : null);
        return user(name, description);
    }

    /**
     * Sets the user's password for {@code mechanism} (creating the user when new).
     *
     * @throws InvalidArgumentException for an iteration count outside Kafka's bounds
     */
    public void upsert(String name, ScramMechanism mechanism, int iterations, String password) {
        if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
            throw new InvalidArgumentException("iterations must be between " + MIN_ITERATIONS + " and "
                + MAX_ITERATIONS);
        }
        alter(new UserScramCredentialUpsertion(name, new ScramCredentialInfo(mechanism, iterations), password));
    }

    /** Deletes the user's credential for {@code mechanism}; {@link ScramUserNotFoundException} when it has none. */
    public void delete(String name, ScramMechanism mechanism) {
        alter(new UserScramCredentialDeletion(name, mechanism));
    }

    /** Deletes every SCRAM credential of the user; {@link ScramUserNotFoundException} when it has none. */
    public void delete(String name) {
        for (ScramCredentialInfo credential : user(name).credentials()) {
            delete(name, credential.mechanism());
        }
    }

    private void alter(UserScramCredentialAlteration alteration) {
        KafkaFutures.get(admin.alterUserScramCredentials(List.of(alteration)).all(),
            cause -> cause instanceof ResourceNotFoundException
                ? new ScramUserNotFoundException(cause.getMessage()) : null);
    }

    private static ScramUser user(String name, UserScramCredentialsDescription description) {
        return new ScramUser(name, description.credentialInfos().stream()
            .sorted(Comparator.comparing(c -> c.mechanism().mechanismName())).toList());
    }
}
