package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOwnersTest {

    @TempDir
    Path dir;

    @Test
    void aRunIsLiveWhileItsOwnerProcessLivesAndUntilReleased() throws Exception {
        RunOwners owners = new RunOwners(dir.resolve("owners"));
        assertThat(owners.isLive("ab1")).isFalse();

        owners.claim("ab1");
        assertThat(owners.isLive("ab1")).as("owned by this JVM").isTrue();

        owners.release("ab1");
        assertThat(owners.isLive("ab1")).isFalse();
    }

    @Test
    void aRunWhoseOwnerDiedOrWhoseFileIsGarbageIsStale() throws Exception {
        RunOwners owners = new RunOwners(dir);
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Files.writeString(dir.resolve("dd2"), Long.toString(dead.pid()));
        Files.writeString(dir.resolve("gg3"), "not a pid");

        assertThat(owners.isLive("dd2")).isFalse();
        assertThat(owners.isLive("gg3")).isFalse();
    }
}
