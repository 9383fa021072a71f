package io.tributary.faults.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A small tmpfs mounted at a directory, for a broker's log directory that fills up: {@link #fill()} writes a filler
 * file until the file system has no space left (as another process filling the disk would), {@link #free()} deletes
 * it, {@link #close()} unmounts. Mounts are in the root mount namespace, which the broker processes started with
 * {@code ip netns exec} see. {@link #cleanupStale} unmounts the tmpfs mounts a killed run left under a directory.
 * Needs root. Not thread-safe.
 */
public final class TmpfsMount implements AutoCloseable {

    private static final String FILLER = "filler";

    private final Path directory;
    private final CommandRunner runner;
    private boolean mounted;

    private TmpfsMount(Path directory, CommandRunner runner) {
        this.directory = directory;
        this.runner = runner;
    }

    /** Mounts a tmpfs of {@code sizeBytes} at {@code directory}, created if missing. */
    public static TmpfsMount mount(Path directory, long sizeBytes, CommandRunner runner) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TmpfsMount mount = new TmpfsMount(directory.toAbsolutePath(), runner);
        runner.run(List.of("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes, "tmpfs", mount.directory.toString()));
        mount.mounted = true;
        return mount;
    }

    public Path directory() {
        return directory;
    }

    /**
     * Writes the filler file until the file system refuses more ("No space left on device").
     *
     * @return the bytes the filler took
     */
    public long fill() {
        byte[] block = new byte[64 * 1024];
        long written = 0;
        try (OutputStream out = Files.newOutputStream(directory.resolve(FILLER))) {
            while (true) {
                out.write(block);
                written += block.length;
            }
        } catch (IOException e) {
            // full: what this method is for (the last block may be partly written)
        }
        return written;
    }

    /** Deletes the filler file, giving its space back. */
    public void free() {
        try {
            Files.deleteIfExists(directory.resolve(FILLER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lazily unmounts (a process that still holds a file there keeps it until it exits); idempotent. */
    @Override
    public void close() {
        if (mounted) {
            mounted = false;
            runner.run(List.of("umount", "-l", directory.toString()));
        }
    }

    /**
     * Unmounts every tmpfs mounted below {@code root/<run>/} (as {@code /proc/mounts} lists them) unless
     * {@code liveRun} says its run still has a live owner: what runs killed before their clean-up left; the mount
     * points it unmounted.
     */
    public static List<String> cleanupStale(String procMounts, Path root, Predicate<String> liveRun,
                                            CommandRunner runner) {
        String prefix = root.toAbsolutePath().normalize() + "/";
        List<String> removed = new ArrayList<>();
        for (String line : procMounts.split("\n")) {
            String[] fields = line.split(" ");
            if (fields.length > 2 && fields[2].equals("tmpfs") && fields[1].startsWith(prefix)
                    && !liveRun.test(fields[1].substring(prefix.length()).split("/")[0])) {
                try {
                    runner.run(List.of("umount", "-l", fields[1]));
                    removed.add(fields[1]);
                } catch (RuntimeException e) {
                    // gone meanwhile
                }
            }
        }
        return removed;
    }

    /**
     * {@link #cleanupStale(String, Path, Predicate, CommandRunner)} with this machine's {@code /proc/mounts} and the
     * {@link RunOwners#system() recorded owners}.
     */
    public static List<String> cleanupStale(Path root, CommandRunner runner) {
        RunOwners owners = RunOwners.system();
        try {
            return cleanupStale(Files.readString(Path.of("/proc/mounts")), root, owners::isLive, runner);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
