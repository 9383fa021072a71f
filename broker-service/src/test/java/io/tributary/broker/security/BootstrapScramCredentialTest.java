package io.tributary.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's {@code --add-scram} syntax, Tributary's {@code password-file}, and errors that keep passwords out. */
class BootstrapScramCredentialTest {

    private static final String SETTING = "broker.bootstrap-scram-users";

    @TempDir
    Path dir;

    @Test
    void parsesSeveralEntriesWithQuotedValuesDefaultsAndPasswordFiles() throws Exception {
        Path file = dir.resolve("pw");
        Files.writeString(file, "from-a-file\r\n");
        List<BootstrapScramCredential> parsed = BootstrapScramCredential.parseAll(SETTING,
            "SCRAM-SHA-512=[name=admin,password-file=" + file + "];\n"
                + "scram-sha-256=[name=alice, password=\"a,b;c]=d\", iterations=8192] SCRAM-SHA-512=[name=alice,password=x]");
        assertThat(parsed).extracting(BootstrapScramCredential::user).containsExactly("admin", "alice", "alice");
        assertThat(parsed).extracting(BootstrapScramCredential::mechanism)
            .containsExactly(ScramMechanism.SCRAM_SHA_512, ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512);
        assertThat(parsed).extracting(BootstrapScramCredential::password).containsExactly("from-a-file", "a,b;c]=d", "x");
        assertThat(parsed).extracting(BootstrapScramCredential::iterations).containsExactly(4096, 8192, 4096);
        assertThat(parsed.get(1).toString()).contains("alice").doesNotContain("a,b;c]=d");
        assertThat(BootstrapScramCredential.parseAll(SETTING, "  ")).isEmpty();
        assertThat(BootstrapScramCredential.parseAll(SETTING, null)).isEmpty();
    }

    @Test
    void readsTheFormTheHelmChartRenders() throws Exception {
        Path file = dir.resolve("password");
        Files.writeString(file, "from-a-secret");
        // helm/tributary: tributary.broker.bootstrapScramUsers, names quoted, ';' between entries.
        List<BootstrapScramCredential> parsed = BootstrapScramCredential.parseAll(SETTING,
            "SCRAM-SHA-512=[name=\"broker\",password-file=" + file + "];SCRAM-SHA-256=[name=\"orders-app\",password-file="
                + file + "]");
        assertThat(parsed).extracting(BootstrapScramCredential::user).containsExactly("broker", "orders-app");
        assertThat(parsed).extracting(BootstrapScramCredential::password).containsOnly("from-a-secret");
    }

    @Test
    void aDerivedCredentialVerifiesThePasswordWithItsOwnRandomSalt() throws Exception {
        BootstrapScramCredential credential = BootstrapScramCredential.parseAll(SETTING,
            "SCRAM-SHA-256=[name=bob,password=bob-secret,iterations=5000]").get(0);
        ScramCredential first = credential.derive();
        ScramCredential second = credential.derive();
        assertThat(first.salt()).isNotEqualTo(second.salt());
        assertThat(first.iterations()).isEqualTo(5000);
        ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_256);
        byte[] storedKey = formatter.storedKey(formatter.clientKey(
            formatter.saltedPassword("bob-secret", first.salt(), 5000)));
        assertThat(storedKey).isEqualTo(first.storedKey());
    }

    @Test
    void takesKafkasSaltAndSaltedPassword() throws Exception {
        ScramFormatter formatter = new ScramFormatter(ScramMechanism.SCRAM_SHA_512);
        byte[] salt = "sixteen-byte-slt".getBytes();
        byte[] salted = formatter.saltedPassword("carol-pw", salt, 4096);
        ScramCredential derived = BootstrapScramCredential.parseAll(SETTING, "SCRAM-SHA-512=[name=carol,salt=\""
            + Base64.getEncoder().encodeToString(salt) + "\",saltedpassword=\"" + Base64.getEncoder().encodeToString(salted)
            + "\"]").get(0).derive();
        assertThat(derived.salt()).isEqualTo(salt);
        assertThat(derived.storedKey()).isEqualTo(formatter.storedKey(formatter.clientKey(salted)));
    }

    @Test
    void refusesBadEntriesNamingTheSettingAndEntryButNeverThePassword() {
        String secret = "p4ss-w0rd-secret";
        for (String bad : List.of(
                "SCRAM-SHA-512=[password=" + secret + "]",
                "SCRAM-SHA-512=[name=a,password=" + secret,
                "SCRAM-SHA-512=[name=a,password=\"" + secret + "]",
                "SCRAM-SHA-512=[name=a,password=" + secret + ",iterations=10]",
                "SCRAM-SHA-512=[name=a,password=" + secret + ",iterations=many]",
                "SCRAM-SHA-512=[name=a,password=" + secret + ",password-file=/x]",
                "SCRAM-SHA-512=[name=a,passwort=" + secret + "]",
                "SCRAM-SHA-512=[name=a,password=]",
                "SCRAM-SHA-512=[name=a,password=" + secret + "];SCRAM-SHA-512=[name=a,password=other]",
                "SCRAM-SHA-512=[name=a,salt=AAAA]",
                "PLAIN=[name=a,password=" + secret + "]",
                "SCRAM-SHA-512 " + secret)) {
            assertThatThrownBy(() -> BootstrapScramCredential.parseAll(SETTING, bad)).as(bad)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(SETTING + ": entry ")
                .hasMessageNotContaining(secret);
        }
    }
}
