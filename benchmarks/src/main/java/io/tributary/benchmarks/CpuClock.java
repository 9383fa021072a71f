package io.tributary.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** CPU time of a process and of the whole machine, in seconds (user + system, all threads and cores). */
final class CpuClock {

    private CpuClock() {
    }

    /** CPU seconds used so far by the live process {@code pid} (user + system), or NaN if it is gone. */
    static double processSeconds(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration())
                .map(CpuClock::seconds).orElse(Double.NaN);
    }

    /**
     * CPU seconds used so far by the JIT compiler threads of the live JVM {@code pid} (its
     * {@code C1 CompilerThread}s and {@code C2 CompilerThread}s, user + system, from
     * {@code /proc/<pid>/task}), or NaN where there is no {@code /proc}. Only threads alive when read
     * count: a compiler thread the JVM retires between two readings takes its share out of the
     * difference (with 2 cores the JVM keeps one thread of each compiler).
     */
    static double compilerSeconds(long pid) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            long ticks = 0;
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (!comm.startsWith("C1 CompilerThre") && !comm.startsWith("C2 CompilerThre")) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    // Fields after the command, which is in parentheses and may hold spaces: utime is
                    // the 14th field of the line, stime the 15th.
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read
                }
            }
            return ticks / (double) ClockTicks.PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU seconds all cores of the machine have spent busy since boot (user, nice, system, irq,
     * softirq, steal from {@code /proc/stat}), or NaN where there is no {@code /proc/stat}.
     */
    static double machineBusySeconds() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busyTicks = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busyTicks += Long.parseLong(f[i]);
            }
            return busyTicks / (double) ClockTicks.PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** Kernel clock ticks per second ({@code getconf CLK_TCK}), 100 if it cannot be read. */
    private static final class ClockTicks {
        static final long PER_SECOND = read();

        private static long read() {
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes()).trim();
                return p.waitFor() == 0 ? Long.parseLong(out) : 100;
            } catch (IOException | RuntimeException e) {
                return 100;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 100;
            }
        }
    }
}
