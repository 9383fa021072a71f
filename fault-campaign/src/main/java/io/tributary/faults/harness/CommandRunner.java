package io.tributary.faults.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command of the harness ({@code ip ...}) to completion. A fake in tests records the commands instead, so the
 * command generation is tested without root.
 */
@FunctionalInterface
public interface CommandRunner {

    /**
     * Runs {@code command}; its combined output.
     *
     * @throws CommandFailedException when it exits with a non-zero status
     */
    String run(List<String> command);

    /** Runs commands as child processes, each given 30 s. */
    static CommandRunner processes() {
        return command -> {
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                byte[] out = process.getInputStream().readAllBytes();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new CommandFailedException(command, -1, "timed out");
                }
                String text = new String(out, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new CommandFailedException(command, process.exitValue(), text);
                }
                return text;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
            }
        };
    }

    /** A command that exited with a non-zero status. */
    final class CommandFailedException extends RuntimeException {
        private final int exitStatus;

        public CommandFailedException(List<String> command, int exitStatus, String output) {
            super("'" + String.join(" ", command) + "' exited with " + exitStatus + ": " + output.strip());
            this.exitStatus = exitStatus;
        }

        public int exitStatus() {
            return exitStatus;
        }
    }
}
