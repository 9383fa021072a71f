package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TmpfsMountTest {

    @Test
    void staleTmpfsMountsOfDeadRunsUnderTheRootAreUnmounted() {
        List<String> ran = new ArrayList<>();
        CommandRunner runner = command -> {
            ran.add(String.join(" ", command));
            return "";
        };
        String mounts = String.join("\n",
                "tmpfs /run tmpfs rw,nosuid 0 0",
                "tmpfs /w/target/campaign/dead1/broker-1/full tmpfs rw,size=8192k 0 0",
                "tmpfs /w/target/campaign/live2/broker-1/full tmpfs rw,size=8192k 0 0",
                "/dev/sda1 /w/target/campaign/dead1/disk ext4 rw 0 0");

        List<String> removed = TmpfsMount.cleanupStale(mounts, Path.of("/w/target/campaign"), "live2"::equals, runner);

        assertThat(removed).containsExactly("/w/target/campaign/dead1/broker-1/full");
        assertThat(ran).containsExactly("umount -l /w/target/campaign/dead1/broker-1/full");
    }
}
