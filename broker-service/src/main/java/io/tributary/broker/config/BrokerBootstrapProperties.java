package io.tributary.broker.config;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The first SCRAM users and ACLs of a cluster, written to ZooKeeper when a broker starts, before
 * its listeners bind: the way into a cluster whose only listeners want SASL (Kafka's
 * {@code kafka-storage format --add-scram} in KRaft mode, {@code kafka-configs --zookeeper} in
 * ZooKeeper mode). Bound from {@code broker.*} like {@link BrokerProperties}; Tributary's own
 * settings, not Kafka's, so they are not read from a {@code server.properties} file.
 *
 * <p>Create-if-absent: a credential of a (user, mechanism) that exists in ZooKeeper is never
 * replaced, so a password changed later through AlterUserScramCredentials stays changed; an ACL
 * that exists is left alone. What was deleted through the API comes back at the next start while
 * it is still listed here. Parsing and applying: {@code io.tributary.broker.security.SecurityBootstrap}.
 *
 * <p>Immutable. {@link #toString()} never shows the users' settings (they may hold passwords).
 *
 * @param bootstrapScramUsers SCRAM credentials in the syntax of Kafka's {@code --add-scram}, one or more
 *                            entries separated by {@code ;} (or new lines):
 *                            {@code SCRAM-SHA-512=[name=admin,password-file=/etc/secrets/admin]},
 *                            {@code SCRAM-SHA-256=[name=alice,password="alice secret",iterations=8192]};
 *                            {@code password-file} (Tributary's) reads the password from a file, without its
 *                            trailing line break, so it can come from a mounted Kubernetes Secret
 * @param bootstrapAcls       ACLs, one per line or separated by {@code ;}, each as comma-separated
 *                            {@code key=value} pairs in kafka-acls' terms:
 *                            {@code principal=User:alice,operation=Write,resource-type=Topic,resource-name=orders}
 *                            (also {@code host}, default {@code *}; {@code permission} Allow or Deny, default Allow;
 *                            {@code pattern-type} Literal or Prefixed, default Literal)
 * @param bootstrapAclsFile   a file of ACLs in the same format, one per line; lines starting with {@code #} are comments
 */
@ConfigurationProperties("broker")
public record BrokerBootstrapProperties(String bootstrapScramUsers, String bootstrapAcls, String bootstrapAclsFile) {

    /** No bootstrap: nothing is written. */
    public static BrokerBootstrapProperties none() {
        return new BrokerBootstrapProperties(null, null, null);
    }

    /**
     * Binds {@code broker.*} keys from a map, with the same rules as the Spring environment.
     *
     * @throws org.springframework.boot.context.properties.bind.BindException on a bad value
     */
    public static BrokerBootstrapProperties bind(Map<String, ?> properties) {
        Binder binder = new Binder(new MapConfigurationPropertySource(properties));
        return binder.bindOrCreate("broker", Bindable.of(BrokerBootstrapProperties.class));
    }

    @Override
    public String toString() {
        return "BrokerBootstrapProperties[bootstrapScramUsers=" + (isSet(bootstrapScramUsers) ? "(hidden)" : "none")
            + ", bootstrapAcls=" + (isSet(bootstrapAcls) ? "set" : "none") + ", bootstrapAclsFile=" + bootstrapAclsFile + "]";
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
