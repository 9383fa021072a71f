package io.tributary.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Which JVM owns which run: a file per run id holding the owner's pid, so that {@link Network#cleanupStale} removes
 * only what runs of dead JVMs left behind, not the network of a campaign another JVM runs at the same time (two
 * developers' test runs on one machine, or a long campaign beside the test command). The default directory is
 * {@code /run/tributary-faults} (a tmpfs on Linux, so a reboot forgets every owner, as it forgets every namespace).
 * Thread-safe (each call is one file operation).
 */
public final class RunOwners {

    private final Path directory;

    public RunOwners(Path directory) {
        this.directory = directory;
    }

    /** The machine-wide owners' directory. */
    public static RunOwners system() {
        return new RunOwners(Path.of("/run", "tributary-faults"));
    }

    /** Records this JVM as the owner of {@code run}. */
    public void claim(String run) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(run), Long.toString(ProcessHandle.current().pid()),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the owner of run " + run + " in " + directory, e);
        }
    }

    /** Forgets the owner of {@code run}; nothing if none was recorded. */
    public void release(String run) {
        try {
            Files.deleteIfExists(directory.resolve(run));
        } catch (IOException e) {
            // a leftover owner file names a dead pid: cleanupStale treats the run as stale anyway
        }
    }

    /** Whether {@code run}'s recorded owner is a live process. */
    public boolean isLive(String run) {
        OptionalLong pid = owner(run);
        return pid.isPresent() && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false);
    }

    private OptionalLong owner(String run) {
        try {
            Path file = directory.resolve(run);
            if (!Files.isRegularFile(file)) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
