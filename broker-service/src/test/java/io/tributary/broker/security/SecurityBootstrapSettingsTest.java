package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.config.BrokerBootstrapProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.acl.AclOperation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SecurityBootstrap#from}: the inline ACLs and the ACL file together, and errors naming the file's setting. */
class SecurityBootstrapSettingsTest {

    @TempDir
    Path dir;

    @Test
    void takesTheInlineAclsThenTheFilesAndNothingWhenUnset() throws Exception {
        Path file = dir.resolve("acls");
        Files.writeString(file, """
            # from a ConfigMap
            principal=User:bob, operation=Read, resource-type=Group, resource-name=readers

            principal=User:bob, operation=Describe, resource-type=Topic, resource-name=orders
            """);
        SecurityBootstrap bootstrap = SecurityBootstrap.from(new BrokerBootstrapProperties(null,
            "principal=User:alice,operation=Write,resource-type=Topic,resource-name=orders", file.toString()));
        assertThat(bootstrap.acls()).extracting(b -> b.entry().principal() + " " + b.entry().operation())
            .containsExactly("User:alice " + AclOperation.WRITE, "User:bob " + AclOperation.READ,
                "User:bob " + AclOperation.DESCRIBE);
        assertThat(bootstrap.isEmpty()).isFalse();
        assertThat(SecurityBootstrap.from(BrokerBootstrapProperties.none()).isEmpty()).isTrue();
    }

    @Test
    void aMissingOrMalformedFileNamesTheSettingAndTheFile() throws Exception {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> SecurityBootstrap.from(new BrokerBootstrapProperties(null, null, missing.toString())))
            .hasMessageStartingWith("broker.bootstrap-acls-file: cannot read " + missing);
        Path bad = dir.resolve("bad");
        Files.writeString(bad, "# one\nprincipal=User:a, operation=Read, resource-type=Topic\n");
        assertThatThrownBy(() -> SecurityBootstrap.from(new BrokerBootstrapProperties(null, null, bad.toString())))
            .hasMessage("broker.bootstrap-acls-file (" + bad + "): ACL 2 has no resource-name=");
    }
}
