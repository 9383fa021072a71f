package io.tributary.broker.security;

import io.tributary.broker.security.ScramCredentialStore.Deletion;
import io.tributary.broker.security.ScramCredentialStore.Upsertion;
import io.tributary.broker.security.ScramCredentialStore.UserScramCredentials;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramCredentialUtils;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's semantics of AlterUserScramCredentials and DescribeUserScramCredentials (KIP-554) over
 * the users' config nodes, as {@code ZkAdminManager} implements them: validation first (per
 * user, one error each), then one conditional write per valid user. Mechanisms here are the
 * public {@link ScramMechanism} (with {@code UNKNOWN}); the internal one is reached by name.
 *
 * <p>Differences from Kafka, on purpose: listing every user reports the user names, not their
 * sanitized form (Kafka's ZooKeeper mode reported the path segment; KRaft reports the names); an
 * empty salt or salted password is UNACCEPTABLE_CREDENTIAL (Kafka failed with
 * UNKNOWN_SERVER_ERROR deriving the keys).
 *
 * <p>Thread-safe; blocking.
 */
final class ScramCredentialAdmin {

    private static final Logger log = LoggerFactory.getLogger(ScramCredentialAdmin.class);

    /** Kafka's maximum, the same for every mechanism ({@code ZkAdminManager}, {@code ScramMechanism.maxIterations}). */
    static final int MAX_ITERATIONS = 16384;

    private static final String USERNAME_MUST_NOT_BE_EMPTY = "Username must not be empty";
    private static final String UNKNOWN_SCRAM_MECHANISM = "Unknown SCRAM mechanism";

    private final UserEntityConfigs userConfigs;
    private final BiConsumer<String, UserEntityConfigs.UserConfig> onWritten;

    /**
     * @param onWritten told of every user config written (sanitized user, config as written), before
     *                  {@link #alter} returns
     */
    ScramCredentialAdmin(UserEntityConfigs userConfigs, BiConsumer<String, UserEntityConfigs.UserConfig> onWritten) {
        this.userConfigs = userConfigs;
        this.onWritten = onWritten;
    }

    List<UserScramCredentials> describe(List<String> users) {
        if (users == null || users.isEmpty()) {
            Map<String, UserScramCredentials> all = new TreeMap<>();
            for (String sanitized : userConfigs.sanitizedUsers()) {
                String user = UserEntityConfigs.desanitize(sanitized);
                describeOne(user, sanitized, false).ifPresent(r -> all.put(user, r));
            }
            return List.copyOf(all.values());
        }
        Map<String, Integer> occurrences = new HashMap<>();
        users.forEach(u -> occurrences.merge(u, 1, Integer::sum));
        List<UserScramCredentials> results = new ArrayList<>();
        for (String user : new LinkedHashSet<>(users)) {
            if (user.isEmpty()) {
                results.add(error(user, Errors.RESOURCE_NOT_FOUND, USERNAME_MUST_NOT_BE_EMPTY));
            } else if (occurrences.get(user) > 1) {
                results.add(error(user, Errors.DUPLICATE_RESOURCE,
                    "Cannot describe SCRAM credentials for the same user twice in a single request: " + user));
            } else {
                try {
                    results.add(describeOne(user, UserEntityConfigs.sanitize(user), true).orElseThrow());
                } catch (RuntimeException e) {
                    log.warn("Could not describe the SCRAM credentials of user {}: {}", user, e.toString());
                    ApiError apiError = ApiError.fromThrowable(e);
                    results.add(error(user, apiError.error(), apiError.messageWithFallback()));
                }
            }
        }
        return results;
    }

    /** The user's credentials; for a user without any, RESOURCE_NOT_FOUND if {@code explicit}, else empty. */
    private Optional<UserScramCredentials> describeOne(String user, String sanitized, boolean explicit) {
        Map<String, String> config = userConfigs.read(sanitized).map(UserEntityConfigs.UserConfig::config).orElse(Map.of());
        List<ScramCredentialInfo> infos = new ArrayList<>();
        try {
            for (ScramMechanism mechanism : ScramMechanism.values()) {
                String value = mechanism == ScramMechanism.UNKNOWN ? null : config.get(mechanism.mechanismName());
                if (value != null) {
                    infos.add(new ScramCredentialInfo(mechanism, ScramCredentialUtils.credentialFromString(value).iterations()));
                }
            }
        } catch (RuntimeException malformed) {
            return Optional.of(error(user, Errors.UNKNOWN_SERVER_ERROR,
                "Error processing describe user SCRAM credential configs request"));
        }
        if (!infos.isEmpty()) {
            return Optional.of(new UserScramCredentials(user, ApiError.NONE, List.copyOf(infos)));
        }
        return explicit ? Optional.of(error(user, Errors.RESOURCE_NOT_FOUND,
            "Attempt to describe a user credential that does not exist: " + user)) : Optional.empty();
    }

    private static UserScramCredentials error(String user, Errors error, String message) {
        return new UserScramCredentials(user, new ApiError(error, message), List.of());
    }

    Map<String, ApiError> alter(List<Upsertion> upsertions, List<Deletion> deletions) {
        Map<String, ApiError> results = new LinkedHashMap<>();
        // 1. Requests that are illegal by themselves fail their user (an upsertion's reason wins, as in Kafka).
        Map<String, ApiError> illegal = new LinkedHashMap<>();
        for (Deletion d : deletions) {
            if (d.user().isEmpty()) {
                illegal.put(d.user(), new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, USERNAME_MUST_NOT_BE_EMPTY));
            } else if (d.mechanism() == ScramMechanism.UNKNOWN) {
                illegal.put(d.user(), new ApiError(Errors.UNSUPPORTED_SASL_MECHANISM, UNKNOWN_SCRAM_MECHANISM));
            }
        }
        for (Upsertion u : upsertions) {
            illegalUpsertion(u).ifPresent(error -> illegal.put(u.user(), error));
        }
        results.putAll(illegal);

        // 2. The same (user, mechanism) twice fails the user.
        Set<String> duplicated = new LinkedHashSet<>();
        Set<String> seen = new HashSet<>();
        Set<String> valid = new LinkedHashSet<>();
        List<String> pairs = new ArrayList<>();
        upsertions.stream().filter(u -> !illegal.containsKey(u.user())).forEach(u -> {
            valid.add(u.user());
            pairs.add(u.user() + '\u0000' + u.mechanism().mechanismName());
        });
        deletions.stream().filter(d -> !illegal.containsKey(d.user())).forEach(d -> {
            valid.add(d.user());
            pairs.add(d.user() + '\u0000' + d.mechanism().mechanismName());
        });
        for (String pair : pairs) {
            if (!seen.add(pair)) {
                duplicated.add(pair.substring(0, pair.indexOf('\u0000')));
            }
        }
        for (String user : duplicated) {
            results.put(user, new ApiError(Errors.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"));
        }
        valid.removeAll(duplicated);

        // 3. One write per remaining user, with all its changes.
        for (String user : valid) {
            List<Upsertion> userUpsertions = upsertions.stream().filter(u -> u.user().equals(user)).toList();
            List<Deletion> userDeletions = deletions.stream().filter(d -> d.user().equals(user)).toList();
            results.put(user, alterUser(user, userUpsertions, userDeletions));
        }
        return results;
    }

    private static Optional<ApiError> illegalUpsertion(Upsertion u) {
        if (u.user().isEmpty()) {
            return Optional.of(new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, USERNAME_MUST_NOT_BE_EMPTY));
        }
        if (u.mechanism() == ScramMechanism.UNKNOWN) {
            return Optional.of(new ApiError(Errors.UNSUPPORTED_SASL_MECHANISM, UNKNOWN_SCRAM_MECHANISM));
        }
        int minIterations = internal(u.mechanism()).minIterations();
        if (u.iterations() < minIterations) {
            return Optional.of(new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations"));
        }
        if (u.iterations() > MAX_ITERATIONS) {
            return Optional.of(new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations"));
        }
        if (u.salt() == null || u.salt().length == 0 || u.saltedPassword() == null || u.saltedPassword().length == 0) {
            return Optional.of(new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Salt and salted password must not be empty"));
        }
        return Optional.empty();
    }

    private ApiError alterUser(String user, List<Upsertion> upsertions, List<Deletion> deletions) {
        Map<String, String> credentials = new LinkedHashMap<>();
        try {
            for (Upsertion u : upsertions) {
                ScramCredential credential = new ScramFormatter(internal(u.mechanism()))
                    .generateCredential(u.salt(), u.saltedPassword(), u.iterations());
                credentials.put(u.mechanism().mechanismName(), ScramCredentialUtils.credentialToString(credential));
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            log.warn("Could not derive the SCRAM credentials of user {}: {}", user, e.getClass().getName());
            return new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "The credential could not be derived from the salted password");
        }
        String sanitized = UserEntityConfigs.sanitize(user);
        try {
            UserEntityConfigs.UserConfig written = userConfigs.change(sanitized, config -> {
                for (Deletion d : deletions) {
                    if (config.remove(d.mechanism().mechanismName()) == null) {
                        throw new CredentialNotFound();
                    }
                }
                config.putAll(credentials);
                return config;
            });
            onWritten.accept(sanitized, written);
            log.info("SCRAM credentials of user {} altered: upserted {}, deleted {}", user,
                upsertions.stream().map(u -> u.mechanism().mechanismName() + "/" + u.iterations()).toList(),
                deletions.stream().map(d -> d.mechanism().mechanismName()).toList());
            return ApiError.NONE;
        } catch (CredentialNotFound e) {
            return new ApiError(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist");
        } catch (RuntimeException e) {
            log.warn("Could not alter the SCRAM credentials of user {}: {}", user, e.toString());
            return ApiError.fromThrowable(e);
        }
    }

    private static org.apache.kafka.common.security.scram.internals.ScramMechanism internal(ScramMechanism mechanism) {
        return org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(mechanism.mechanismName());
    }

    /** A deletion named a credential the user does not have: the user's changes are abandoned. */
    private static final class CredentialNotFound extends RuntimeException {
        CredentialNotFound() {
            super(null, null, false, false);
        }
    }
}
