package io.tributary.faults.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a campaign leaves behind when the cluster does not recover: each live broker JVM's state in the kernel
 * ({@code /proc/<pid>/stat}: R running, S sleeping, T stopped) and its threads ({@code jcmd <pid> Thread.print}), each
 * dump written next to the broker's log as {@code <name>-threads-<n>.txt}. Best effort: a dump that fails is named
 * in the summary instead. Stateless; thread-safe.
 */
public final class ThreadDumps {

    private ThreadDumps() {
    }

    /** Dumps every live broker of {@code cluster}; one line per broker naming its state and dump file. */
    public static List<String> ofBrokers(FaultCluster cluster, CommandRunner runner) {
        List<String> summary = new ArrayList<>();
        for (BrokerProcess broker : cluster.brokers()) {
            NodeProcess process = broker.process();
            if (!process.isAlive()) {
                summary.add(process.name() + ": not running");
                continue;
            }
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
                String state = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[0];
                Path dump = uniqueFile(process.logFile().getParent(), process.name() + "-threads-");
                Files.writeString(dump, runner.run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd")
                        .toString(), Long.toString(process.pid()), "Thread.print")), StandardCharsets.UTF_8);
                summary.add(process.name() + ": state " + state + ", threads in " + dump);
            } catch (IOException | RuntimeException e) {
                summary.add(process.name() + ": no dump (" + e + ")");
            }
        }
        return summary;
    }

    private static Path uniqueFile(Path dir, String prefix) {
        for (int i = 1; ; i++) {
            Path file = dir.resolve(prefix + i + ".txt");
            if (!Files.exists(file)) {
                return file;
            }
        }
    }
}
