package io.tributary.benchmarks;

import java.io.IOException;
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
