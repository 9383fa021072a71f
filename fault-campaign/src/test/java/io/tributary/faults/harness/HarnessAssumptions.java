package io.tributary.faults.harness;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;

/** The harness's integration tests run as root with iproute2, as CI does; elsewhere they are skipped. */
final class HarnessAssumptions {

    private HarnessAssumptions() {
    }

    static void assumeRootWithIproute2() {
        boolean root = "root".equals(System.getProperty("user.name"));
        boolean ip;
        try {
            CommandRunner.processes().run(List.of("ip", "netns", "list"));
            ip = true;
        } catch (RuntimeException e) {
            ip = false;
        }
        assumeTrue(root && ip, "needs root and iproute2 (ip netns)");
    }
}
